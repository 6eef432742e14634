// A query as weighted terms, and its scores against the lexical index. Three kinds of term:
// the query's own terms; terms derived from one of them (a translation) that stand in for it; and
// context terms from earlier turns of a session, which add score but never make a tool match.
import type { DocStats, LexicalIndex } from './model.js';
import { docTermWeight, idf, KIND_WEIGHT, RANK, type RankParams } from './model.js';
import { Kind, tokenize } from './tokenize.js';
import { glossedWords, glossWeights, hasHan, zhWords } from './translate.js';
import { stem } from './stem.js';

/** Weighted query terms: term -> weight. */
export class Query extends Map<string, number> {
  /** Derived term (a translation) -> the query's own term it stands for. */
  readonly source = new Map<string, string>();
  /** Terms from earlier turns: they add to the score of a tool the query matches, never make one match. */
  readonly context = new Set<string>();

  /** Add a term derived from the query's own term `from` (kept when the term is already there). */
  derive(term: string, weight: number, from: string): void {
    if (this.has(term)) return;
    this.set(term, weight);
    this.source.set(term, from);
  }
}

/** Whether every pair of neighbouring characters of `word` is a term of `q` (nothing of it was dropped). */
function pairsKept(word: string, q: Query): boolean {
  for (let i = 0; i + 2 <= word.length; i++) if (!q.has(word.slice(i, i + 2))) return false;
  return true;
}

/**
 * Query terms of `text`, each kind weighted (KIND_WEIGHT) and scaled by `weight`; merged into
 * `into` by max. Chinese words also bring their English gloss stems as derived terms, each at
 * `derived` × weight / √(stems of the word), standing in for the word they came from.
 */
export function parseQuery(text: string, weight = 1, into: Query = new Query(), derived = RANK.derived): Query {
  for (const t of tokenize(text, { query: true })) {
    const w = KIND_WEIGHT[t.kind] * weight;
    if ((into.get(t.term) ?? 0) < w) into.set(t.term, w);
  }
  if (derived > 0 && hasHan(text)) {
    const norm = text.normalize('NFKC');
    for (const run of norm.match(/\p{sc=Han}+/gu) ?? []) {
      for (const { word, verb } of glossedWords(run)) {
        if (!into.has(word)) {
          // A glossary word longer than the segmenter's (短视频 where it found 短 + 视频) is a word of
          // the query when none of it was dropped as a stop word or small talk (every pair of its
          // characters is a query term); shorter ones are query terms unless dropped. (Hanging its
          // glosses on the longest term inside it instead, or adding it at half weight, ranked the
          // bench sets identically.)
          if (word.length < 3 || !pairsKept(word, into)) continue;
          into.set(word, KIND_WEIGHT[Kind.Word] * weight);
        }
        if (into.context.has(word)) continue; // only context
        for (const [s, w] of glossWeights(word, verb)) into.derive(s, derived * weight * w, word);
      }
    }
    // English words in a Chinese query ("把这个 file 上传到 cloud"): their Chinese renderings stand in
    // for them, as English glosses stand in for Chinese words, so they meet Chinese tools directly.
    // Each at the full derived weight: of the several renderings a registry mostly has one or two,
    // and spreading the weight over all (as glosses are) left mixed queries 0.02–0.03 further behind.
    for (const word of norm.toLowerCase().match(/[a-z]+/g) ?? []) {
      const own = stem(word);
      if (!into.has(own) || into.context.has(own) || into.source.has(own)) continue;
      for (const z of zhWords(word)) into.derive(z, derived * weight, own);
    }
  }
  return into;
}

/** Add the terms of an earlier turn as context (weight `weight`); the query's own terms keep theirs. */
export function addContext(q: Query, text: string, weight: number): void {
  for (const t of tokenize(text, { query: true })) {
    const w = KIND_WEIGHT[t.kind] * weight;
    const had = q.get(t.term);
    if (had === undefined) {
      q.set(t.term, w);
      q.context.add(t.term);
    } else if (q.context.has(t.term) && had < w) q.set(t.term, w);
  }
}

/** The query's own terms, each with the terms that stand in for it. */
function groups(q: Query): { weight: number; terms: string[] }[] {
  const by = new Map<string, { weight: number; terms: string[] }>();
  for (const [t, w] of q) {
    if (q.context.has(t) || q.source.has(t)) continue;
    by.set(t, { weight: w, terms: [t] });
  }
  for (const [t, from] of q.source) by.get(from)?.terms.push(t);
  return [...by.values()];
}

/**
 * Lexical scores of every tool for the query (0 = no match). A tool scores only when it matches
 * one of the query's own terms (or a translation of one); its BM25F score is then multiplied by
 * (share of the query's own weight it matched)^coord, so that covering more of the request wins.
 * `cover` receives, per tool, the query's own weight it matched.
 */
export function scoreAll(
  ix: LexicalIndex,
  q: Query,
  p: RankParams = RANK,
  cover = new Float64Array(ix.n),
): Float64Array {
  const scores = new Float64Array(ix.n);
  const stamp = new Int32Array(ix.n);
  const add = (t: string, onMatch?: (doc: number) => void) => {
    const e = ix.terms.get(t);
    if (!e) return;
    const k = q.get(t)! * e.idf;
    for (let i = e.off, end = e.off + e.n; i < end; i++) {
      const doc = ix.docs[i]! & 0xffffff;
      scores[doc] += k * ix.sat[i]!;
      onMatch?.(doc);
    }
  };
  let total = 0;
  groups(q).forEach((g, gi) => {
    total += g.weight;
    for (const t of g.terms)
      add(t, (doc) => {
        if (stamp[doc] === gi + 1) return;
        stamp[doc] = gi + 1;
        cover[doc] += g.weight;
      });
  });
  for (const t of q.context) add(t);
  for (let d = 0; d < ix.n; d++) {
    if (cover[d] === 0) scores[d] = 0;
    else if (p.coord) scores[d]! *= Math.min(1, cover[d]! / total) ** p.coord;
  }
  return scores;
}

/** Score of one tool described by `d` (not necessarily indexed), against the index's collection statistics. */
export function scoreDoc(ix: LexicalIndex, d: DocStats, q: Query, p: RankParams = RANK): number {
  return scoreDocCover(ix, d, q, p).score;
}

/** scoreDoc, with the query's own weight the tool matched (what scoreAll's `cover` holds). */
export function scoreDocCover(
  ix: LexicalIndex,
  d: DocStats,
  q: Query,
  p: RankParams = RANK,
): { score: number; cover: number } {
  let s = 0;
  let cover = 0;
  let total = 0;
  const part = (t: string) => {
    // Rounded to Float32 as the index stores it (model.ts `sat`), so that a tool scored here ties exactly
    // with an identical indexed tool scored by scoreAll (routing.ts decides ties by tool order).
    const sat = Math.fround(docTermWeight(ix, d, t, p));
    if (sat > 0) s += q.get(t)! * (ix.terms.get(t)?.idf ?? idf(ix.n, 1)) * sat;
    return sat > 0;
  };
  for (const g of groups(q)) {
    total += g.weight;
    let hit = false;
    for (const t of g.terms) hit = part(t) || hit;
    if (hit) cover += g.weight;
  }
  for (const t of q.context) part(t);
  if (cover === 0) return { score: 0, cover: 0 };
  return { score: p.coord ? s * Math.min(1, cover / total) ** p.coord : s, cover };
}
