// Queries as weighted terms (src/select/query.ts): the query's own terms, terms derived from them
// (English stems of a Chinese word, which stand in for it) and context terms from earlier turns
// (which add score but never make a tool match), and their scores, with expected values written out.
//   idf(n, df) = ln(1 + (n - df + 0.5) / (df + 0.5));  sat(tf) = 2.2·tf / (1.2 + tf)  (k1 = 1.2)
//   description field: w 1, b 0.75 → tf = count / (0.25 + 0.75 · len / avglen)
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { docStats, RANK } from '../../src/select/model.js';
import { buildIndex } from '../../src/select/lex-build.js';
import { addContext, parseQuery, Query, scoreAll, scoreDoc } from '../../src/select/query.js';

function tool(id: string, description: string): ToolContract {
  return { id, description, loader: 'command', loader_config: { argv: ['true'] } } as ToolContract;
}

const entries = (q: Query) => Object.fromEntries([...q].map(([t, w]) => [t, Number(w.toFixed(6))]));
const close = (actual: ArrayLike<number>, expected: number[]) => {
  expect(actual).toHaveLength(expected.length);
  Array.from(actual).forEach((a, i) => expect(a, `tool ${i}`).toBeCloseTo(expected[i]!, 5));
};

// Three tools; their ids (w1…w3) match no query. Description lengths 2, 3, 1 (average 2):
//   w1 weather: norm 1 → sat 1;  w2 weather/snow: norm 1.375 → tf 0.727273 → sat 0.830189;
//   w3 snow: norm 0.625 → tf 1.6 → sat 1.257143.  idf(3, 2) = ln 1.6 = 0.470004; idf(3, 1) = ln(8/3) = 0.980829.
const tools = [tool('w1', 'weather rain'), tool('w2', 'weather forecast snow'), tool('w3', 'snow')];
const ix = buildIndex(tools.map(docStats));
const W1_WEATHER = 0.470004;
const W2_WEATHER = 0.390192; // 0.470004 · 0.830189
const W1_RAIN = 0.980829;
const W2_SNOW = W2_WEATHER; // snow has weather's df in w2's description
const W3_SNOW = 0.590862; // 0.470004 · 1.257143

describe('Query', () => {
  it('derive adds a term that stands in for one of the query’s own terms, and never replaces a term', () => {
    const q = new Query([['weather', 1]]);
    q.derive('rain', 0.4, '下雨');
    q.derive('weather', 0.3, '天气');
    expect(entries(q)).toEqual({ weather: 1, rain: 0.4 });
    expect([...q.source]).toEqual([['rain', '下雨']]);
    expect(q.context.size).toBe(0);
  });
});

