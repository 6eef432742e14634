// The streamed lexical index build (src/select/lex-build.ts) against the straightforward one it
// replaced (kept as the oracle in build-oracle.ts). Equal means the same
// terms in the same order, the same postings and bit-identical weights.
import { describe, expect, it } from 'vitest';
import { FIELDS } from '../../src/select/fields.js';
import { buildIndex, LexBuilder } from '../../src/select/lex-build.js';
import { docStats, idf, RANK, type DocStats, type LexicalIndex, type RankParams } from '../../src/select/model.js';
import { genContracts, oracle } from './build-oracle.js';

function expectSame(a: LexicalIndex, b: LexicalIndex) {
  expect(a.n).toBe(b.n);
  expect(a.avg).toEqual(b.avg);
  expect([...a.terms]).toEqual([...b.terms]);
  expect(Buffer.from(a.docs.buffer, a.docs.byteOffset, a.docs.byteLength)).toEqual(
    Buffer.from(b.docs.buffer, b.docs.byteOffset, b.docs.byteLength),
  );
  expect(Buffer.from(a.sat.buffer, a.sat.byteOffset, a.sat.byteLength)).toEqual(
    Buffer.from(b.sat.buffer, b.sat.byteOffset, b.sat.byteLength),
  );
}

describe('the streamed lexical index build', () => {
  const stats = genContracts(400, 7).map(docStats);

  it('equals the straightforward build on 400 varied tools', () => {
    const ix = buildIndex(stats);
    expectSame(ix, oracle(stats));
    // The set covers what could go wrong: Chinese (the translated field), every field, growth
    // past the initial buffers.
    expect(ix.avg[FIELDS.indexOf('translated')]).toBeGreaterThan(0);
    expect(FIELDS.every((_, f) => ix.avg[f]! > 0)).toBe(true);
    expect(ix.docs.length).toBeGreaterThan(1024);
  });

  it('equals it with other ranking constants, added one tool at a time', () => {
    const p: RankParams = {
      ...RANK,
      k1: 2,
      fields: { ...RANK.fields, name: { w: 5, b: 0.9 }, enums: { w: 0.1, b: 0 } },
    };
    const b = new LexBuilder();
    for (const d of stats) b.add(d);
    expectSame(b.finish(p), oracle(stats, p));
  });

  it('equals it for tools with more distinct terms than its first scratch arrays hold (64), in any order', () => {
    const many = (from: number, n: number): DocStats => ({
      tf: FIELDS.map((_, f) =>
        Object.fromEntries(Array.from({ length: n }, (_, k) => [`w${from + k}`, 1 + ((k + f) % 3)])),
      ),
      len: FIELDS.map(() => 3 * n),
    });
    const docs = [many(0, 70), stats[0]!, many(50, 200), stats[1]!, many(0, 10)];
    const ix = buildIndex(docs);
    expectSame(ix, oracle(docs));
    expect(ix.terms.get('w60')!.n).toBe(2);
    expect(ix.terms.get('w5')!.n).toBe(2);
  });

  it('equals it past 1,024 distinct terms in all (its per-term scratch grows), and at a full length buffer', () => {
    const wide = (from: number, n: number): DocStats => ({
      tf: FIELDS.map((_, f) =>
        f === 2 ? Object.fromEntries(Array.from({ length: n }, (_, k) => [`t${from + k}`, 1])) : {},
      ),
      len: FIELDS.map((_, f) => (f === 2 ? n : 0)),
    });
    const docs = [wide(0, 1500), stats[0]!, wide(1400, 300), wide(10, 5)];
    const ix = buildIndex(docs);
    expectSame(ix, oracle(docs));
    expect([ix.terms.get('t1450')!.n, ix.terms.get('t12')!.n, ix.terms.get('t1699')!.n]).toEqual([2, 2, 1]);
    // 146 tools: 1,022 field lengths in a buffer of 1,024, the averages read exactly those.
    const full = stats.slice(0, 146);
    expectSame(buildIndex(full), oracle(full));
  });

  it('a field no tool has any length in weighs its counts unnormalised', () => {
    const odd: DocStats = { tf: FIELDS.map((_, f) => (f === 4 ? { x: 2 } : {})), len: FIELDS.map(() => 0) };
    const docs = [odd, { tf: FIELDS.map(() => ({})), len: FIELDS.map(() => 0) }];
    const ix = buildIndex(docs);
    expectSame(ix, oracle(docs));
    expect(Number.isFinite(ix.sat[ix.terms.get('x')!.off])).toBe(true);
  });

  it('handles no tools, tools without text and a zero count', () => {
    expectSame(buildIndex([]), oracle([]));
    const empty: DocStats = { tf: FIELDS.map(() => ({})), len: FIELDS.map(() => 0) };
    const zero: DocStats = { tf: FIELDS.map((_, f) => (f === 1 ? { a: 0, b: 2 } : {})), len: [0, 2, 0, 0, 0, 0, 0] };
    const mixed = [empty, zero, ...stats.slice(0, 5), empty];
    const ix = buildIndex(mixed);
    expectSame(ix, oracle(mixed));
    expect(ix.terms.get('a')).toEqual({ idf: idf(mixed.length, 1), off: 0, n: 1 });
    expect(ix.sat[0]).toBe(0);
  });
});
