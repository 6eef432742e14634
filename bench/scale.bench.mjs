// Start-up and scale (issue 14's table): every figure is a ratio against a floor measured in the
// same run, interleaved (A B A B ...) so that a busy machine weighs on both alike, at 1k and 10k
// generated tools (and 50k with BENCH_50K=1: it takes minutes). Peak RSS from /usr/bin/time.
// Run it under `nice` on a shared machine: `nice -n 10 npm run bench -- scale`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO, median, pythonProject, registryAt, table } from './lib.mjs';

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS; // ~90 ms per Node process here; would hide every ratio
const NODE = process.execPath;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const QUERY = 'weather forecast for a city';

function once(cmd, args, cwd, { ok = [0] } = {}) {
  const rssFile = join(tmpdir(), `toolbox-bench-rss-${process.pid}`);
  const argv = TIME ? ['-f', '%M', '-o', rssFile, cmd, ...args] : args;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(TIME ?? cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!ok.includes(r.status))
    throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 400)}`);
  const rss = TIME ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : NaN;
  return { ms, rss, stdout: String(r.stdout) };
}

/** Medians of interleaved runs of each [cmd, args, cwd] variant. */
function interleaved(variants, n) {
  const times = variants.map(() => []);
  for (let i = 0; i < n + 1; i++)
    variants.forEach(([cmd, args, cwd], k) => {
      const { ms } = once(cmd, args, cwd);
      if (i > 0) times[k].push(ms); // the first round warms the page cache
    });
  return times.map(median);
}

const tb = (...args) => [NODE, [BIN, ...args]];

/**
 * Wait (up to 60 s) until no background index verifier runs: one left by an earlier step or bench
 * writes .toolbox/cache again after it is removed, and a "cold" select would then find a registry cache.
 */
function waitForVerifiers() {
  const running = () =>
    readdirSync('/proc').some((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('verify-main.js');
      } catch {
        return false;
      }
    });
  const until = Date.now() + 60_000;
  while (running() && Date.now() < until) spawnSync('sleep', ['0.2']);
}
const x = (a, b) => `${(a / b).toFixed(2)}×`;
const mb = (r) => (Number.isFinite(r) ? `${r.toFixed(0)} MB` : '');

/** Edit one contract as editors save (write a temp file, rename over), so its text changes. */
function editOne(dir, i, word) {
  const file = join(dir, 'tool_registry', `g${String(Math.floor(i / 500)).padStart(3, '0')}`, `t${i}.yaml`);
  const text = readFileSync(file, 'utf8').replace(/^description: "/m, `description: "${word} `);
  writeFileSync(file + '.tmp~', text);
  renameSync(file + '.tmp~', file);
}

export default async function () {
  const rows = [];
  const [nodeMs, verMs] = interleaved(
    [
      [NODE, ['-e', '0'], REPO],
      [...tb('--version'), REPO],
    ],
    20,
  );
  rows.push([
    '`toolbox --version` vs `node -e 0`',
    x(verMs, nodeMs),
    `${verMs.toFixed(0)} vs ${nodeMs.toFixed(0)} ms`,
    '',
  ]);

  const shipped = ['select', QUERY, '--json'];
  once(...tb(...shipped), REPO); // warm the index
  const [v1, s1] = interleaved(
    [
      [...tb('--version'), REPO],
      [...tb(...shipped), REPO],
    ],
    15,
  );
  rows.push([
    `warm \`select\` on the ${18} shipped tools vs \`--version\``,
    x(s1, v1),
    `${s1.toFixed(0)} vs ${v1.toFixed(0)} ms`,
    '',
  ]);

  const py = pythonProject('scale');
  try {
    const runArgs = ['run', 'add', '--a', '1', '--b', '2'];
    once(...tb(...runArgs), py); // warm the interpreter cache and index
    const bwrap = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent'];
    // The interpreter itself, not a shim (pyenv's python3 is a shell script): what toolbox runs.
    const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
    }).stdout.trim();
    const [n0, p0, r0] = interleaved(
      [
        [NODE, ['-e', '0'], py],
        ['bwrap', [...bwrap, python, '-c', 'pass'], py],
        [...tb(...runArgs), py],
      ],
      10,
    );
    rows.push([
      '`run` of a trivial Python tool vs floor (node -e 0 + bwrap python3 -c pass)',
      x(r0, n0 + p0),
      `${r0.toFixed(0)} vs ${(n0 + p0).toFixed(0)} ms`,
      '',
    ]);
  } finally {
    rmSync(py, { recursive: true, force: true });
  }

  const sizes = [1000, 10000, ...(process.env.BENCH_50K ? [50000] : [])];
  for (const n of sizes) {
    const label = n.toLocaleString('en');
    const dir = registryAt(n);
    waitForVerifiers();
    rmSync(join(dir, '.toolbox'), { recursive: true, force: true });
    const sel = ['select', QUERY, '--json'];
    const cold = once(...tb(...sel), dir);
    const [v, w] = interleaved(
      [
        [...tb('--version'), dir],
        [...tb(...sel), dir],
      ],
      n >= 50000 ? 5 : 10,
    );
    rows.push([
      `cold first \`select\`, ${label} tools`,
      x(cold.ms, v),
      `${(cold.ms / 1000).toFixed(1)} s`,
      mb(cold.rss),
    ]);
    rows.push([
      `warm \`select\`, ${label} tools, vs \`--version\``,
      x(w, v),
      `${w.toFixed(0)} vs ${v.toFixed(0)} ms`,
      '',
    ]);
    // Next select after an edit that makes the edited tool the answer (so a stale index would show).
    const edits = [];
    let rss = 0;
    for (let k = 0; k < 3; k++) {
      const i = Math.floor(((k + 1) * n) / 4);
      const word = `zqxedit${k}`;
      editOne(dir, i, word);
      const r = once(...tb('select', word, '--json', '-k', '1'), dir);
      const top = JSON.parse(r.stdout).results[0]?.id;
      if (top !== `tool_${i}`) throw new Error(`after editing tool_${i}, select returned ${top}: stale index`);
      edits.push(r.ms);
      rss = Math.max(rss, r.rss);
    }
    rows.push([
      `next \`select\` after editing one contract, ${label}`,
      x(median(edits), v),
      `${median(edits).toFixed(0)} ms`,
      mb(rss),
    ]);
    const val = once(...tb('validate', '--json', '--no-routing'), dir, { ok: [0, 1] });
    rows.push([`\`validate\`, ${label} tools`, x(val.ms, v), `${(val.ms / 1000).toFixed(1)} s`, mb(val.rss)]);
  }
  table(['what', 'ratio', 'times (same run)', 'peak RSS'], rows);
  console.log(
    `\nRatios: against \`node -e 0\` or \`toolbox --version\` measured interleaved in this run. Generated registries` +
      ` (bench/gen-registry.mjs) are kept in ${tmpdir()}/toolbox-bench-scale-N; 50k only with BENCH_50K=1.`,
  );
}
