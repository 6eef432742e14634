// The rest of the ranking model (src/select/model.ts) with values written out: topK, explain, the
// translated field of docStats, and a field no indexed tool has (average length 0).
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { docStats, explain, idf, topK } from '../../src/select/model.js';
import { buildIndex } from '../../src/select/lex-build.js';
import { parseQuery, scoreDoc } from '../../src/select/query.js';

const tool = (id: string, description: string, extra: Record<string, unknown> = {}) =>
  ({ id, description, loader: 'command', ...extra }) as unknown as ToolContract;

describe('topK', () => {
  it('keeps the k best scores above 0, best first, ties in registry order, only allowed tools', () => {
    const s = Float64Array.from([0, 2, 5, 2, -1, 3]);
    expect(topK(s, 3)).toEqual([2, 5, 1]);
    expect(topK(s, 10)).toEqual([2, 5, 1, 3]);
    expect(topK(s, 10, (d) => d !== 2)).toEqual([5, 1, 3]);
    expect(topK(s, 0)).toEqual([]);
    expect(topK(new Float64Array(3), 3)).toEqual([]);
    expect(topK(Float64Array.from([1, 1, 1, 1, 1]), 5)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('explain', () => {
  const tools = [
    tool('w1', 'weather rain'),
    tool('forecast', 'weather forecast snow', { tags: ['snow'] }),
    tool('w3', 'snow'),
  ];
  const ix = buildIndex(tools.map(docStats));

  it('names each matched term’s fields and its share of the score, largest first', () => {
    const why = explain(ix, 1, parseQuery('snow weather forecast hail'));
    expect(why.map((w) => [w.term, w.fields])).toEqual([
      ['forecast', ['name', 'description']],
      ['snow', ['description', 'tags']],
      ['weather', ['description']],
    ]);
    const sum = why.reduce((a, w) => a + w.score, 0);
    expect(sum).toBeCloseTo(scoreDoc(ix, docStats(tools[1]!), parseQuery('snow weather forecast hail')), 5);
    expect(why[2]!.score).toBeCloseTo(idf(3, 2) * 0.830189, 5); // weather in a 3-word description (average 2)
  });

  it('finds a tool at any place of a term’s postings, and nothing for a tool without the term', () => {
    expect(explain(ix, 0, parseQuery('weather')).map((w) => w.term)).toEqual(['weather']);
    expect(explain(ix, 1, parseQuery('weather')).map((w) => w.term)).toEqual(['weather']);
    expect(explain(ix, 2, parseQuery('weather'))).toEqual([]);
    expect(explain(ix, 0, parseQuery('snow'))).toEqual([]);
    expect(explain(ix, 2, parseQuery('snow')).map((w) => w.term)).toEqual(['snow']);
    // a term every tool has: found for the first, middle and last tool
    const all = buildIndex([tool('a1', 'common x'), tool('a2', 'common y'), tool('a3', 'common z')].map(docStats));
    for (const d of [0, 1, 2]) expect(explain(all, d, parseQuery('common')).map((w) => w.term)).toEqual(['common']);
  });
});

describe('docStats', () => {
  it('renders Chinese name and description in the translated field at 1, parameter text at 0.5', () => {
    const d = docStats(
      tool('t', '天气', { schema: { type: 'object', properties: { q: { type: 'string', description: '下雨' } } } }),
    );
    expect(d.tf[6]).toEqual({ weather: 1, rain: 0.5 });
    expect(d.len[6]).toBe(1.5);
    expect(docStats(tool('t', 'weather')).tf[6]).toEqual({});
    expect(docStats(tool('wx', 'weather')).len).toEqual([1, 1, 0, 0, 0, 0, 0]);
    // a Chinese name alone is translated too
    expect(docStats(tool('t', 'x', { name: '北京' })).tf[6]).toMatchObject({ beij: expect.closeTo(Math.SQRT1_2, 6) });
  });

  it('weighs an enum value at 0.3 with b 0.5', () => {
    const ix = buildIndex(
      [
        tool('e1', 'city', { schema: { type: 'object', properties: { c: { enum: ['Paris'] } } } }),
        tool('e2', 'town'),
      ].map(docStats),
    );
    // enums: lengths 1 and 0 (average 0.5) → norm 1.5 → tf 0.2 → sat 0.314286; idf(2, 1) = ln 2
    const why = explain(ix, 0, parseQuery('paris'));
    expect(why.map((w) => [w.term, w.fields])).toEqual([['pari', ['enums']]]);
    expect(why[0]!.score).toBeCloseTo(Math.LN2 * 0.314286, 5);
  });

  it('counts a field no indexed tool has at its plain weight (no length normalisation)', () => {
    const ix = buildIndex([tool('a', 'weather'), tool('b', 'rain')].map(docStats));
    // tags w 0.5: tf 0.5 → sat 1.1 / 1.7 = 0.647059; idf(2, 1) = ln 2 (hail is in no indexed tool)
    const d = docStats(tool('c', 'other', { tags: ['hail'] }));
    expect(scoreDoc(ix, d, parseQuery('hail'))).toBeCloseTo(Math.LN2 * 0.647059, 5);
  });
});
