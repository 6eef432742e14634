// What the model is shown: no padding (a list stops where the scores fall off), exact names first
// (`query_weather`, `select:calculator,query_weather`), and pinned tools always offered.

/**
 * Where a result list stops. `relative`: a tool scoring under this share of the first tool's score
 * is padding (it matched a fraction of what the first one did, typically one weak word).
 * `minCover`: the least query weight a tool must match, whatever the top score: 0.5 is one Chinese
 * bigram, so a tool that matched only single characters (查 of 查询) is noise. (A floor in score
 * units would depend on the registry's size: in a registry of two tools every idf is tiny.) On
 * the eight bench sets the cut-off costs at most 0.001 NDCG@10 (bench/quality.mjs, cut: false).
 * `minContent`: the least task a query must name (small-talk.ts contentWeight: one word that is not
 * small talk, or four of time and chat topics); below it the query is small talk and selects
 * nothing ("thanks, that was helpful", "你好呀，今天过得怎么样？").
 */
export const CUTOFF = { relative: 0.2, minCover: 0.5, minContent: 1 };

/** Options that change where the list stops. */
export interface CutOptions {
  /** Absolute minimum score (`--min-score`). */
  minScore?: number;
  /** false: no cut-off at all (a plain ranking, as `eval --no-cutoff` measures). */
  cutoff?: boolean;
}

/** The candidates (best first) that survive the cut-off; `cover`: query weight each tool matched. */
export function cutOff(
  order: number[],
  scores: ArrayLike<number>,
  cover: ArrayLike<number>,
  opts: CutOptions = {},
): number[] {
  if (opts.cutoff === false) return order;
  const kept = order.filter((d) => cover[d]! >= CUTOFF.minCover);
  if (!kept.length) return kept;
  const min = Math.max(opts.minScore ?? 0, CUTOFF.relative * scores[kept[0]!]!);
  return kept.filter((d) => scores[d]! >= min);
}

const norm = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, ' ')
    .trim();

/** `select:id1,id2` (DeerFlow's form): the ids asked for, in order; undefined when the query is not one. */
export function explicitIds(query: string): string[] | undefined {
  const m = /^\s*select:\s*(.+)$/i.exec(query);
  if (!m) return undefined;
  return [
    ...new Set(
      m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** Whether `query` is, loosely (case, spaces, `_`/`-`/`.`), the id or the name of a tool. */
export function isExactName(query: string, id: string, name?: string): boolean {
  const q = norm(query);
  return q !== '' && (q === norm(id) || (name !== undefined && q === norm(name)));
}
