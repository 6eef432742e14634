// The on-disk index format (src/select/store-format.ts): what encodeIndex writes, decodeIndex reads
// back field by field, from an aligned Buffer, a Buffer at an odd offset and a plain Uint8Array.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { docStats, STATS_KEY } from '../../src/select/model.js';
import { buildIndex } from '../../src/select/lex-build.js';
import { decodeIndex, encodeIndex, type IndexData, type StoredIndex } from '../../src/select/store-format.js';

const contracts = [
  { id: 'alpha', description: 'weather rain', loader: 'command' },
  { id: 'beta', description: '查询北京天气', loader: 'command', tags: ['x'] },
  { id: 'gamma', description: 'stock price', loader: 'command' },
] as unknown as ToolContract[];

function data(): IndexData {
  return {
    registryDir: '/reg',
    files: {
      rel: ['a.yaml', 'sub/b.yaml'],
      mtime: Float64Array.from([1.5, 2.5]),
      size: Float64Array.from([10, 20]),
      ctime: Float64Array.from([3.25, 4.25]),
    },
    est: [2],
    drift: 1,
    broken: ['bad.yaml'],
    tools: [
      { id: 'alpha', rel: 'a.yaml', line: 3, tok: 40 },
      { id: 'beta', rel: 'sub/b.yaml', permissions: { network: true } as never, tok: -1 },
      { id: 'gamma', rel: 'sub/b.yaml', line: 20, permissions: ['fs'], tok: 7 },
    ],
    lex: buildIndex(contracts.map(docStats)),
    contracts: [JSON.stringify(contracts[0]), Buffer.from(JSON.stringify(contracts[1])), JSON.stringify(contracts[2])],
    hashes: ['h0', 'h1', 'h2'],
  };
}

function expectSame(s: StoredIndex | undefined, d: IndexData) {
  expect(s).toBeDefined();
  const { contract, blob, hash, lex, files, ...rest } = s!;
  expect(rest).toEqual({ registryDir: '/reg', est: [2], drift: 1, broken: ['bad.yaml'], tools: d.tools });
  expect({ rel: files.rel, mtime: [...files.mtime], size: [...files.size], ctime: [...files.ctime] }).toEqual({
    rel: ['a.yaml', 'sub/b.yaml'],
    mtime: [1.5, 2.5],
    size: [10, 20],
    ctime: [3.25, 4.25],
  });
  expect(lex.n).toBe(3);
  expect(lex.avg).toEqual(d.lex.avg);
  expect([...lex.terms]).toEqual([...d.lex.terms]);
  expect([...lex.docs]).toEqual([...d.lex.docs]);
  expect([...lex.sat]).toEqual([...d.lex.sat]);
  expect([0, 1, 2].map(contract)).toEqual(contracts);
  expect(Buffer.from(blob(1)).toString('utf8')).toBe(JSON.stringify(contracts[1]));
  expect([0, 1, 2].map(hash)).toEqual(['h0', 'h1', 'h2']);
}

describe('index file format', () => {
  it('reads back everything it wrote', () => {
    const d = data();
    const bytes = encodeIndex(d);
    // Format 07, analysis version STATS_KEY: an index analysed otherwise is not this format.
    expect(Buffer.from(bytes).toString('latin1', 0, 8)).toBe(`TBXS07${String(STATS_KEY).padStart(2, '0')}`);
    expectSame(decodeIndex(bytes), d);
  });

  it('reads a file held at any offset in memory, and from a plain Uint8Array', () => {
    const d = data();
    const bytes = encodeIndex(d);
    for (const at of [1, 3, 4, 5]) {
      const big = Buffer.alloc(bytes.length + 8);
      Buffer.from(bytes).copy(big, at);
      expectSame(decodeIndex(big.subarray(at, at + bytes.length)), d);
    }
    const plain = new Uint8Array(bytes.length + 5);
    plain.set(bytes, 5);
    expectSame(decodeIndex(plain.subarray(5)), d);
  });

  it('an empty index, and anything that is not an index of this version, is read as such', () => {
    const empty: IndexData = {
      registryDir: '/r',
      files: { rel: [], mtime: new Float64Array(), size: new Float64Array(), ctime: new Float64Array() },
      est: [],
      drift: 0,
      broken: [],
      tools: [],
      lex: buildIndex([]),
      contracts: [],
      hashes: [],
    };
    const e = decodeIndex(encodeIndex(empty))!;
    expect([e.tools, e.files.rel, e.lex.terms.size, e.lex.docs.length]).toEqual([[], [], 0, 0]);
    const bytes = Buffer.from(encodeIndex(data()));
    const old = Buffer.from(bytes);
    old.write('TBXSEL06', 0, 'latin1');
    expect(decodeIndex(old)).toBeUndefined();
    old.write(`TBXS07${String(STATS_KEY - 1).padStart(2, '0')}`, 0, 'latin1'); // terms of another analysis
    expect(decodeIndex(old)).toBeUndefined();
    expect(decodeIndex(bytes.subarray(0, 23))).toBeUndefined();
    expect(decodeIndex(Buffer.from('TBXSEL07'))).toBeUndefined();
  });
});
