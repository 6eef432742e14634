// The resident daemon (docs/daemon.md) against the floors of issue 14, in the same run as the direct
// path: warm `select` via the daemon and directly vs `toolbox --version` on the shipped registry and
// at 1k / 10k generated tools (50k with BENCH_50K=1), and `run` of a trivial Python tool via the
// daemon and directly vs the floor (node -e 0 + bwrap python3 -c pass). Medians of interleaved runs.
// `nice -n 10 npm run bench -- daemon` on a shared machine. BENCH_DAEMON_BASELINE=<another built
// checkout> adds that checkout's client, interleaved, against the same daemon (a client change measured
// before and after in one run; the protocol and the socket path must be the same).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, REPO, median, pythonProject, registryAt, table } from './lib.mjs';
import { daemonPaths, PROTO } from '../dist/daemon/paths.js';
import { packageVersion } from '../dist/util/version.js';

const NODE = process.execPath;
const QUERY = 'weather forecast for a city';
const runtimeDir = mkdtempSync(join(tmpdir(), 'toolbox-bench-daemon-'));
const base = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
delete base.NODE_EXTRA_CA_CERTS; // ~90 ms per Node process here; would hide every ratio
const direct = { ...base, TOOLBOX_DAEMON: 'off' };
const viaDaemon = { ...base, TOOLBOX_DAEMON: 'auto' };

function once(cmd, args, cwd, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 400)}`);
  return ms;
}

/** Medians of interleaved runs of each [cmd, args, env] variant in `cwd` (first round discarded). */
function interleaved(cwd, variants, n) {
  const times = variants.map(() => []);
  for (let i = 0; i < n + 1; i++)
    variants.forEach(([cmd, args, env], k) => {
      const ms = once(cmd, args, cwd, env);
      if (i > 0) times[k].push(ms);
    });
  return times.map(median);
}

const tb = (args, env) => [NODE, [BIN, ...args], env];
const BASELINE = process.env.BENCH_DAEMON_BASELINE;
/** The baseline checkout's client, when there is one: [variant] or []. */
const baseline = (args) =>
  BASELINE ? [[NODE, [join(resolve(BASELINE), 'bin', 'toolbox.js'), ...args], viaDaemon]] : [];
const viaRuns = (n) => (n + 1) * (BASELINE ? 2 : 1);
const x = (a, b) => `${(a / b).toFixed(2)}×`;
const daemon = (action, cwd) =>
  spawnSync(NODE, [BIN, 'daemon', action, '--json'], { cwd, env: base, encoding: 'utf8' });
/** Requests the project's daemon has served: proof that the via-daemon rows went through it. */
const served = (cwd) => JSON.parse(daemon('status', cwd).stdout).requests ?? 0;

/**
 * Median round trip of `n` selects sent straight to the daemon's socket (no client process): the
 * daemon's own share of a via-daemon select, which the whole-process rows cannot separate.
 */
async function socketRoundTrip(cwd, argv, n) {
  const version = packageVersion();
  const paths = daemonPaths(viaDaemon, cwd, argv, version);
  const request = { op: 'call', go: true, proto: PROTO, version, argv, cwd, env: viaDaemon, stdinTTY: false };
  const one = () =>
    new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const s = createConnection(paths.socket);
      let buf = '';
      s.on('connect', () => s.write(JSON.stringify({ ...request, out: { tty: false }, err: { tty: false } }) + '\n'));
      s.setEncoding('utf8');
      s.on('data', (d) => {
        buf += d;
        if (!buf.includes('"t":"exit"')) return;
        s.destroy();
        if (!buf.includes('"t":"exit","code":0')) reject(new Error(`select on the socket failed: ${buf.slice(-300)}`));
        else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
      });
      s.on('error', reject);
    });
  const times = [];
  for (let i = 0; i < n + 1; i++) {
    const ms = await one();
    if (i > 0) times.push(ms);
  }
  return median(times);
}

/** One row pair: select directly and via the daemon, each against --version, in `cwd`. */
async function selectRows(rows, label, cwd, n) {
  const sel = ['select', QUERY, '--json'];
  once(...tb(sel, direct).slice(0, 2), cwd, direct); // build / warm the index
  daemon('start', cwd);
  try {
    const before = served(cwd);
    const [v, d, w, b] = interleaved(
      cwd,
      [tb(['--version'], base), tb(sel, direct), tb(sel, viaDaemon), ...baseline(sel)],
      n,
    );
    if (served(cwd) - before !== viaRuns(n)) throw new Error(`select at ${label} did not all go through the daemon`);
    rows.push([`warm \`select\`, ${label}, direct vs \`--version\``, x(d, v), `${d.toFixed(0)} vs ${v.toFixed(0)} ms`]);
    rows.push([
      `warm \`select\`, ${label}, via daemon vs \`--version\``,
      x(w, v),
      `${w.toFixed(0)} vs ${v.toFixed(0)} ms`,
    ]);
    if (b !== undefined)
      rows.push([`  the same, baseline client (${BASELINE})`, x(b, v), `${b.toFixed(0)} vs ${v.toFixed(0)} ms`]);
    const rt = await socketRoundTrip(cwd, sel, 30);
    rows.push([`  the daemon's share: \`select\` round trip on its socket, ${label}`, '', `${rt.toFixed(1)} ms`]);
  } finally {
    daemon('stop', cwd);
  }
}

