// `toolbox eval --ranker bm25-baseline` must compute exactly what ../shared/bench/bm25_baseline.py
// computes (variant ndp+split): same rankings, same metrics to ~1e-9. Self-contained: the fixture
// sets in test/fixtures/select carry the script's recorded output (expected.json, written by
// test/select/baseline-expected.py), and the script's logic is written out below, independently of
// src/select/baseline.ts. Where ../shared/bench exists, the recordings are re-checked against the script.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { cli, REPO, tempProject } from '../helpers.js';
import { BaselineRanker, baselineTokenize } from '../../src/select/baseline.js';
import type { ToolContract } from '../../src/contract/types.js';
// @ts-expect-error plain .mjs bench helper without types
import { contractId } from '../../bench/convert-sets.mjs';

const SHARED = process.env.TOOLBOX_BENCH_SHARED ?? join(REPO, '..', 'shared', 'bench');
const SCRIPT = join(SHARED, 'bm25_baseline.py');
const SETS = ['mini-set', 'baseline-set'].map((s) => [s, join(REPO, 'test', 'fixtures', 'select', s)] as const);

type Tool = { id: string; name: string; description?: string; parameters?: Record<string, unknown> };
type Case = { query: string; relevant: string[] };
type Expected = { metrics: Record<string, number>; rankings: string[][] };
const jl = <T>(p: string): T[] =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

// ---- bm25_baseline.py, written out (tokenize with ident=True, param_text, BM25.rank, evaluate) ----
const CJK = '\u3400-\u9fff\uf900-\ufaff';
function refTokenize(text: string): string[] {
  const split = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./]/g, ' ');
  const out: string[] = [];
  for (const [t] of split.toLowerCase().matchAll(new RegExp(`[a-z0-9]+|[${CJK}]+`, 'g'))) {
    if (!new RegExp(`^[${CJK}]`).test(t)) out.push(t);
    else {
      const c = [...t];
      out.push(...c, ...c.slice(0, -1).map((x, i) => x + c[i + 1]));
    }
  }
  return out;
}
function refParamText(schema: unknown): string {
  const parts: string[] = [];
  const obj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  const walk = (node: unknown): void => {
    if (!obj(node) || !obj(node.properties)) return;
    for (const [k, v] of Object.entries(node.properties)) {
      parts.push(k);
      if (!obj(v)) continue;
      if (typeof v.description === 'string') parts.push(v.description);
      walk(v);
      if (obj(v.items)) walk(v.items);
    }
  };
  walk(schema);
  return parts.join(' ');
}
function refRank(tools: Tool[], query: string, k1 = 1.2, b = 0.75): string[] {
  const docs = tools.map((t) => refTokenize(`${t.name} ${t.description ?? ''} ${refParamText(t.parameters ?? {})}`));
  const avgdl = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, docs.length);
  const score = new Map<number, number>();
  for (const term of new Set(refTokenize(query))) {
    const df = docs.filter((d) => d.includes(term)).length;
    if (!df) continue;
    const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
    docs.forEach((d, i) => {
      const f = d.filter((x) => x === term).length;
      if (f) score.set(i, (score.get(i) ?? 0) + (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgdl)));
    });
  }
  const order = [...score.keys()].sort((x, y) => score.get(y)! - score.get(x)! || x - y);
  return order.slice(0, 10).map((i) => tools[i]!.id);
}
/** The script's metrics (plus MRR, as the bench README defines it) from top-10 rankings. */
function refMetrics(cases: Case[], rankings: string[][]): Record<string, number> {
  const m = { 'R@1': 0, 'R@5': 0, 'R@10': 0, 'P@1': 0, 'NDCG@10': 0, MRR: 0 };
  cases.forEach((q, n) => {
    const rel = new Set(q.relevant);
    const top = rankings[n]!;
    const hits = (k: number) => top.slice(0, k).filter((id) => rel.has(id)).length / rel.size;
    m['R@1'] += hits(1);
    m['R@5'] += hits(5);
    m['R@10'] += hits(10);
    m['P@1'] += top.length && rel.has(top[0]!) ? 1 : 0;
    const dcg = top.slice(0, 10).reduce((a, id, r) => a + (rel.has(id) ? 1 / Math.log2(r + 2) : 0), 0);
    let idcg = 0;
    for (let r = 0; r < Math.min(10, rel.size); r++) idcg += 1 / Math.log2(r + 2);
    m['NDCG@10'] += dcg / idcg;
    const first = top.findIndex((id) => rel.has(id));
    m.MRR += first >= 0 ? 1 / (first + 1) : 0;
  });
  for (const k of Object.keys(m) as (keyof typeof m)[]) m[k] /= Math.max(1, cases.length);
  return m;
}
// ---- end of the written-out reference ----

