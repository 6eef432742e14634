import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers.js';
import { fixtureProject } from '../select/fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());

const CASES =
  [
    { query: '查询北京今天天气', relevant: ['query_weather'] },
    { query: 'send an email to my manager', relevant: ['send_email'] },
    { query: 'zebra quokka', relevant: ['read_file'] }, // matches nothing: a miss
    { query: 'share price and flight fares', relevant: ['search_flights', 'stock_price'] },
  ]
    .map((c) => JSON.stringify(c))
    .join('\n') + '\n';

describe('toolbox eval', () => {
  it('reports the metrics and lists the misses with what came first', async () => {
    fx = fixtureProject({ 'cases.jsonl': CASES });
    const r = await cli(['eval', 'cases.jsonl', '--json'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.json.queries).toBe(4);
    const m = r.json.metrics;
    expect(Object.keys(m).sort()).toEqual(['mrr', 'ndcg@10', 'p@1', 'r@1', 'r@10', 'r@5']);
    // Queries 1, 2 and 4 rank a relevant tool first; query 4 has both relevant tools in the top 2.
    expect(m['p@1']).toBeCloseTo(3 / 4, 9);
    expect(m['r@1']).toBeCloseTo((1 + 1 + 0 + 0.5) / 4, 9);
    expect(m['r@5']).toBeCloseTo(3 / 4, 9);
    expect(m.mrr).toBeCloseTo(3 / 4, 9);
    expect(m['ndcg@10']).toBeCloseTo(3 / 4, 9);
    expect(r.json.misses).toEqual([{ line: 3, query: 'zebra quokka', relevant: ['read_file'], got: [], rank: null }]);
  });

  it('prints a table and the misses for people', async () => {
    fx = fixtureProject({ 'cases.jsonl': CASES });
    const r = await cli(['eval', 'cases.jsonl'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/R@1\s+R@5\s+R@10\s+P@1\s+NDCG@10\s+MRR/);
    expect(r.stdout).toMatch(/cases\.jsonl:3 "zebra quokka"/);
  });

  it('rejects a bad line with its location (exit 2)', async () => {
    fx = fixtureProject({ 'cases.jsonl': CASES + '{"query": "x", "relevant": "send_email"}\n' });
    const r = await cli(['eval', 'cases.jsonl', '--json'], { cwd: fx.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('invalid_case');
    expect(r.errorJson.error.location).toMatchObject({ line: 5 });
    expect(r.errorJson.error.message).toMatch(/cases\.jsonl:5/);
    fx.write('bad.jsonl', '{"query": "ok", "relevant": ["a"]}\nnot json\n');
    const bad = await cli(['eval', 'bad.jsonl'], { cwd: fx.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.jsonl:2/);
  });

  it('warns about relevant ids that are not tools, and rejects unknown rankers', async () => {
    fx = fixtureProject({ 'cases.jsonl': '{"query": "weather", "relevant": ["query_wether"]}\n' });
    const r = await cli(['eval', 'cases.jsonl', '--json'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.json.unknown).toEqual(['query_wether']);
    expect(r.stderr).toMatch(/query_wether/);
    expect((await cli(['eval', 'cases.jsonl', '--ranker', 'magic'], { cwd: fx.dir })).code).toBe(2);
    expect((await cli(['eval', 'missing.jsonl', '--json'], { cwd: fx.dir })).code).toBe(2);
  });
});
