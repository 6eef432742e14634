// BM25F: one BM25 over all fields of a tool, where each field's term frequency is weighted and
// length-normalised on its own before the shared saturation (Robertson & Zaragoza, "The
// Probabilistic Relevance Framework: BM25 and Beyond"). A term found in a short name counts more
// than the same term lost in a long parameter list, and a tool does not win by repeating a word.
import type { ToolContract } from '../contract/types.js';
import { FIELDS, fieldTexts, type Field } from './fields.js';
import { Kind, tokenize } from './tokenize.js';

/** Per-field weight and length-normalisation strength. General choices, not fitted to any data set. */
export const FIELD_PARAMS: Record<Field, { w: number; b: number }> = {
  name: { w: 3, b: 0.5 },
  description: { w: 1, b: 0.75 },
  parameters: { w: 0.5, b: 0.75 },
  enums: { w: 0.3, b: 0.5 },
  // Tags are coarse labels shared by many tools: weak evidence for any one of them.
  tags: { w: 0.5, b: 0.5 },
  examples: { w: 1, b: 0.75 },
};
export const K1 = 1.2;
const FP = FIELDS.map((f) => FIELD_PARAMS[f]);

/** Query-side weight of each kind of term: a Chinese bigram or single character is weaker evidence than a word. */
export const KIND_WEIGHT: Record<Kind, number> = { [Kind.Word]: 1, [Kind.Bigram]: 0.5, [Kind.Char]: 0.25 };

/** Term statistics of one tool: term frequencies and length of each field (FIELDS order). */
export interface DocStats {
  tf: Record<string, number>[];
  len: number[];
}

export function docStats(c: ToolContract): DocStats {
  const tf: Record<string, number>[] = [];
  const len: number[] = [];
  for (const text of fieldTexts(c)) {
    const counts: Record<string, number> = Object.create(null);
    const toks = tokenize(text);
    for (const t of toks) counts[t.term] = (counts[t.term] ?? 0) + 1;
    tf.push(counts);
    len.push(toks.length);
  }
  return { tf, len };
}

/** The query-ready index: per term its idf and postings (tool number + field mask, saturated score). */
export interface LexicalIndex {
  n: number;
  /** Average length of each field over all tools. */
  avg: number[];
  terms: Map<string, { idf: number; off: number; n: number }>;
  /** Per posting: tool number in the low 24 bits, field mask (bit i = FIELDS[i]) in the high 8. */
  docs: Uint32Array;
  /** Per posting: the saturated BM25F term weight, before idf. */
  sat: Float32Array;
}

export const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Pseudo term frequency and field mask of `term` in one tool. */
function pseudoTf(d: DocStats, term: string, avg: number[]): { tf: number; mask: number } {
  let tf = 0;
  let mask = 0;
  for (let f = 0; f < FP.length; f++) {
    const c = d.tf[f]![term];
    if (!c) continue;
    mask |= 1 << f;
    const norm = avg[f]! > 0 ? 1 - FP[f]!.b + FP[f]!.b * (d.len[f]! / avg[f]!) : 1;
    tf += (FP[f]!.w * c) / norm;
  }
  return { tf, mask };
}
const saturate = (tf: number) => (tf * (K1 + 1)) / (K1 + tf);

export function buildIndex(stats: DocStats[]): LexicalIndex {
  const n = stats.length;
  const avg = FIELDS.map((_, f) => (n ? stats.reduce((a, d) => a + d.len[f]!, 0) / n : 0));
  const post = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const seen = new Set<string>();
    for (const field of stats[i]!.tf) for (const t in field) seen.add(t);
    for (const t of seen) {
      let list = post.get(t);
      if (!list) post.set(t, (list = []));
      list.push(i);
    }
  }
  let total = 0;
  for (const l of post.values()) total += l.length;
  const docs = new Uint32Array(total);
  const sat = new Float32Array(total);
  const terms: LexicalIndex['terms'] = new Map();
  let off = 0;
  for (const [t, list] of post) {
    terms.set(t, { idf: idf(n, list.length), off, n: list.length });
    for (const i of list) {
      const { tf, mask } = pseudoTf(stats[i]!, t, avg);
      docs[off] = (i | (mask << 24)) >>> 0;
      sat[off] = saturate(tf);
      off++;
    }
  }
  return { n, avg, terms, docs, sat };
}

/** Weighted query terms: term -> weight. */
export type Query = Map<string, number>;

/** Query terms of `text`, each kind weighted (KIND_WEIGHT) and scaled by `weight`; merged into `into` by max. */
export function parseQuery(text: string, weight = 1, into: Query = new Map()): Query {
  for (const t of tokenize(text, { query: true })) {
    const w = KIND_WEIGHT[t.kind] * weight;
    if ((into.get(t.term) ?? 0) < w) into.set(t.term, w);
  }
  return into;
}

/** Lexical scores of every tool for the query (0 = no match). */
export function scoreAll(ix: LexicalIndex, q: Query): Float64Array {
  const scores = new Float64Array(ix.n);
  for (const [t, w] of q) {
    const e = ix.terms.get(t);
    if (!e) continue;
    const k = w * e.idf;
    for (let p = e.off, end = e.off + e.n; p < end; p++) scores[ix.docs[p]! & 0xffffff] += k * ix.sat[p]!;
  }
  return scores;
}

/** Score of one tool described by `d` (not necessarily indexed) against the index's collection statistics. */
export function scoreDoc(ix: LexicalIndex, d: DocStats, q: Query): number {
  let s = 0;
  for (const [t, w] of q) {
    const e = ix.terms.get(t);
    const { tf } = pseudoTf(d, t, ix.avg);
    if (tf > 0) s += w * (e ? e.idf : idf(ix.n, 1)) * saturate(tf);
  }
  return s;
}

/** Which query terms matched which fields of tool `doc`, with each term's share of the score. */
export function explain(ix: LexicalIndex, doc: number, q: Query): { term: string; fields: Field[]; score: number }[] {
  const out: { term: string; fields: Field[]; score: number }[] = [];
  for (const [t, w] of q) {
    const e = ix.terms.get(t);
    if (!e) continue;
    let lo = e.off;
    let hi = e.off + e.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = ix.docs[mid]! & 0xffffff;
      if (d === doc) {
        const mask = ix.docs[mid]! >>> 24;
        out.push({ term: t, fields: FIELDS.filter((_, f) => mask & (1 << f)), score: w * e.idf * ix.sat[mid]! });
        break;
      }
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Indices of the `k` best scores > 0, best first; ties keep registry order. */
export function topK(scores: Float64Array, k: number, allow?: (doc: number) => boolean): number[] {
  const cand: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i]! > 0 && (!allow || allow(i))) cand.push(i);
  cand.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return cand.slice(0, k);
}