const expected = (setDir: string) => JSON.parse(readFileSync(join(setDir, 'expected.json'), 'utf8')) as Expected;

let proj: ReturnType<typeof tempProject> | undefined;
afterEach(() => proj?.cleanup());

/** Convert a set like bench/convert-sets.mjs does: numbered files keep the script's tie order. */
function convert(setDir: string) {
  proj = tempProject();
  const tools = jl<Tool>(join(setDir, 'tools.jsonl'));
  const width = String(tools.length).length;
  tools.forEach((t, i) => {
    const id = contractId(t.id) as string;
    const schema = t.parameters && Object.keys(t.parameters).length ? t.parameters : { type: 'object', properties: {} };
    proj!.write(
      `tool_registry/${String(i).padStart(width, '0')}_${id}.yaml`,
      stringify({
        id,
        name: t.name,
        description: t.description ?? '',
        schema,
        loader: 'command',
        loader_config: { argv: ['true'] },
      }),
    );
  });
  const cases = jl<Case>(join(setDir, 'queries.jsonl'));
  proj.write(
    'cases.jsonl',
    cases.map((q) => JSON.stringify({ query: q.query, relevant: q.relevant.map((r) => contractId(r)) })).join('\n'),
  );
  return { tools, cases, dir: proj.dir };
}

function python(setDir: string): Expected {
  return JSON.parse(
    execFileSync('python3', [join(REPO, 'test', 'select', 'baseline-expected.py'), SHARED, setDir], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONHASHSEED: '0' },
      maxBuffer: 64 << 20,
    }),
  ) as Expected;
}

