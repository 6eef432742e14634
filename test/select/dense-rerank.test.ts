// How dense similarity reorders lexical candidates (src/select/dense.ts rerank), values written out:
//   score = (1 − w)·lexical/lexical_of_first + w·(dense − lo)/(hi − lo), lo/hi over the candidates only.
import { describe, expect, it } from 'vitest';
import { DENSE_WEIGHT, MAX_DENSE_WEIGHT, rerank } from '../../src/select/dense.js';

const round = (s: Float64Array) => [...s].map((x) => Number(x.toFixed(6)));

describe('rerank', () => {
  const lexical = [10, 8, 2];
  const dense = [0.1, 0.9, 0.5];

  it('mixes the lexical share of the first candidate with the dense similarity scaled over the candidates', () => {
    expect([DENSE_WEIGHT, MAX_DENSE_WEIGHT]).toEqual([0.3, 0.5]);
    // w 0.3: 0.7·1 + 0; 0.7·0.8 + 0.3·1; 0.7·0.2 + 0.3·0.5
    const r = rerank([0, 1, 2], lexical, dense);
    expect(round(r.scores)).toEqual([0.7, 0.86, 0.29]);
    expect(r.order).toEqual([1, 0, 2]);
    expect(round(rerank([0, 1, 2], lexical, dense, 0.3).scores)).toEqual([0.7, 0.86, 0.29]);
  });

  it('clamps the weight to 0…0.5: the words always decide at least half', () => {
    const high = rerank([0, 1, 2], lexical, dense, 0.9);
    expect(round(high.scores)).toEqual([0.5, 0.9, 0.35]);
    expect(round(rerank([0, 1, 2], lexical, dense, 0.5).scores)).toEqual([0.5, 0.9, 0.35]);
    const none = rerank([0, 1, 2], lexical, dense, -1);
    expect(round(none.scores)).toEqual([1, 0.8, 0.2]);
    expect(none.order).toEqual([0, 1, 2]);
    expect(round(rerank([0, 1, 2], lexical, dense, 0).scores)).toEqual([1, 0.8, 0.2]);
    expect(round(rerank([0, 1, 2], lexical, dense, 0.1).scores)).toEqual([0.9, 0.82, 0.23]);
  });

  it('touches only the candidates: a tool outside them scores 0 and does not stretch the dense scale', () => {
    const r = rerank([0, 2], lexical, [0.1, 5, 0.5]);
    // lo 0.1, hi 0.5: tool 2 gets the whole dense share
    expect(round(r.scores)).toEqual([0.7, 0, 0.44]);
    expect(r.order).toEqual([0, 2]);
    const low = rerank([0, 2], lexical, [0.1, -5, 0.5]);
    expect(round(low.scores)).toEqual([0.7, 0, 0.44]);
  });

  it('keeps candidate order on ties, and survives equal similarities and a first score of 0', () => {
    // equal similarities: no dense share (span 1), equal lexical: index order
    const tie = rerank([2, 0], [5, 1, 5], [0.3, 0, 0.3]);
    expect(round(tie.scores)).toEqual([0.7, 0, 0.7]);
    expect(tie.order).toEqual([0, 2]);
    const zero = rerank([0, 1], [0, 0], [0, 1]);
    expect(round(zero.scores)).toEqual([0, 0.3]);
    expect(zero.order).toEqual([1, 0]);
    // the first candidate's lexical score is the scale, whatever its place
    expect(round(rerank([1, 0], [4, 8], [0, 0]).scores)).toEqual([0.35, 0.7]);
  });
});
