// Small helpers shared by the bench files: timing whole processes and printing tables.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { generateRegistry } from './gen-registry.mjs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(REPO, 'bin', 'toolbox.js');

/** The generated registry of `n` tools, kept in the temp folder across runs (shared by the benches). */
export function registryAt(n) {
  const dir = join(tmpdir(), `toolbox-bench-scale-${n}`);
  if (!existsSync(join(dir, 'tool_registry', '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    generateRegistry(dir, n);
    writeFileSync(join(dir, 'tool_registry', '.complete'), '');
  }
  return dir;
}

/** A project with one trivial Python tool, for `run` against the floor. */
export function pythonProject(tag) {
  const dir = join(tmpdir(), `toolbox-bench-${tag}-py-${process.pid}`);
  mkdirSync(join(dir, 'benchtools'), { recursive: true });
  mkdirSync(join(dir, 'tool_registry'), { recursive: true });
  writeFileSync(join(dir, 'benchtools', '__init__.py'), '');
  writeFileSync(join(dir, 'benchtools', 'trivial.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(
    join(dir, 'tool_registry', 'add.yaml'),
    'id: add\nname: add\ndescription: Adds two integers and returns the sum; a trivial tool to measure overhead.\n' +
      'schema:\n  type: object\n  properties:\n    a: { type: integer }\n    b: { type: integer }\n  required: [a, b]\n' +
      'loader: python_function\nloader_config:\n  module: benchtools.trivial\n  function: add\n',
  );
  return dir;
}

/** Median wall time (ms) of running `cmd args` `n` times (after `warmup` runs). */
export function timeCommand(cmd, args, { n = 15, warmup = 2, cwd = REPO, env = process.env, input } = {}) {
  const times = [];
  for (let i = 0; i < warmup + n; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { cwd, env, input, stdio: ['pipe', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0 && !args.includes('--allow-fail')) {
      throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 400)}`);
    }
    if (i >= warmup) times.push(ms);
  }
  return median(times);
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Print a markdown table. */
export function table(headers, rows) {
  const w = headers.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => '| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |';
  console.log(line(headers));
  console.log('|' + w.map((x) => '-'.repeat(x + 2)).join('|') + '|');
  for (const r of rows) console.log(line(r));
}
