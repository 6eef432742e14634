// What the freshness check costs a warm call (docs/daemon.md "What it keeps, and what it re-checks"):
// before each call a long-running Runtime (serve, the daemon, the library) stats every file of the
// tool's package folder (src/lock/tool-files.ts). Measured as the CPU time of the process that holds
// the Runtime (the tool runs in a sandboxed worker, not counted), per warm call of a trivial Python
// tool whose package folder has 1, 20 or 500 files, and the fingerprint alone. BENCH_FRESHNESS_BASELINE=
// <another built checkout> runs the same calls on that checkout's Runtime, interleaved (before/after).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO, median, table } from './lib.mjs';

const CALLS = Number(process.env.BENCH_FRESHNESS_CALLS ?? 300);
const ROUNDS = Number(process.env.BENCH_FRESHNESS_ROUNDS ?? 3);

// One child per measurement: a Runtime from <checkout>/dist, warmed, then CALLS calls; prints µs of
// CPU per call (user + system of this process) and µs per fingerprint.
const CHILD = `
const [dist, dir, calls] = process.argv.slice(1);
const { Runtime, resolveProject } = await import(dist + '/index.js');
const rt = new Runtime(resolveProject({ cwd: dir }), { longRunning: true, env: { PATH: process.env.PATH } });
for (let i = 0; i < 20; i++) await rt.invoke({ id: 'add', args: { a: i, b: 1 } });
const c0 = process.cpuUsage();
for (let i = 0; i < +calls; i++) await rt.invoke({ id: 'add', args: { a: i, b: 1 } });
const c = process.cpuUsage(c0);
let fp = 0;
try {
  const { codeVersion: codeFingerprint } = await import(dist + '/lock/tool-files.js');
  const entry = rt.find('add');
  const f0 = process.cpuUsage();
  for (let i = 0; i < 2000; i++) codeFingerprint(rt.project.root, entry.contract);
  const f = process.cpuUsage(f0);
  fp = (f.user + f.system) / 2000;
} catch { /* a baseline without the module */ }
await rt.close();
process.stdout.write(JSON.stringify({ perCall: (c.user + c.system) / +calls, fp }));
`;

function project(files) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-fresh-'));
  mkdirSync(join(dir, 'benchtools'), { recursive: true });
  mkdirSync(join(dir, 'tool_registry'), { recursive: true });
  writeFileSync(join(dir, 'benchtools', '__init__.py'), '');
  writeFileSync(join(dir, 'benchtools', 'trivial.py'), 'def add(a, b):\n    return a + b\n');
  for (let i = 2; i < files; i++) {
    const sub = join(dir, 'benchtools', `m${i % 10}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `helper_${i}.py`), `X = ${i}\n`);
  }
  writeFileSync(
    join(dir, 'tool_registry', 'add.yaml'),
    'id: add\nname: add\ndescription: Adds two integers and returns the sum; a trivial tool to measure overhead.\n' +
      'schema:\n  type: object\n  properties:\n    a: { type: integer }\n    b: { type: integer }\n  required: [a, b]\n' +
      'loader: python_function\nloader_config:\n  module: benchtools.trivial\n  function: add\n',
  );
  return dir;
}

function measure(checkout, dir) {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', CHILD, join(checkout, 'dist'), dir, String(CALLS)],
    {
      env,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`freshness child failed: ${r.stderr.slice(0, 400)}`);
  return JSON.parse(r.stdout);
}

export default function bench() {
  const base = process.env.BENCH_FRESHNESS_BASELINE;
  const checkouts = [['this checkout', REPO], ...(base ? [['baseline', resolve(base)]] : [])];
  const rows = [];
  for (const files of [1, 20, 500]) {
    const dir = project(files);
    try {
      const got = checkouts.map(() => ({ perCall: [], fp: [] }));
      for (let r = 0; r < ROUNDS; r++)
        checkouts.forEach(([, co], k) => {
          const m = measure(co, dir);
          got[k].perCall.push(m.perCall);
          got[k].fp.push(m.fp);
        });
      const now = median(got[0].perCall);
      const fp = median(got[0].fp);
      const row = [String(files), `${now.toFixed(0)} µs`, `${fp.toFixed(1)} µs (${((100 * fp) / now).toFixed(1)} %)`];
      if (base) {
        const then = median(got[1].perCall);
        row.push(`${then.toFixed(0)} µs`, `${(now / then).toFixed(2)}×`);
      }
      rows.push(row);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const head = ['files in the package', 'CPU per warm call', 'of which the fingerprint'];
  if (base) head.push('baseline CPU per call', 'ratio');
  table(head, rows);
  process.stdout.write(`(${CALLS} calls per child, median of ${ROUNDS} interleaved children)\n`);
}
