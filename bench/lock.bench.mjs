// What `run --locked` / `serve --locked` pay to pin a tool's code (lock/code.ts): the lock entry of
// one tool computed cold (every file read and hashed: a one-shot CLI run) and warm (the stat walk
// only: serve, the daemon), against a floor measured in the same run, a bare readdir + lstat walk
// of the same folders (what any "did something change" check must do).
import { lstatSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO, median, table } from './lib.mjs';

const { resolveProject } = await import(join(REPO, 'dist', 'config.js'));
const { loadRegistry } = await import(join(REPO, 'dist', 'registry', 'registry.js'));
const { lockEntry } = await import(join(REPO, 'dist', 'lock', 'compute.js'));
const { codeFiles, codePaths } = await import(join(REPO, 'dist', 'lock', 'code.js'));

/** A project with one Python tool whose package has `files` modules of ~2 KB each. */
function pyProject(files) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-lock-'));
  mkdirSync(join(dir, 'pkg', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'r'));
  writeFileSync(join(dir, 'toolbox.config.yaml'), 'registry: r\n');
  writeFileSync(join(dir, 'pkg', '__init__.py'), '');
  for (let i = 0; i < files; i++)
    writeFileSync(join(dir, 'pkg', i % 2 ? 'sub' : '', `m${i}.py`), `# ${i}\n${'x = 1\n'.repeat(340)}`);
  writeFileSync(
    join(dir, 'r', 't.yaml'),
    'id: t\nname: t\ndescription: A tool for the lock benchmark of toolbox, with a package of many modules.\n' +
      'schema: { type: object }\nloader: python_function\nloader_config: { module: pkg.m0, function: f }\n',
  );
  return dir;
}

function floor(paths) {
  // The same folders, node_modules stopped at as lock/code.ts does (it reads npm's record there).
  const walk = (p) => {
    const st = lstatSync(p);
    if (st.isDirectory() && !p.endsWith('/node_modules')) for (const c of readdirSync(p)) walk(join(p, c));
  };
  for (const p of paths) walk(p);
}

function time(fn, n) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

export default async function () {
  const rows = [];
  const measure = (label, project, entries) => {
    // Cold: a fresh process has no per-file hashes; here each cold figure is the first pass only.
    const t0 = performance.now();
    for (const e of entries) codeFiles(project.root, e);
    const cold = performance.now() - t0;
    const warm = time(() => entries.forEach((e) => codeFiles(project.root, e)), 21);
    const paths = entries.flatMap((e) => codePaths(project.root, e));
    const base = time(() => floor(paths), 21);
    const whole = time(() => entries.forEach((e) => lockEntry(project, e)), 21);
    const files = entries.reduce((n, e) => n + Object.keys(codeFiles(project.root, e)).length, 0);
    rows.push([
      label,
      String(files),
      `${cold.toFixed(2)} ms`,
      `${warm.toFixed(3)} ms`,
      `${base.toFixed(3)} ms`,
      (warm / base).toFixed(2),
      `${whole.toFixed(3)} ms`,
    ]);
  };
  const shipped = resolveProject({ cwd: REPO });
  measure('shipped registry, all tools', shipped, loadRegistry(shipped).entries);
  for (const n of [10, 200, 2000]) {
    const dir = pyProject(n);
    try {
      const p = resolveProject({ cwd: dir });
      measure(`one Python tool, package of ${n} modules`, p, loadRegistry(p).entries);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  table(
    [
      'code pinned for',
      'entries',
      'cold (first pass)',
      'warm (median)',
      'floor: lstat walk',
      'warm / floor',
      'whole lock entry, warm',
    ],
    rows,
  );
}
