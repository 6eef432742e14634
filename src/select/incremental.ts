// Updating a lexical index for a few changed tools without re-analysing the others: their
// postings are copied (renumbered), only the changed tools' postings are computed, and each
// term's idf is recomputed from its new document frequency. Field-length averages are kept from
// the last full build (like a search engine between segment merges); store.ts rebuilds in full
// once too many tools changed since then.
import { RANK, fieldParams, idf, pseudoTf, saturate, type DocStats, type LexicalIndex } from './model.js';

/**
 * The index of a collection of `n` tools where tool `d` of `old` is now tool `remap[d]` (-1:
 * gone or changed) and `fresh` holds the statistics of the tools that are new or changed, by
 * their new number. `remap` must keep the order of the tools it keeps.
 */
export function updateLex(old: LexicalIndex, remap: Int32Array, fresh: Map<number, DocStats>, n: number): LexicalIndex {
  const avg = old.avg;
  // The same constants as buildIndex's default: the index is always built with RANK.
  const fp = fieldParams(RANK);
  const add = new Map<string, number[]>();
  for (const d of [...fresh.keys()].sort((a, b) => a - b)) {
    const seen = new Set<string>();
    for (const field of fresh.get(d)!.tf) for (const t in field) seen.add(t);
    for (const t of seen) {
      const list = add.get(t);
      if (list) list.push(d);
      else add.set(t, [d]);
    }
  }
  let cap = old.docs.length;
  for (const l of add.values()) cap += l.length;
  const docs = new Uint32Array(cap);
  const sat = new Float32Array(cap);
  const terms: LexicalIndex['terms'] = new Map();
  let off = 0;
  const emit = (t: string, e: { off: number; n: number } | undefined) => {
    const start = off;
    const extra = add.get(t) ?? [];
    let a = 0;
    const pushNew = (d: number) => {
      const { tf, mask } = pseudoTf(fresh.get(d)!, t, avg, fp);
      docs[off] = (d | (mask << 24)) >>> 0;
      sat[off++] = saturate(tf, RANK.k1);
    };
    if (e) {
      for (let p = e.off, end = e.off + e.n; p < end; p++) {
        const nd = remap[old.docs[p]! & 0xffffff]!;
        if (nd < 0) continue;
        // Merge: postings stay in tool order (explain() binary-searches them).
        while (a < extra.length && extra[a]! < nd) pushNew(extra[a++]!);
        docs[off] = (nd | (old.docs[p]! & 0xff000000)) >>> 0;
        sat[off++] = old.sat[p]!;
      }
    }
    while (a < extra.length) pushNew(extra[a++]!);
    if (off > start) terms.set(t, { idf: idf(n, off - start), off: start, n: off - start });
  };
  for (const [t, e] of old.terms) emit(t, e);
  for (const t of add.keys()) if (!old.terms.has(t)) emit(t, undefined);
  return { n, avg, terms, docs: docs.subarray(0, off), sat: sat.subarray(0, off) };
}
