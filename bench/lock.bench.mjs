// What `run --locked` / `serve --locked` pay to pin a tool's code (lock/code.ts): the lock entry of
// one tool computed cold (every file read and hashed: a one-shot CLI run) and warm (the stat walk
// only: serve, the daemon), against a floor measured in the same run, a bare readdir + lstat walk
// of the same folders (what any "did something change" check must do).
//
// Issue 34 item 2's two figures, in a second table: a warm `--locked` check (assertLocked, what serve,
// the daemon and a library Runtime pay per call) of a 20-file Node tool (10 files of its own, two
// node_modules packages of 5) against the same lstat-walk floor; and `toolbox lock` of a Node tool
// whose node_modules hold 2,000 modules (100 packages of 20 files, ~2 KB each), a fresh process
// that reads and hashes every one, against the process floor (`node -e 0`) of the same run.
import { lstatSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BIN, REPO, median, table, timeCommand } from './lib.mjs';

const { resolveProject } = await import(join(REPO, 'dist', 'config.js'));
const { loadRegistry } = await import(join(REPO, 'dist', 'registry', 'registry.js'));
const { lockEntry } = await import(join(REPO, 'dist', 'lock', 'compute.js'));
const { codeFiles, codePaths } = await import(join(REPO, 'dist', 'lock', 'code.js'));
const { assertLocked } = await import(join(REPO, 'dist', 'lock', 'enforce.js'));
const { writeProjectLock } = await import(join(REPO, 'dist', 'lock', 'index.js'));

/** A project with one Node tool: `own` files of its own, `packages` node_modules packages of `per` files. */
function nodeProject(own, packages, per) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-lock-node-'));
  for (const d of ['js', 'r', 'node_modules']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'toolbox.config.yaml'), 'registry: r\n');
  writeFileSync(join(dir, 'js', 'package.json'), '{ "type": "module" }');
  writeFileSync(join(dir, 'js', 'tool.js'), 'export function run() { return 1; }\n');
  for (let i = 2; i < own; i++) writeFileSync(join(dir, 'js', `h${i}.js`), `// ${i}\n${'const x = 1;\n'.repeat(150)}`);
  for (let k = 0; k < packages; k++) {
    const pkg = join(dir, 'node_modules', `pkg${k}`);
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), `{ "name": "pkg${k}", "main": "lib/m1.js" }`);
    for (let i = 1; i < per; i++)
      writeFileSync(join(pkg, 'lib', `m${i}.js`), `// ${k}.${i}\n${'const x = 1;\n'.repeat(150)}`);
  }
  writeFileSync(
    join(dir, 'r', 't.yaml'),
    'id: t\nname: t\ndescription: A Node tool for the lock benchmark of toolbox, with installed packages.\n' +
      'schema: { type: object }\nloader: node_module\nloader_config: { module: js/tool.js, function: run }\n',
  );
  return dir;
}

/** Issue 34 item 2's figures: a warm --locked check of a 20-file tool, `toolbox lock` of a 2,000-module tool. */
async function item2() {
  const rows = [];
  const small = nodeProject(10, 2, 5);
  try {
    const p = resolveProject({ cwd: small });
    const entries = loadRegistry(p).entries;
    await writeProjectLock(p, entries);
    assertLocked(p, entries[0]);
    const warm = time(() => assertLocked(p, entries[0]), 201);
    const base = time(() => floor(entries.flatMap((e) => codePaths(p.root, e))), 201);
    rows.push([
      'warm `run --locked` check, Node tool of 20 files (10 own, 2 packages of 5)',
      `${warm.toFixed(3)} ms`,
      `${base.toFixed(3)} ms (lstat walk)`,
      (warm / base).toFixed(1),
      warm < 1 ? 'yes (< 1 ms)' : 'NO (>= 1 ms)',
    ]);
  } finally {
    rmSync(small, { recursive: true, force: true });
  }
  const big = nodeProject(10, 100, 20);
  try {
    const lock = timeCommand(process.execPath, [BIN, 'lock'], { cwd: big, n: 5, warmup: 1 });
    const proc = timeCommand(process.execPath, ['-e', '0'], { cwd: big, n: 5, warmup: 1 });
    rows.push([
      '`toolbox lock`, Node tool of 2,000 modules (100 packages of 20), fresh process',
      `${lock.toFixed(0)} ms`,
      `${proc.toFixed(0)} ms (node -e 0)`,
      (lock / proc).toFixed(1),
      lock < 2000 ? 'yes (< 2 s)' : 'NO (>= 2 s)',
    ]);
  } finally {
    rmSync(big, { recursive: true, force: true });
  }
  table(['issue 34 item 2', 'median', 'floor, same run', 'x floor', 'within target'], rows);
}

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
  // The same folders, node_modules included (its packages are pinned by their files: issue 34 item 2).
  const walk = (p) => {
    const st = lstatSync(p);
    if (st.isDirectory()) for (const c of readdirSync(p)) walk(join(p, c));
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
  const node = nodeProject(10, 100, 20);
  try {
    const p = resolveProject({ cwd: node });
    measure('one Node tool, node_modules of 2,000 modules', p, loadRegistry(p).entries);
  } finally {
    rmSync(node, { recursive: true, force: true });
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
  console.log('');
  await item2();
}