describe('parseQuery', () => {
  it('weights each term by kind times the weight, and merges into a query by max', () => {
    expect(entries(parseQuery('please help me check the weather forecast', 0.5))).toEqual({
      check: 0.5,
      weather: 0.5,
      forecast: 0.5,
    });
    const q = parseQuery('weather', 0.5);
    expect(parseQuery('weather snow', 1, q)).toBe(q);
    expect(entries(q)).toEqual({ weather: 1, snow: 1 });
    parseQuery('weather rain', 0.2, q);
    expect(entries(q)).toEqual({ weather: 1, snow: 1, rain: 0.2 });
  });

  it('adds the English stems of each Chinese word as derived terms, at derived × weight / √(stems)', () => {
    const q = parseQuery('北京天气');
    expect(entries(q)).toEqual({
      北京: 1,
      天气: 1,
      北: 0.25,
      京天: 0.5,
      京: 0.25,
      天: 0.25,
      气: 0.25,
      beij: 0.707107, // 北京 → "beijing municipality": 2 stems, 1/√2 each
      municip: 0.707107,
      weather: 1,
    });
    expect([...q.source]).toEqual([
      ['beij', '北京'],
      ['municip', '北京'],
      ['weather', '天气'],
    ]);
    // derived 0.6, weight 0.5: 0.3/√2
    expect(entries(parseQuery('北京', 0.5, undefined, 0.6))).toMatchObject({ 北京: 0.5, beij: 0.212132 });
    expect(parseQuery('北京', 1, undefined, 0).has('beij')).toBe(false);
    expect(parseQuery('weather', 1, undefined, 5).source.size).toBe(0);
  });

  it('reads compatibility forms of Chinese characters as their usual form (NFKC)', () => {
    // ⽓ is the Kangxi radical U+2F53, NFKC 气
    const q = parseQuery('天\u2F53');
    expect(q.get('天气')).toBe(1);
    expect(q.get('weather')).toBe(1);
  });

  it('translates no stop word, no word that is only context, and keeps a term the query already has', () => {
    // 的 is a stop word (its glosses "taxi", "cab"… would otherwise come in)
    expect(entries(parseQuery('的天气'))).toEqual({ 天气: 1, 的天: 0.5, 天: 0.25, 气: 0.25, weather: 1 });
    // "weather" is the query's own: not derived, weight kept
    const own = parseQuery('weather 天气', 0.8);
    expect(own.get('weather')).toBe(0.8);
    expect(own.source.has('weather')).toBe(false);
    // 天气 with its context weight 0.5 (above this turn's 0.25) stays context: no translation
    const q = new Query();
    addContext(q, '天气', 0.5);
    parseQuery('天气', 0.25, q);
    expect(entries(q)).toEqual({ 天气: 0.5, 天: 0.125, 气: 0.125 });
    expect(q.source.size).toBe(0);
  });
});

describe('addContext', () => {
  it('adds new terms as context by kind × weight, raises context terms by max, never touches own terms', () => {
    const q = parseQuery('weather');
    addContext(q, 'weather snow 天气', 0.5);
    expect(entries(q)).toEqual({ weather: 1, snow: 0.5, 天气: 0.5, 天: 0.125, 气: 0.125 });
    expect([...q.context]).toEqual(['snow', '天气', '天', '气']);
    expect(q.source.size).toBe(0); // context brings no translations
    addContext(q, 'snow weather', 0.8);
    addContext(q, 'snow 天气', 0.3);
    addContext(q, 'weather', 2);
    expect(entries(q)).toEqual({ weather: 1, snow: 0.8, 天气: 0.5, 天: 0.125, 气: 0.125 });
    expect(q.context.has('weather')).toBe(false);
    // request fillers are no context either
    addContext(q, 'please help me', 1);
    expect(q.has('pleas') || q.has('please') || q.has('help')).toBe(false);
  });
});