export default async function () {
  const rows = [];
  try {
    await selectRows(rows, 'the 18 shipped tools', REPO, 15);
    const py = pythonProject('daemon');
    try {
      const runArgs = ['run', 'add', '--a', '1', '--b', '2'];
      once(NODE, [BIN, ...runArgs], py, direct); // interpreter cache, index
      daemon('start', py);
      const bwrap = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent'];
      const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
        encoding: 'utf8',
      }).stdout.trim();
      // A Python agent's environment: another folder in front of PATH and PYENV_VERSION set, finding
      // the same python3 (issue 38 item 2: served by the daemon, not turned away).
      const agent = { ...viaDaemon, PATH: `${join(runtimeDir, 'agent-bin')}:${base.PATH}` }; // a folder that is not there
      agent.PYENV_VERSION = '3.11';
      const before = served(py);
      const [n0, p0, r0, r1, a0, a1, rb] = interleaved(
        py,
        [
          [NODE, ['-e', '0'], base],
          ['bwrap', [...bwrap, python, '-c', 'pass'], base],
          tb(runArgs, direct),
          tb(runArgs, viaDaemon),
          tb(runArgs, { ...agent, TOOLBOX_DAEMON: 'off' }),
          tb(runArgs, agent),
          ...baseline(runArgs),
        ],
        10,
      );
      if (served(py) - before !== viaRuns(10) + 11) throw new Error('run did not all go through the daemon');
      const floor = n0 + p0;
      rows.push([
        '`run` trivial Python, direct vs floor (node -e 0 + bwrap python3 -c pass)',
        x(r0, floor),
        `${r0.toFixed(0)} vs ${floor.toFixed(0)} ms`,
      ]);
      rows.push([
        '`run` trivial Python, via daemon vs floor',
        x(r1, floor),
        `${r1.toFixed(0)} vs ${floor.toFixed(0)} ms`,
      ]);
      rows.push([
        '`run` trivial Python from an agent with another PATH and PYENV_VERSION: direct / via daemon vs floor',
        `${x(a0, floor)} / ${x(a1, floor)}`,
        `${a0.toFixed(0)} / ${a1.toFixed(0)} vs ${floor.toFixed(0)} ms`,
      ]);
      if (rb !== undefined)
        rows.push([
          `  the same, baseline client (${BASELINE})`,
          x(rb, floor),
          `${rb.toFixed(0)} vs ${floor.toFixed(0)} ms`,
        ]);
      daemon('stop', py);
    } finally {
      rmSync(py, { recursive: true, force: true });
    }
    for (const n of [1000, 10000, ...(process.env.BENCH_50K ? [50000] : [])])
      await selectRows(rows, `${n.toLocaleString('en')} tools`, registryAt(n), n >= 50000 ? 5 : 10);
  } finally {
    rmSync(runtimeDir, { recursive: true, force: true });
  }
  table(['what', 'ratio', 'times (same run)'], rows);
  console.log(
    '\nInterleaved in this run (--version, direct, via daemon); the via-daemon rows are checked to have gone' +
      ' through the daemon (its request count). Generated registries are shared with the scale bench.',
  );
}
