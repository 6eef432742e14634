// `toolbox run` of a trivial Python tool against calling the same function with python3 directly;
// the sandbox's share (TOOLBOX_SANDBOX=none vs the default tier); run on a 5,000-contract registry
// against a 1-contract registry; the cold load time against the reference design's 200 ms target;
// and the library Runtime (long-running, LRU-cached) for comparison.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, REPO, median, table, timeCommand } from './lib.mjs';

const TOOL_PY = 'def add(a, b):\n    return a + b\n';
const contract = (id) => `id: ${id}
name: ${id}
description: Adds two integers and returns the sum; a trivial tool used to measure overhead.
schema:
  type: object
  properties:
    a: { type: integer }
    b: { type: integer }
  required: [a, b]
loader: python_function
loader_config:
  module: benchtools.trivial
  function: add
`;

function makeProject(n) {
  const dir = mkdtempSync(join(tmpdir(), `toolbox-bench-run-${n}-`));
  mkdirSync(join(dir, 'benchtools'), { recursive: true });
  writeFileSync(join(dir, 'benchtools', '__init__.py'), '');
  writeFileSync(join(dir, 'benchtools', 'trivial.py'), TOOL_PY);
  mkdirSync(join(dir, 'tool_registry'));
  for (let i = 0; i < n; i++) {
    const id = `tool_${String(i).padStart(5, '0')}`;
    writeFileSync(join(dir, 'tool_registry', `${id}.yaml`), contract(id));
  }
  return dir;
}

/** Median of `loadMs` / `runMs` / `durationMs` reported by `run --json`. */
function jsonTimings(cwd, env, n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const r = spawnSync(process.execPath, [BIN, 'run', 'tool_00000', '--a', '1', '--b', '2', '--json'], {
      cwd,
      env,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`run failed: ${r.stderr}`);
    rows.push(JSON.parse(r.stdout));
  }
  return { loadMs: median(rows.map((r) => r.loadMs)), runMs: median(rows.map((r) => r.runMs)), tier: rows[0].sandbox };
}

async function libraryTimings(cwd, n) {
  const { Runtime, resolveProject } = await import(pathToFileURL(join(REPO, 'dist', 'index.js')).href);
  const rt = new Runtime(resolveProject({ cwd }), { longRunning: true, env: { PATH: process.env.PATH } });
  try {
    const first = await rt.invoke({ id: 'tool_00000', args: { a: 1, b: 2 } });
    const times = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await rt.invoke({ id: 'tool_00000', args: { a: i, b: 2 } });
      times.push(performance.now() - t0);
      if (r.result !== i + 2) throw new Error(`library call returned ${JSON.stringify(r.result)}`);
    }
    return { first: first.durationMs, cached: median(times) };
  } finally {
    await rt.close();
  }
}

/**
 * Median wall time per command, measured interleaved (A B C A B C ...) so that the load of a busy
 * machine falls on every variant alike and the ratios stay meaningful.
 */
function timeInterleaved(variants, n) {
  const times = variants.map(() => []);
  for (let i = 0; i < n; i++) {
    variants.forEach((v, k) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(v.cmd, v.args, { cwd: v.cwd, env: v.env, stdio: ['pipe', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0)
        throw new Error(`${v.cmd} ${v.args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 400)}`);
      times[k].push(ms);
    });
  }
  return times.map(median);
}

export default async function () {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.TOOLBOX_SANDBOX;
  const one = makeProject(1);
  const many = makeProject(5000);
  try {
    const runArgs = [BIN, 'run', 'tool_00000', '--a', '1', '--b', '2'];
    const helpArgs = [BIN, 'run', 'tool_00000', '--help'];
    const n = 12;
    // Warm-up: builds each registry's index once (the 5,000-contract parse is not what we measure).
    timeCommand(process.execPath, runArgs, { cwd: one, env, n: 1, warmup: 1 });
    timeCommand(process.execPath, runArgs, { cwd: many, env, n: 1, warmup: 1 });

    const pyCode = 'import benchtools.trivial as t; print(t.add(1, 2))';
    const realPy = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
    }).stdout.trim();
    const node = process.execPath;
    const [pyShim, pyReal, runDefault, runNone, runMany, helpTool, helpMany] = timeInterleaved(
      [
        { cmd: 'python3', args: ['-c', pyCode], cwd: one, env },
        { cmd: realPy, args: ['-c', pyCode], cwd: one, env },
        { cmd: node, args: runArgs, cwd: one, env },
        { cmd: node, args: runArgs, cwd: one, env: { ...env, TOOLBOX_SANDBOX: 'none' } },
        { cmd: node, args: runArgs, cwd: many, env },
        { cmd: node, args: helpArgs, cwd: one, env },
        { cmd: node, args: helpArgs, cwd: many, env },
      ],
      n,
    );
    const t = jsonTimings(one, env, n);
    const lib = await libraryTimings(one, 20);

    const r = (x, base) => (x / base).toFixed(2);
    const over = (x) => (x <= 200 ? 'within' : `${r(x, 200)}× over`);
    console.log(
      `Trivial Python tool (\`add(a, b)\`); medians of ${n} interleaved whole-process runs; default sandbox tier here: ${t.tier}.\n`,
    );
    table(
      ['what', 'median ms', 'ratio to python3 -c'],
      [
        ['python3 -c (the `python3` on PATH; here a pyenv shim)', pyShim.toFixed(1), '1.00'],
        [`${realPy} -c (the real interpreter)`, pyReal.toFixed(1), r(pyReal, pyShim)],
        [`toolbox run, sandbox ${t.tier}`, runDefault.toFixed(1), r(runDefault, pyShim)],
        ['toolbox run, TOOLBOX_SANDBOX=none', runNone.toFixed(1), r(runNone, pyShim)],
        [
          'sandbox share (default − none)',
          (runDefault - runNone).toFixed(1),
          `${((100 * (runDefault - runNone)) / runDefault).toFixed(0)}% of run`,
        ],
      ],
    );
    console.log('\nRegistry size (index warm):\n');
    table(
      ['what', '1 contract ms', '5,000 contracts ms', 'ratio'],
      [
        ['toolbox run', runDefault.toFixed(1), runMany.toFixed(1), r(runMany, runDefault)],
        ['toolbox run <id> --help (no tool started)', helpTool.toFixed(1), helpMany.toFixed(1), r(helpMany, helpTool)],
      ],
    );
    console.log('\nLoad and call times (as `run --json` reports them) against the 200 ms cold-load target:\n');
    table(
      ['what', 'median ms', 'vs 200 ms target'],
      [
        ['cold load (deps check + loader import + load)', t.loadMs.toFixed(1), over(t.loadMs)],
        ['run (one sandboxed call)', t.runMs.toFixed(1), ''],
        ['whole `toolbox run` process', runDefault.toFixed(1), over(runDefault)],
        ['library Runtime: first invoke (cold)', lib.first.toFixed(1), over(lib.first)],
        ['library Runtime: later invoke (LRU hit, warm worker)', lib.cached.toFixed(2), over(lib.cached)],
      ],
    );
  } finally {
    rmSync(one, { recursive: true, force: true });
    rmSync(many, { recursive: true, force: true });
  }
}
