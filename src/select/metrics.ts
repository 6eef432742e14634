// Selection-quality metrics, exactly as ../shared/bench/README.md and bm25_baseline.py define
// them (binary relevance, averaged over queries), so that `toolbox eval` and the baseline script
// report the same numbers for the same ranking.

/** The metrics `toolbox eval` reports. Keys as in its JSON output. */
export interface Metrics {
  'r@1': number;
  'r@5': number;
  'r@10': number;
  'p@1': number;
  'ndcg@10': number;
  mrr: number;
}

/** Metrics of one query: `ranked` best first (at least the top 10), `relevant` the gold ids. */
export function queryMetrics(ranked: readonly string[], relevant: readonly string[]): Metrics {
  const rel = new Set(relevant);
  const hits = (k: number) => new Set(ranked.slice(0, k).filter((id) => rel.has(id))).size / rel.size;
  let dcg = 0;
  let first = 0;
  ranked.slice(0, 10).forEach((id, r) => {
    if (!rel.has(id)) return;
    dcg += 1 / Math.log2(r + 2);
    if (!first) first = r + 1;
  });
  let idcg = 0;
  for (let r = 0; r < Math.min(10, rel.size); r++) idcg += 1 / Math.log2(r + 2);
  return {
    'r@1': hits(1),
    'r@5': hits(5),
    'r@10': hits(10),
    'p@1': ranked.length > 0 && rel.has(ranked[0]!) ? 1 : 0,
    'ndcg@10': dcg / idcg,
    mrr: first ? 1 / first : 0,
  };
}

/** Mean of per-query metrics (summed in query order, as the baseline script does). */
export function meanMetrics(all: readonly Metrics[]): Metrics {
  const sum: Metrics = { 'r@1': 0, 'r@5': 0, 'r@10': 0, 'p@1': 0, 'ndcg@10': 0, mrr: 0 };
  for (const m of all) for (const k of Object.keys(sum) as (keyof Metrics)[]) sum[k] += m[k];
  const n = Math.max(1, all.length);
  for (const k of Object.keys(sum) as (keyof Metrics)[]) sum[k] /= n;
  return sum;
}