/** toolbox's replica (eval and the ranker) against `expected` on the set in `setDir`. */
async function compare(setDir: string, expected: Expected) {
  const { tools, cases, dir } = convert(setDir);
  const ranker = new BaselineRanker(
    tools.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description ?? '',
      schema: t.parameters ?? {},
      loader: 'command',
      loader_config: {},
    })),
  );
  cases.forEach((q, i) =>
    expect(
      ranker.rank(q.query, 10).map((k) => tools[k]!.id),
      q.query,
    ).toEqual(expected.rankings[i]),
  );
  const r = await cli(['eval', 'cases.jsonl', '--ranker', 'bm25-baseline', '--json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const mrr = refMetrics(cases, expected.rankings).MRR;
  for (const [ours, theirs] of [
    ['r@1', 'R@1'],
    ['r@5', 'R@5'],
    ['r@10', 'R@10'],
    ['p@1', 'P@1'],
    ['ndcg@10', 'NDCG@10'],
  ] as const)
    expect(Math.abs(r.json.metrics[ours] - expected.metrics[theirs]!), ours).toBeLessThan(1e-9);
  expect(Math.abs(r.json.metrics.mrr - mrr), 'mrr').toBeLessThan(1e-9);
}

describe.each(SETS)('eval --ranker bm25-baseline on %s', (_name, setDir) => {
  const expected = JSON.parse(readFileSync(join(setDir, 'expected.json'), 'utf8')) as Expected;
  const tools = jl<Tool>(join(setDir, 'tools.jsonl'));
  const cases = jl<Case>(join(setDir, 'queries.jsonl'));

  it('the written-out reference reproduces the recorded rankings and metrics of bm25_baseline.py', () => {
    expect(cases.map((q) => refRank(tools, q.query))).toEqual(expected.rankings);
    const m = refMetrics(cases, expected.rankings);
    for (const k of Object.keys(expected.metrics))
      expect(Math.abs(m[k]! - expected.metrics[k]!), k).toBeLessThan(1e-12);
  });

  it('toolbox computes the same rankings and metrics (MRR too)', async () => {
    await compare(setDir, expected);
  });

  it('the recording equals what bm25_baseline.py prints today (needs ../shared/bench)', (ctx) => {
    if (!existsSync(SCRIPT)) ctx.skip(`${SCRIPT} is not on this machine; the recording stands in for it`);
    expect(python(setDir)).toEqual(expected);
  });
});

describe('eval --ranker bm25-baseline on the shared metatool set', () => {
  it('matches bm25_baseline.py on all 199 tools and 1,997 queries (needs ../shared/bench)', async (ctx) => {
    if (!existsSync(join(SHARED, 'metatool', 'tools.jsonl')))
      ctx.skip('../shared/bench/metatool is not on this machine');
    const set = join(SHARED, 'metatool');
    await compare(set, python(set));
  }, 120_000);
});

describe('the replica, case by case (expected values written out)', () => {
  type T = { name: string; description?: string; schema?: unknown };
  const contracts = (ts: T[]) =>
    ts.map((t) => ({ id: t.name, loader: 'command', loader_config: {}, ...t }) as unknown as ToolContract);
  const names = (ts: T[], query: string, k1?: number, b?: number) =>
    new BaselineRanker(contracts(ts), k1, b).rank(query).map((i) => ts[i]!.name);

  it('tokenises identifiers, separators and CJK runs like the script (characters, then bigrams)', () => {
    expect(baselineTokenize('getHTMLParser_v2.json-file/x')).toEqual([
      'get',
      'html',
      'parser',
      'v2',
      'json',
      'file',
      'x',
    ]);
    expect(baselineTokenize('ABCdEFg')).toEqual(['ab', 'cd', 'e', 'fg']);
    expect(baselineTokenize('天气预报 today')).toEqual(['天', '气', '预', '报', '天气', '气预', '预报', 'today']);
    expect(baselineTokenize('abc东京')).toEqual(['abc', '东', '京', '东京']);
    expect(baselineTokenize('雨')).toEqual(['雨']);
    // the script's CJK ranges: U+3400–9FFF and U+F900–FAFF; kana and accented letters are not tokens
    expect(baselineTokenize('\u3400 \u9fff \uf900\ufaff')).toEqual([
      '\u3400',
      '\u9fff',
      '\uf900',
      '\ufaff',
      '\uf900\ufaff',
    ]);
    expect(baselineTokenize('あい naïve café')).toEqual(['na', 've', 'caf']);
  });

  it('ties go to the tool listed first, even when the later one matched first', () => {
    expect(names([{ name: 'bravo' }, { name: 'alpha' }], 'alpha bravo')).toEqual(['bravo', 'alpha']);
  });

  it('a term in every tool still scores (idf > 0): the shorter document wins', () => {
    const ts = [
      { name: 'x', description: 'common extra words' },
      { name: 'y', description: 'common' },
    ];
    expect(names(ts, 'common')).toEqual(['y', 'x']);
  });

  it('a missing description counts as an empty one', () => {
    // no text is added for it: the tool without one stays the shorter document, which ranks first
    expect(names([{ name: 'alpha' }, { name: 'alpha b', description: '' }], 'alpha')).toEqual(['alpha', 'alpha b']);
    expect(names([{ name: 'alpha', description: '' }, { name: 'alpha b' }], 'alpha')).toEqual(['alpha', 'alpha b']);
    expect(names([{ name: 'alpha b' }, { name: 'alpha' }], 'alpha')).toEqual(['alpha', 'alpha b']);
  });

  it('honours k1 and b as the script does (against the written-out reference)', () => {
    const [, setDir] = SETS[1]!;
    const tools = jl<Tool>(join(setDir, 'tools.jsonl'));
    const cases = jl<Case>(join(setDir, 'queries.jsonl'));
    const ranker = new BaselineRanker(
      tools.map(
        (t) =>
          ({
            id: t.id,
            name: t.name,
            description: t.description,
            schema: t.parameters ?? {},
          }) as unknown as ToolContract,
      ),
      0.5,
      0.3,
    );
    const ours = cases.map((q) => ranker.rank(q.query, 10).map((k) => tools[k]!.id));
    expect(ours).toEqual(cases.map((q) => refRank(tools, q.query, 0.5, 0.3)));
    expect(ours).not.toEqual(expected(setDir).rankings); // the parameters matter on this set
  });

  it('reads parameter names and descriptions, nested and one level of items, and skips what is not a mapping', () => {
    const schema = {
      type: 'object',
      properties: {
        city: null,
        count: { type: 'integer', description: 42 },
        label: 'plain',
        when: { description: 'the date' },
        outer: { properties: { nested: { description: 'inner words' } } },
        list: { type: 'array', items: { properties: { element: { description: 'item words' } } } },
        tuple: { type: 'array', items: [{ properties: { hidden: {} } }] },
      },
    };
    const ts = [
      { name: 'tool', schema },
      { name: 'other', schema: { properties: 'abc' } },
      { name: 'third', schema: [1] },
      // A list of properties is not a mapping: its indexes are not names (Python's .items() would fail).
      { name: 'fourth', schema: { properties: Array.from({ length: 12 }, () => ({ description: 'listed' })) } },
    ];
    const found = (q: string) => names(ts, q);
    for (const word of ['city', 'count', 'label', 'when', 'date', 'outer', 'nested', 'inner', 'list', 'element'])
      expect(found(word), word).toEqual(['tool']);
    for (const word of ['42', 'plain', 'hidden', 'integer', 'array', '0', '1', 'abc', '10', '11', 'listed'])
      expect(found(word), word).toEqual([]);
    const tools = ts.map((t) => ({ id: t.name, name: t.name, parameters: t.schema as Record<string, unknown> }));
    for (const q of ['city date', 'tool other third', 'item words inner'])
      expect(found(q), q).toEqual(refRank(tools, q));
  });
});
