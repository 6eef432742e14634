// Selection: quality per shared bench set against the ndp+split BM25 baseline, `select` latency
// on 100 / 1,000 / 10,000 tools (cold and warm) against `toolbox --version`, and the token saving
// against full binding. Sets come from ../shared/bench (converted by bench/convert-sets.mjs).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, REPO, median, table, timeCommand } from './lib.mjs';
import { convert, DATA, sets } from './convert-sets.mjs';

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS; // ~90 ms per process here; would hide the ratios

function toolbox(args, cwd) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`toolbox ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(r.stdout);
}

const f3 = (x) => x.toFixed(3);
const delta = (a, b) => `${a >= b ? '+' : ''}${(a - b).toFixed(3)}`;

/** Each query evaluated as the second turn of a session whose first turn was the previous (unrelated) query. */
async function sessionCarryOver(dir, cases) {
  const { resolveProject } = await import(join(REPO, 'dist', 'config.js'));
  const { openSelector } = await import(join(REPO, 'dist', 'select', 'index.js'));
  const { queryMetrics, meanMetrics } = await import(join(REPO, 'dist', 'select', 'metrics.js'));
  const sel = await openSelector(resolveProject({ cwd: dir, registry: 'tool_registry' }));
  const per = [];
  let prev;
  for (const c of cases) {
    const session = prev
      ? { id: 'bench', events: [{ at: '', kind: 'selected', query: prev.query, tools: prev.top }] }
      : undefined;
    const { results } = await sel.rank(c.query, { top: 10, session });
    per.push(
      queryMetrics(
        results.map((r) => r.id),
        c.relevant,
      ),
    );
    prev = { query: c.query, top: (await sel.rank(c.query, { top: 1 })).results.map((r) => r.id) };
  }
  return meanMetrics(per);
}

async function quality() {
  const rows = [];
  for (const set of sets()) {
    const dir = join(DATA, set);
    const base = toolbox(
      ['eval', 'cases.jsonl', '--registry', 'tool_registry', '--ranker', 'bm25-baseline', '--json'],
      dir,
    ).metrics;
    const ours = toolbox(['eval', 'cases.jsonl', '--registry', 'tool_registry', '--json'], dir).metrics;
    const cases = readFileSync(join(dir, 'cases.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const sess = await sessionCarryOver(dir, cases);
    const row = (name, m) => [
      set,
      name,
      f3(m['r@1']),
      f3(m['r@5']),
      f3(m['r@10']),
      f3(m['p@1']),
      f3(m['ndcg@10']),
      f3(m.mrr),
    ];
    rows.push(row('ndp+split (bm25_baseline.py)', base));
    rows.push([...row('toolbox', ours), delta(ours['ndcg@10'], base['ndcg@10']), delta(ours['r@5'], base['r@5'])]);
    rows.push([
      ...row('toolbox, as 2nd turn after the previous query (--session)', sess),
      delta(sess['ndcg@10'], ours['ndcg@10']),
      delta(sess['r@5'], ours['r@5']),
    ]);
  }
  table(
    ['set', 'ranker', 'R@1', 'R@5', 'R@10', 'P@1', 'NDCG@10', 'MRR', 'Δ NDCG@10', 'Δ R@5'],
    rows.map((r) => r.concat(Array(10 - r.length).fill(''))),
  );
  console.log('\nΔ of toolbox is against the baseline; Δ of the session row is against toolbox without a session.\n');
}

const QUERIES = [
  'weather forecast for a city',
  'send an email with an attachment',
  'convert currency at the latest exchange rate',
];

function timeCold(cwd, args, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    rmSync(join(cwd, '.toolbox'), { recursive: true, force: true });
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`cold select exited ${r.status}: ${r.stderr}`);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(times);
}

function latencyAndTokens() {
  const version = timeCommand(process.execPath, [BIN, '--version'], { env, n: 10 });
  const rows = [['toolbox --version', '', version.toFixed(0), '1.00', '', '', '']];
  const tokRows = [];
  for (const [n, coldRuns] of [
    [100, 3],
    [1000, 2],
    [10000, 1],
  ]) {
    const cwd = join(DATA, `size-${n}`);
    const args = ['select', QUERIES[0], '--registry', 'tool_registry', '--json'];
    const cold = timeCold(cwd, args, coldRuns);
    const warm = timeCommand(process.execPath, [BIN, ...args], { cwd, env, n: 10 });
    const tok = QUERIES.map((q) => toolbox(['select', q, '--registry', 'tool_registry', '--json'], cwd).tokens);
    const full = tok[0].full;
    const selected = tok.reduce((a, t) => a + t.selected, 0) / tok.length;
    rows.push([
      `toolbox select (${n.toLocaleString('en')} tools)`,
      'warm',
      warm.toFixed(0),
      (warm / version).toFixed(2),
      '',
      '',
      '',
    ]);
    rows.push([
      `toolbox select (${n.toLocaleString('en')} tools)`,
      `cold (${coldRuns} run${coldRuns > 1 ? 's' : ''})`,
      cold.toFixed(0),
      (cold / version).toFixed(2),
      '',
      '',
      '',
    ]);
    tokRows.push([
      n.toLocaleString('en'),
      full.toLocaleString('en'),
      selected.toFixed(0),
      `${((1 - selected / full) * 100).toFixed(2)}%`,
      (full / selected).toFixed(0) + '×',
    ]);
  }
  table(
    ['command', 'cache', 'median ms', 'ratio to --version'],
    rows.map((r) => r.slice(0, 4)),
  );
  console.log(
    '\ncold = no .toolbox/ at all (parse and validate every contract, build the index, count tokens); warm = nothing changed.\n',
  );
  table(['tools', 'full binding (tokens)', 'top-5 selected (tokens, mean of 3 queries)', 'saving', 'ratio'], tokRows);
}

export default async function () {
  convert();
  await quality();
  latencyAndTokens();
}
