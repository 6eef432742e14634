// Incremental index updates (src/select/incremental.ts): when the field-length averages do not move
// (every tool here has one-word name and a three-word description), updating the old index must give
// exactly the index built from scratch: the same terms, idf, postings in tool order, field masks and weights.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { updateLex } from '../../src/select/incremental.js';
import { docStats, type LexicalIndex } from '../../src/select/model.js';
import { buildIndex } from '../../src/select/lex-build.js';

const tool = (id: string, description: string, extra: Record<string, unknown> = {}) =>
  ({ id, description, loader: 'command', ...extra }) as unknown as ToolContract;

/** Every term's idf and postings (tool, field mask, weight), by term. */
function postings(ix: LexicalIndex) {
  const out: Record<string, { idf: number; list: [number, number, number][] }> = {};
  for (const [t, e] of ix.terms) {
    const list: [number, number, number][] = [];
    for (let p = e.off; p < e.off + e.n; p++) list.push([ix.docs[p]! & 0xffffff, ix.docs[p]! >>> 24, ix.sat[p]!]);
    out[t] = { idf: e.idf, list };
  }
  return out;
}

const alpha = tool('alpha', 'weather rain snow');
const beta = tool('beta', 'weather stock price');
const gamma = tool('gamma', 'stock market news');
const delta = tool('delta', 'send email fast');

function check(before: ToolContract[], after: ToolContract[], fresh: number[]) {
  const old = buildIndex(before.map(docStats));
  // old tool d is now tool remap[d], or -1 when gone or changed
  const remap = Int32Array.from(before, (c) => {
    const i = after.findIndex((a) => a.id === c.id);
    return i < 0 || fresh.includes(i) ? -1 : i;
  });
  const stats = new Map(fresh.map((i) => [i, docStats(after[i]!)]));
  const updated = updateLex(old, remap, stats, after.length);
  const rebuilt = buildIndex(after.map(docStats));
  expect(updated.n).toBe(after.length);
  expect(updated.avg).toEqual(rebuilt.avg);
  expect(postings(updated)).toEqual(postings(rebuilt));
  expect(updated.docs.length).toBe(rebuilt.docs.length);
  return updated;
}

describe('updateLex', () => {
  it('equals a full build after a tool is changed, one removed and one added', () => {
    const beta2 = tool('beta', 'weather stock quote');
    const epsilon = tool('epsilon', 'email news alert');
    const ix = check([alpha, beta, gamma, delta], [alpha, gamma, epsilon, beta2], [2, 3]);
    // "price" was only in the old beta: gone; "quote" and "alert" are new; weather's df is unchanged
    expect(ix.terms.has('price')).toBe(false);
    expect(ix.terms.get('quot')?.n).toBe(1);
    expect(ix.terms.get('alert')?.n).toBe(1);
  });

  it('merges new tools before, between and after kept ones in tool order', () => {
    const zeta = tool('zeta', 'weather stock alert');
    const eta = tool('eta', 'weather email rain');
    check([alpha, gamma, delta], [zeta, alpha, eta, gamma, tool('theta', 'stock weather snow'), delta], [0, 2, 4]);
  });

  it('keeps the field masks of kept and new postings (a term in the name and the description)', () => {
    const rain = tool('rain', 'rain gauge reading');
    const ix = check([alpha, gamma], [alpha, gamma, rain], [2]);
    const e = ix.terms.get('rain')!;
    expect([...ix.docs.subarray(e.off, e.off + e.n)].map((d) => [d & 0xffffff, d >>> 24])).toEqual([
      [0, 0b10],
      [2, 0b11],
    ]);
  });

  it('removing every tool leaves an empty index; changing nothing leaves the same one', () => {
    const none = updateLex(buildIndex([alpha, beta].map(docStats)), Int32Array.from([-1, -1]), new Map(), 0);
    expect([none.n, none.terms.size, none.docs.length, none.sat.length]).toEqual([0, 0, 0, 0]);
    check([alpha, beta, gamma], [alpha, beta, gamma], []);
  });
});
