// `toolbox eval --ranker bm25-baseline` must compute exactly what ../shared/bench/bm25_baseline.py
// computes (variant ndp+split): same rankings, same metrics to ~1e-9. Runs the real script.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { cli, REPO, tempProject } from '../helpers.js';
import { BaselineRanker } from '../../src/select/baseline.js';
// @ts-expect-error plain .mjs bench helper without types
import { contractId } from '../../bench/convert-sets.mjs';

const SHARED = process.env.TOOLBOX_BENCH_SHARED ?? join(REPO, '..', 'shared', 'bench');
const SCRIPT = join(SHARED, 'bm25_baseline.py');
const MINI = join(REPO, 'test', 'fixtures', 'select', 'mini-set');
const hasPython = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

type Tool = { id: string; name: string; description?: string; parameters?: Record<string, unknown> };
const jl = <T>(p: string): T[] =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

/** The script's own functions, imported from Python: metrics and top-10 rankings of ndp+split. */
function python(setDir: string): { metrics: Record<string, number>; rankings: string[][] } {
  const code = `
import sys, json
sys.path.insert(0, sys.argv[1])
import bm25_baseline as b
tools, queries = b.load(sys.argv[2])
m = b.evaluate(tools, queries, 'ndp+split')
docs = [b.tokenize(f"{t['name']} {t.get('description', '')}" + " " + b.param_text(t.get('parameters') or {}), True) for t in tools]
bm = b.BM25(docs)
ids = [t['id'] for t in tools]
print(json.dumps({'metrics': m, 'rankings': [[ids[i] for i in bm.rank(b.tokenize(q['query'], True), 10)] for q in queries]}))
`;
  return JSON.parse(
    execFileSync('python3', ['-c', code, SHARED, setDir], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONHASHSEED: '0' },
      maxBuffer: 64 << 20,
    }),
  );
}

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
  const cases = jl<{ query: string; relevant: string[] }>(join(setDir, 'queries.jsonl'));
  proj.write(
    'cases.jsonl',
    cases.map((q) => JSON.stringify({ query: q.query, relevant: q.relevant.map((r) => contractId(r)) })).join('\n'),
  );
  return { tools, cases, dir: proj.dir };
}

async function compare(setDir: string) {
  const { tools, cases, dir } = convert(setDir);
  const py = python(setDir);
  const r = await cli(['eval', 'cases.jsonl', '--ranker', 'bm25-baseline', '--json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const m = r.json.metrics;
  for (const [ours, theirs] of [
    ['r@1', 'R@1'],
    ['r@5', 'R@5'],
    ['r@10', 'R@10'],
    ['p@1', 'P@1'],
    ['ndcg@10', 'NDCG@10'],
  ] as const) {
    expect(Math.abs(m[ours] - py.metrics[theirs]!), ours).toBeLessThan(1e-9);
  }
  // MRR is not in the script: derive it from the script's own rankings.
  const mrr =
    py.rankings.reduce((a, rk, i) => {
      const k = rk.findIndex((id) => cases[i]!.relevant.includes(id));
      return a + (k >= 0 ? 1 / (k + 1) : 0);
    }, 0) / cases.length;
  expect(Math.abs(m.mrr - mrr)).toBeLessThan(1e-9);
  // And the rankings themselves, query by query.
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
    ).toEqual(py.rankings[i]),
  );
}

describe.skipIf(!hasPython || !existsSync(SCRIPT))('eval --ranker bm25-baseline against bm25_baseline.py', () => {
  it('matches on a small bilingual set made for this test', async () => {
    await compare(MINI);
  });

  it.skipIf(!existsSync(join(SHARED, 'metatool', 'tools.jsonl')))(
    'matches on the shared metatool set',
    async () => {
      await compare(join(SHARED, 'metatool'));
    },
    120_000,
  );
});
