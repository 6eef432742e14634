// Selection: quality per shared bench set against the ndp+split BM25 baseline, `select` latency
// on 100 / 1,000 / 10,000 tools (cold and warm) against `toolbox --version`, and the token saving
// against full binding. Sets come from ../shared/bench (converted by bench/convert-sets.mjs).
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, REPO, median, table, timeCommand } from './lib.mjs';
import { convert, DATA, sets } from './convert-sets.mjs';
import { evalBaseline, evalMultiTurn, evalToolbox, loadSet, setSelector } from './quality.mjs';
import { BEFORE_26, loso, printLoso } from './loso.mjs';
import { mixedRows, smallTalkRows, traditionalRows, wrappedRows } from './variants.mjs';

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS; // ~90 ms per process here; would hide the ratios

function toolbox(args, cwd) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`toolbox ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(r.stdout);
}

const f3 = (x) => x.toFixed(3);
const delta = (a, b) => `${a >= b ? '+' : ''}${(a - b).toFixed(3)}`;

/**
 * Per set: BM25 ndp+split (the in-process replica of bm25_baseline.py) vs toolbox (NDCG@10, R@5,
 * R@1), and toolbox before issue 10; then the leave-one-set-out choice of the constants (quick:
 * five candidates; `node bench/loso.mjs` runs all), and multi-turn: acebench_en's multi-turn
 * queries as one concatenated query vs the last turn with the earlier ones as a session.
 */
async function quality() {
  const rows = [];
  for (const set of sets()) {
    const s = await loadSet(set);
    const base = await evalBaseline(s);
    const ours = await evalToolbox(s);
    const before = BEFORE_26[set];
    rows.push([
      set,
      f3(base['ndcg@10']),
      f3(ours['ndcg@10']),
      delta(ours['ndcg@10'], base['ndcg@10']),
      f3(base['r@5']),
      f3(ours['r@5']),
      f3(base['r@1']),
      f3(ours['r@1']),
      before === undefined ? '' : f3(before),
      before === undefined ? '' : delta(ours['ndcg@10'], before),
    ]);
  }
  table(
    [
      'set',
      'BM25 NDCG@10',
      'toolbox NDCG@10',
      'Δ',
      'BM25 R@5',
      'toolbox R@5',
      'BM25 R@1',
      'toolbox R@1',
      'toolbox before #26',
      'Δ vs before',
    ],
    rows,
  );
  console.log(
    '\nBM25 = ndp+split (bm25_baseline.py replica); "before #26" = NDCG@10 of the ranking before issue 26.\n',
  );
  printLoso(await loso({ quick: true }), (x) => process.stdout.write(x));
  const mt = await evalMultiTurn(await loadSet('acebench_en'));
  console.log(
    `
acebench_en multi-turn queries (${mt.n}): all turns as one query NDCG@10 ${f3(mt.concat['ndcg@10'])} R@5 ${f3(mt.concat['r@5'])}; last turn with --session ${f3(mt.session['ndcg@10'])} R@5 ${f3(mt.session['r@5'])}\n`,
  );
}

/** The shipped registry, copied under bench/.data so that its index is written there. */
function shippedCopy() {
  const shipped = join(DATA, 'shipped');
  rmSync(shipped, { recursive: true, force: true });
  cpSync(join(REPO, 'tool_registry'), join(shipped, 'tool_registry'), { recursive: true });
  return shipped;
}

/**
 * Issue 26's variants, built at bench time: traditional characters (queries, tools), code-mixed
 * queries, small talk (our own list) and every query wrapped in small talk.
 */
export async function variants() {
  const ndcg = async (s) => (await evalToolbox(s))['ndcg@10'];
  console.log('\nTraditional characters (opencc-js from the simplified text; NDCG@10):\n');
  table(['pair', 'written in traditional', 'simplified', 'tw', 'hk', 'twp', 'worst Δ'], await traditionalRows(ndcg));
  console.log('\nCode-mixed queries (our list of English words people type in Chinese; queries with one):\n');
  table(['pair', 'queries', 'pure Chinese', 'mixed', 'Δ'], await mixedRows(ndcg));
  const all = [];
  for (const set of sets()) all.push(await loadSet(set));
  console.log('\nEvery query wrapped in small talk of its language (NDCG@10):\n');
  table(['set', 'plain', 'wrapped', 'Δ'], await wrappedRows(all, ndcg));
  const { resolveProject } = await import(join(REPO, 'dist', 'config.js'));
  const { openSelector } = await import(join(REPO, 'dist', 'select', 'index.js'));
  const shipped = { set: 'shipped (tool_registry)', project: resolveProject({ cwd: shippedCopy() }) };
  const talk = await smallTalkRows([shipped, ...all], (s) => (s.project ? openSelector(s.project) : setSelector(s)));
  console.log('\nSmall talk (test/fixtures/select/small-talk.jsonl) that selects nothing:\n');
  table(['registry', 'lexicon chosen on', 'written after (held out)', 'all'], talk.rows);
  if (talk.missed.length)
    console.log(`\nstill selecting on some registry: ${talk.missed.map(([t, n]) => `"${t}" (${n})`).join(', ')}\n`);
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
  // The shipped registry: an English query never opens the Chinese glossary; a Chinese one does
  // (binary search in data/cedict-zh-en.tsv, and the traditional → simplified table).
  const shipped = shippedCopy();
  for (const q of ['will it rain in Beijing tomorrow', '查询北京今天天气', '查詢北京今天天氣']) {
    const args = ['select', q, '--registry', 'tool_registry', '--json'];
    toolbox(args, shipped); // build the index
    const warm = timeCommand(process.execPath, [BIN, ...args], { cwd: shipped, env, n: 10 });
    rows.push([`toolbox select "${q}" (shipped, 18 tools)`, 'warm', warm.toFixed(0), (warm / version).toFixed(2)]);
  }
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
  await variants();
  latencyAndTokens();
}
