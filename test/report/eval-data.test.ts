import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildEvalData } from '../../src/report/eval-data.js';
import { bootstrap, queryLang, uiLang } from '../../src/report/numbers.js';
import { evaluate, readCases } from '../../src/select/evaluate.js';
import { reportProject } from './fixture.js';

let fx: ReturnType<typeof reportProject> | undefined;
afterEach(() => fx?.cleanup());

async function data() {
  fx = reportProject();
  const project = fx.project();
  const report = await evaluate(project, readCases(join(fx.dir, 'cases.jsonl'), 'cases.jsonl'), {
    explain: true,
  });
  return {
    report,
    d: await buildEvalData({ project, report, top: 10, registryLabel: 'r' }),
  };
}

describe('eval report data', () => {
  it('carries eval’s metrics, a bootstrap interval around them, groups and the R@k curve', async () => {
    const { report, d } = await data();
    expect(d.metrics).toEqual(report.metrics);
    expect(d.queries).toBe(report.queries);
    for (const [k, v] of Object.entries(d.metrics)) {
      const [lo, hi] = d.spread[k as keyof typeof d.spread];
      expect(lo).toBeLessThanOrEqual(v);
      expect(hi).toBeGreaterThanOrEqual(v);
    }
    expect(d.curve).toHaveLength(10);
    expect(d.curve[0]).toBeCloseTo(report.metrics['r@1'], 12);
    expect(d.curve[4]).toBeCloseTo(report.metrics['r@5'], 12);
    expect(d.curve[9]).toBeCloseTo(report.metrics['r@10'], 12);
    for (let k = 1; k < 10; k++) expect(d.curve[k]).toBeGreaterThanOrEqual(d.curve[k - 1]!);
    const byLang = Object.fromEntries(d.groups.filter((g) => g.by === 'lang').map((g) => [g.name, g.queries]));
    expect(byLang).toEqual({ en: 5, zh: 3 });
    expect(d.groups.find((g) => g.by === 'file')).toMatchObject({ name: 'cases.jsonl', queries: 8 });
  });

  it('explains each miss: what ranked above, and the wanted tool’s rank and words, in the words the user wrote', async () => {
    const { report, d } = await data();
    expect(d.misses).toHaveLength(report.misses.length);
    const id = (i: number) => d.tools[i]![0];
    const storm = d.misses.find((m) => m.q === '暴雨预警')!;
    expect(storm.above.map((s) => id(s[0]))).toEqual(['weather_alerts']);
    // weather_alerts is described only in English: it matched through the glossary, shown as the Chinese word.
    const words = storm.above[0]![3].map((w) => w[0]);
    expect(words.some((w) => /[\u4e00-\u9fff]/.test(w))).toBe(true);
    const field = (mask: number) => d.fields.filter((_, i) => mask & (1 << i));
    expect(storm.above[0]![3].some((w) => field(w[1]).includes('description'))).toBe(true);
    expect(storm.wanted.map((s) => [id(s[0]), s[1]])).toEqual([['query_weather', 2]]);
    // One chip per word: a word and the stems it was translated to are one entry, fields merged.
    for (const m of d.misses)
      for (const s of [...m.above, ...m.wanted]) expect(new Set(s[3]!.map((w) => w[0])).size).toBe(s[3]!.length);
    const zebra = d.misses.find((m) => m.q === 'zebra quokka')!;
    expect(zebra).toMatchObject({ rank: null, above: [], file: 'cases.jsonl', line: 3, lang: 'en' });
    expect(zebra.wanted.map((s) => [id(s[0]), s[1], s[3]])).toEqual([['read_file', null, []]]);
  });

  it('counts who takes first place from whom (confusable pairs) and the token cost of selection', async () => {
    const { d } = await data();
    const id = (i: number) => d.tools[i]![0];
    const pair = d.confusable.find((p) => id(p.a) === 'stock_price' && id(p.b) === 'stock_quote')!;
    expect(pair).toMatchObject({ ab: 0, ba: 2 });
    expect(pair.sim).toBeGreaterThan(0);
    expect(pair.sim).toBeLessThan(1);
    expect(d.similar).toEqual({ on: true, threshold: 0.8 });
    expect(d.tokens.perQuery).toHaveLength(8);
    expect(d.tokens.full).toBeGreaterThan(Math.max(...d.tokens.perQuery));
    expect(d.tokens.top).toBe(5);
  });

  it('the bm25-baseline ranker explains nothing: its misses carry no why rather than an empty one', async () => {
    fx = reportProject();
    const project = fx.project();
    const report = await evaluate(project, readCases(join(fx.dir, 'cases.jsonl'), 'cases.jsonl'), {
      explain: true,
      ranker: 'bm25-baseline',
    });
    const d = await buildEvalData({ project, report, top: 10, registryLabel: 'r' });
    expect(d.misses.length).toBeGreaterThan(0);
    for (const m of d.misses) {
      expect(m.wanted).toEqual([]);
      for (const s of m.above) expect(s[3]).toBeNull();
    }
  });

  it('a miss is only explained when asked (eval without --report keeps its JSON as it was)', async () => {
    fx = reportProject();
    const report = await evaluate(fx.project(), readCases(join(fx.dir, 'cases.jsonl')));
    expect(report.misses.every((m) => m.detail === undefined)).toBe(true);
  });
});

describe('report numbers', () => {
  it('bootstrap is deterministic and degenerate on constant data', () => {
    const per = Array.from({ length: 50 }, (_, i) => {
      const v = i % 2;
      return { 'r@1': v, 'r@5': 1, 'r@10': 1, 'p@1': v, 'ndcg@10': v, mrr: v };
    });
    expect(bootstrap(per)).toEqual(bootstrap(per));
    expect(bootstrap(per)['r@5']).toEqual([1, 1]);
    const [lo, hi] = bootstrap(per)['r@1'];
    expect(lo).toBeGreaterThan(0.25);
    expect(hi).toBeLessThan(0.75);
    expect(lo).toBeLessThan(0.5);
    expect(bootstrap([])['mrr']).toEqual([0, 0]);
  });

  it('tells the language of a query and the UI language from the locale, else from the data', () => {
    expect(['查询天气', 'weather in Paris', '北京 weather', 'カレンダー', '날씨', '123'].map(queryLang)).toEqual([
      'zh',
      'en',
      'mixed',
      'ja',
      'ko',
      'other',
    ]);
    expect(uiLang({ LANG: 'zh_CN.UTF-8' }, ['weather'])).toBe('zh');
    expect(uiLang({ LANG: 'en_US.UTF-8' }, ['天气', '天气'])).toBe('en');
    expect(uiLang({ LC_ALL: 'C.UTF-8' }, ['天气', '天气', 'x'])).toBe('zh');
    expect(uiLang({}, ['天气', 'x'])).toBe('en');
  });
});
