// What the model is shown: no padding (a list stops where the scores fall off), exact names first
// (`query_weather`, `select:calculator,query_weather`), and pinned tools always offered.

/**
 * Where a result list stops. `relative`: a tool scoring under this share of the first tool's score
 * is padding (it matched a fraction of what the first one did, typically one weak word).
 * `floor`: an absolute minimum, about what a single Chinese character or a very common word earns
 * on its own; below it a match is noise whatever the top score. Chosen on the eight bench sets
 * (bench/loso.mjs) as the largest round values that cost no set more than 0.002 NDCG@10.
 */
export const CUTOFF = { relative: 0.2, floor: 0.5 };

/** Options that change where the list stops. */
export interface CutOptions {
  /** Absolute minimum score (`--min-score`); the default floor applies when it is lower. */
  minScore?: number;
  /** false: no cut-off at all (a plain ranking, as `eval --no-cutoff` measures). */
  cutoff?: boolean;
}

/** The candidates (best first) that survive the cut-off. */
export function cutOff(order: number[], scores: ArrayLike<number>, opts: CutOptions = {}): number[] {
  if (opts.cutoff === false || !order.length) return order;
  const floor = Math.max(CUTOFF.floor, opts.minScore ?? 0);
  const min = Math.max(floor, CUTOFF.relative * scores[order[0]!]!);
  return order.filter((d) => scores[d]! >= min);
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