describe('scoreAll', () => {
  it('scores BM25F with the query weights; a tool matching no term scores 0', () => {
    close(scoreAll(ix, parseQuery('weather')), [W1_WEATHER, W2_WEATHER, 0]);
    close(scoreAll(ix, parseQuery('weather rain', 0.5)), [(W1_WEATHER + W1_RAIN) / 2, W2_WEATHER / 2, 0]);
    close(scoreAll(ix, parseQuery('hail')), [0, 0, 0]);
  });

  it('context adds to a tool the query matches and never makes a tool match', () => {
    const q = parseQuery('weather');
    addContext(q, 'snow', 0.5);
    const cover = new Float64Array(3);
    close(scoreAll(ix, q, RANK, cover), [W1_WEATHER, W2_WEATHER * 1.5, 0]); // w2 has snow as often as weather
    expect([...cover]).toEqual([1, 1, 0]);
    // only context: nothing matches
    const only = new Query();
    addContext(only, 'weather snow', 1);
    close(scoreAll(ix, only), [0, 0, 0]);
  });

  it('a translation stands in for its word: it makes a tool match and covers the word’s weight once', () => {
    const cover = new Float64Array(3);
    close(scoreAll(ix, parseQuery('天气'), RANK, cover), [W1_WEATHER, W2_WEATHER, 0]);
    expect([...cover]).toEqual([1, 1, 0]);
    // A tool with both the word and its translation: 天气 and weather are one group (weight 1), 天 and 气 each 0.25.
    const mixed = buildIndex([tool('m1', '天气 weather'), tool('m2', 'weather'), tool('m3', '天')].map(docStats));
    const c2 = new Float64Array(3);
    const s = scoreAll(mixed, parseQuery('天气'), RANK, c2);
    expect([...c2]).toEqual([1.5, 1, 0.25]);
    expect(s.every((x) => x > 0)).toBe(true);
    // a derived term whose word is not the query's own stands in for nothing: it neither matches nor adds
    const stray = parseQuery('snow');
    stray.derive('weather', 1, '天气');
    close(scoreAll(ix, stray), [0, W2_SNOW, W3_SNOW]);
  });

  it('with coord, multiplies each score by (share of the query’s own weight matched)^coord', () => {
    const p = (coord: number) => ({ ...RANK, coord });
    // weather rain: total 2; w1 covers 2, w2 covers 1
    close(scoreAll(ix, parseQuery('weather rain'), p(1)), [W1_WEATHER + W1_RAIN, W2_WEATHER / 2, 0]);
    close(scoreAll(ix, parseQuery('weather rain'), p(0.5)), [W1_WEATHER + W1_RAIN, W2_WEATHER * Math.SQRT1_2, 0]);
    // 天气: own weight 1 + 0.25 + 0.25 (derived terms are no own weight); w1 and w2 cover 1 of 1.5
    close(scoreAll(ix, parseQuery('天气'), p(1)), [W1_WEATHER / 1.5, W2_WEATHER / 1.5, 0]);
    // context is no own weight either
    const q = parseQuery('weather rain');
    addContext(q, 'snow', 1);
    close(scoreAll(ix, q, p(1)), [W1_WEATHER + W1_RAIN, (W2_WEATHER * 2) / 2, 0]);
  });
});

describe('scoreDoc', () => {
  it('gives an indexed tool exactly the score scoreAll gives it (Float32 term weights), for own, derived and context terms, with and without coord', () => {
    const queries = [
      parseQuery('weather'),
      parseQuery('weather rain'),
      parseQuery('天气'),
      parseQuery('snow forecast'),
    ];
    const ctx = parseQuery('rain');
    addContext(ctx, 'weather snow', 0.5);
    queries.push(ctx);
    for (const coord of [0, 1])
      for (const q of queries) {
        const all = scoreAll(ix, q, { ...RANK, coord });
        tools.forEach((c, d) => expect(scoreDoc(ix, docStats(c), q, { ...RANK, coord })).toBe(all[d]!));
      }
    close(
      tools.map((c) => scoreDoc(ix, docStats(c), ctx)),
      [W1_RAIN + W1_WEATHER / 2, 0, 0],
    );
  });

  it('scores a tool outside the index against its statistics; a term the index lacks counts as in one tool', () => {
    // hail: idf(3, 1) = 0.980829; description 1 word → sat 1.257143 → 1.233043
    const hail = docStats(tool('h1', 'hail'));
    expect(scoreDoc(ix, hail, parseQuery('hail'))).toBeCloseTo(1.233043, 5);
    expect(scoreDoc(ix, hail, parseQuery('hail rain', 1), { ...RANK, coord: 1 })).toBeCloseTo(1.233043 / 2, 5);
    expect(scoreDoc(ix, hail, parseQuery('weather'))).toBe(0);
    // snow in the index: idf(3, 2)
    expect(scoreDoc(ix, docStats(tool('h2', 'snow')), parseQuery('snow'))).toBeCloseTo(W3_SNOW, 5);
    const q = parseQuery('weather');
    addContext(q, 'hail', 1);
    expect(scoreDoc(ix, hail, q)).toBe(0);
  });
});
