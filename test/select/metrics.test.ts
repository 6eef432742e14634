// Selection-quality metrics (src/select/metrics.ts) on small rankings, values written out:
// R@k = relevant found in the top k / relevant; P@1; NDCG@10 with gain 1/log2(rank + 1); MRR.
import { describe, expect, it } from 'vitest';
import { meanMetrics, queryMetrics, type Metrics } from '../../src/select/metrics.js';

const round = (m: Metrics) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Number(v.toFixed(6))]));

describe('queryMetrics', () => {
  it('counts only the top 10, and divides by every relevant id (found or not)', () => {
    const ranked = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    // b at rank 2: dcg 1/log2 3 = 0.630930; ideal for 3 relevant: 1 + 0.630930 + 0.5
    expect(round(queryMetrics(ranked, ['b', 'k', 'z']))).toEqual({
      'r@1': 0,
      'r@5': 0.333333,
      'r@10': 0.333333,
      'p@1': 0,
      'ndcg@10': 0.296082,
      mrr: 0.5,
    });
    // f at rank 6: outside the top 5, inside the top 10
    expect(round(queryMetrics(ranked, ['f']))).toMatchObject({ 'r@5': 0, 'r@10': 1, mrr: 0.166667 });
    // k at rank 11: nothing, not even MRR
    expect(round(queryMetrics(ranked, ['k']))).toEqual({
      'r@1': 0,
      'r@5': 0,
      'r@10': 0,
      'p@1': 0,
      'ndcg@10': 0,
      mrr: 0,
    });
  });

  it('takes the first relevant tool for MRR and sums the gain of every relevant tool', () => {
    // a at 2, b at 4: dcg 0.630930 + 0.430677; ideal 1 + 0.630930
    expect(round(queryMetrics(['x', 'a', 'y', 'b'], ['a', 'b']))).toEqual({
      'r@1': 0,
      'r@5': 1,
      'r@10': 1,
      'p@1': 0,
      'ndcg@10': 0.650921,
      mrr: 0.5,
    });
    expect(round(queryMetrics(['a', 'b'], ['a']))).toEqual({
      'r@1': 1,
      'r@5': 1,
      'r@10': 1,
      'p@1': 1,
      'ndcg@10': 1,
      mrr: 1,
    });
  });

  it('caps the ideal gain at 10 relevant tools; an empty ranking scores 0', () => {
    const relevant = Array.from({ length: 12 }, (_, i) => `t${i}`);
    // all 10 places relevant: the ideal of 10, not of 12
    const m = queryMetrics(relevant.slice(0, 10), relevant);
    expect(m['ndcg@10']).toBeCloseTo(1, 12);
    expect(m['r@10']).toBeCloseTo(10 / 12, 12);
    expect(m['r@5']).toBeCloseTo(5 / 12, 12);
    expect(round(queryMetrics([], ['a']))).toEqual({ 'r@1': 0, 'r@5': 0, 'r@10': 0, 'p@1': 0, 'ndcg@10': 0, mrr: 0 });
  });
});

describe('meanMetrics', () => {
  it('averages every metric over the queries; no queries gives zeros', () => {
    const a = queryMetrics(['a'], ['a']);
    const b = queryMetrics(['x', 'a', 'y', 'b'], ['a', 'b']);
    expect(round(meanMetrics([a, b]))).toEqual({
      'r@1': 0.5,
      'r@5': 1,
      'r@10': 1,
      'p@1': 0.5,
      'ndcg@10': 0.82546,
      mrr: 0.75,
    });
    expect(meanMetrics([])).toEqual({ 'r@1': 0, 'r@5': 0, 'r@10': 0, 'p@1': 0, 'ndcg@10': 0, mrr: 0 });
  });
});
