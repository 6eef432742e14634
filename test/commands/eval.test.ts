import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { resolveProject } from '../../src/config.js';
import { evaluate, leaveOutExamples } from '../../src/select/evaluate.js';
import { openSelector, type Selector } from '../../src/select/index.js';

const contractsOf = (sel: Selector) => sel.index.tools.map((_, i) => sel.index.contract(i));
import { fixtureProject } from '../select/fixture.js';
import { tmpdir } from 'node:os';

const REPO_TMP = () => tmpdir();

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
    const r = await cli(['eval', 'cases.jsonl', '--json', '--no-examples'], { cwd: fx.dir });
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
    expect(r.json.misses).toEqual([
      { file: 'cases.jsonl', line: 3, query: 'zebra quokka', relevant: ['read_file'], got: [], rank: null },
    ]);
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

describe('toolbox eval as a gate', () => {
  const edit = (dir: string) => {
    const f = join(dir, 'tool_registry', 'stock_price.yaml');
    writeFileSync(
      f,
      readFileSync(f, 'utf8').replace(
        'Look up the latest share price of a listed company by its ticker symbol.',
        'Share price by ticker symbol.',
      ),
    );
  };

  it('counts the routing examples as labelled queries, and needs no cases file', async () => {
    fx = fixtureProject();
    const r = await cli(['eval', '--json'], { cwd: fx.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.queries).toBe(4); // two examples each in query_weather and send_email
    expect(r.json.results.every((q: { source: string }) => q.source === 'example')).toBe(true);
    expect((await cli(['eval', '--no-examples'], { cwd: fx.dir })).code).toBe(2);
  });

  it('grades an example with its own text left out of its tool: an unrelated example is a miss', async () => {
    fx = fixtureProject();
    const f = join(fx.dir, 'tool_registry', 'stock_price.yaml');
    writeFileSync(
      f,
      readFileSync(f, 'utf8') + 'examples: ["order a large pizza with extra cheese", "AAPL share price"]\n',
    );
    const r = await cli(['eval', '--json'], { cwd: fx.dir });
    expect(r.code, r.stderr).toBe(0);
    const pizza = r.json.results.find((q: { query: string }) => q.query.includes('pizza'));
    expect(pizza.ranked).not.toContain('stock_price'); // nothing else of the contract speaks of pizza
    const price = r.json.results.find((q: { query: string }) => q.query === 'AAPL share price');
    expect(price.ranked[0]).toBe('stock_price'); // the rest of the contract routes it
    expect(r.json.metrics['p@1']).toBeLessThan(1);
    // The why of a graded example never shows the example matching itself (what eval --report shows).
    const report = await evaluate(resolveProject({ cwd: fx.dir }), [], { examples: true, explain: true });
    const miss = report.misses.find((m) => m.query.includes('pizza'))!;
    expect(miss.detail!.wanted.flatMap((w) => w.why)).toEqual([]);
    const hit = await openSelector(resolveProject({ cwd: fx.dir }));
    const own = hit.explain('AAPL share price', ['stock_price'], {
      leaveOut: leaveOutExamples(contractsOf(hit))('AAPL share price'),
    })[0]!;
    expect(own.why.flatMap((w) => w.fields)).not.toContain('examples');
    // The same query in a cases file is graded the same way: it is word for word the example.
    fx.write(
      'cases.jsonl',
      JSON.stringify({ query: 'order a large pizza with extra cheese', relevant: ['stock_price'] }),
    );
    const c = await cli(['eval', 'cases.jsonl', '--json', '--no-examples'], { cwd: fx.dir });
    expect(c.json.results[0].ranked).not.toContain('stock_price');
  });

  it('lists the queries an edit changed, with the contract change, against a saved result', async () => {
    fx = fixtureProject({
      'cases.jsonl': CASES + '{"query": "latest quote of a listed company", "relevant": ["stock_price"]}\n',
    });
    const saved = await cli(['eval', 'cases.jsonl', '--json'], { cwd: fx.dir });
    fx.write('before.json', saved.stdout);
    const same = await cli(['eval', 'cases.jsonl', '--compare', 'before.json', '--fail-on-regression'], {
      cwd: fx.dir,
    });
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/no query changed/);
    edit(fx.dir);
    const r = await cli(['eval', 'cases.jsonl', '--compare', 'before.json', '--json'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    const changes = r.json.compare.changes as { query: string; verdict: string; causes: string[] }[];
    const latest = changes.find((c) => c.query === 'latest quote of a listed company')!;
    expect(latest.verdict).toBe('worse');
    expect(latest.causes).toEqual(['stock_price: description changed']);
    expect(changes.every((c) => c.causes.length > 0)).toBe(true);
    const gate = await cli(['eval', 'cases.jsonl', '--compare', 'before.json', '--fail-on-regression'], {
      cwd: fx.dir,
    });
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(/worse "latest quote of a listed company"/);
    expect(gate.stdout).toMatch(/stock_price: description changed/);
  });

  it('compares against a git ref of the registry', async () => {
    fx = fixtureProject({
      'cases.jsonl': '{"query": "latest quote of a listed company", "relevant": ["stock_price"]}\n',
    });
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: fx.dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    edit(fx.dir);
    const r = await cli(['eval', 'cases.jsonl', '--compare', 'HEAD', '--json', '--fail-on-regression'], {
      cwd: fx.dir,
    });
    expect(r.code).toBe(1);
    expect(r.json.compare.changes).toContainEqual(
      expect.objectContaining({
        query: 'latest quote of a listed company',
        verdict: 'worse',
        causes: ['stock_price: description changed'],
      }),
    );
    const bad = await cli(['eval', 'cases.jsonl', '--compare', 'no-such-ref', '--json'], { cwd: fx.dir });
    expect(bad.code).toBe(2);
    expect(bad.errorJson.error.code).toBe('invalid_compare');
  });

  it('exits 1 below a --min threshold and 2 on a malformed one', async () => {
    fx = fixtureProject({ 'cases.jsonl': CASES });
    const ok = await cli(['eval', 'cases.jsonl', '--min', 'ndcg@10=0.5', '--json'], { cwd: fx.dir });
    expect(ok.code).toBe(0);
    const low = await cli(['eval', 'cases.jsonl', '--min', 'ndcg@10=0.5', '--min', 'r@1=0.99', '--json'], {
      cwd: fx.dir,
    });
    expect(low.code).toBe(1);
    expect(low.json.thresholds.failed).toEqual([{ metric: 'r@1', min: 0.99, got: expect.any(Number) }]);
    const bad = await cli(['eval', 'cases.jsonl', '--min', 'ndcg=high', '--json'], { cwd: fx.dir });
    expect(bad.code).toBe(2);
    expect(bad.errorJson.error.code).toBe('invalid_threshold');
  });

  it('does not name files users do not have in its help', async () => {
    const r = await cli(['eval', '--help'], { cwd: REPO_TMP() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/shared|bench|\.py/);
    expect(r.stdout).toMatch(/--compare/);
  });
});
