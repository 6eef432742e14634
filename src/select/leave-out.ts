// Scoring a tool as if part of its contract were not in the index: `eval` grades a routing example
// with that example left out of its own tool (evaluate.ts leaveOutExamples), so that an example
// cannot select its tool by matching itself.
import { explain, explainDoc, RANK, type DocStats, type LexicalIndex, type RankParams } from './model.js';
import { scoreDocCover, type Query } from './query.js';

/**
 * A tool scored as if part of its contract were not in the index: tool number `doc`, described by
 * `stats` (its term statistics without the left-out text).
 */
export interface LeaveOut {
  doc: number;
  stats: DocStats;
}

/** Score the tools of `leaveOut` from their given statistics instead of their postings (in place). */
export function scoreLeftOut(
  ix: LexicalIndex,
  leaveOut: readonly LeaveOut[] | undefined,
  q: Query,
  scores: Float64Array,
  cover?: Float64Array,
  params: RankParams = RANK,
): void {
  for (const l of leaveOut ?? []) {
    const r = scoreDocCover(ix, l.stats, q, params);
    scores[l.doc] = r.score;
    if (cover) cover[l.doc] = r.cover;
  }
}

/** Which query terms matched which fields of tool `doc` (of its given statistics when it is left out). */
export function whyMatched(
  ix: LexicalIndex,
  doc: number,
  q: Query,
  leaveOut: readonly LeaveOut[] | undefined,
  params: RankParams = RANK,
) {
  const left = leaveOut?.find((l) => l.doc === doc);
  return left ? explainDoc(ix, left.stats, q, params) : explain(ix, doc, q);
}
