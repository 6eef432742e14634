// Issue 34 item 2: the lock pins everything a tool can load, or refuses. After `toolbox lock`, a
// file edited in place inside an installed `node_modules` package, a module edited (or a `.pth`
// planted) in the site-packages of the tool's project venv, a plugin file edited in a folder of its
// `sandbox.paths`: `run --locked` refuses each (lock_drift, exit 3), naming the package and the file.
// Unchanged, it runs; a credential file changing inside a package is no drift (never hashed). The
// installed packages of one tool past 50,000 files are refused (lock_tool_too_large), saying how to
// narrow them, rather than pinned partly.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PACKAGE_ENTRIES } from '../../src/lock/code.js';
import { spawnCli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, runOn, tiers } from './helpers.js';

const tier = tiers[0]!;
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

type Result = Awaited<ReturnType<typeof runOn>>;

async function lock(dir: string) {
  const l = await runOn(tier, dir, ['lock', '--json']);
  expect(l.code, l.stderr).toBe(0);
}

function refusedNaming(r: Result, ...names: string[]) {
  expect([r.code, r.errorJson?.error.code], r.stderr).toEqual([3, 'lock_drift']);
  for (const n of names) expect(r.errorJson?.error.message).toContain(n);
  expect(r.errorJson?.error.hint).toContain('toolbox lock');
}

function nodeProject(extra = '') {
  const p = project({
    'js/package.json': '{ "type": "module" }',
    'js/tool.js':
      'import { word } from "wordy";\nimport { tail } from "@acme/tail";\nexport function run() { return word() + tail(); }\n',
    'node_modules/.package-lock.json': '{ "lockfileVersion": 3 }',
    'node_modules/wordy/package.json': '{ "name": "wordy", "type": "module", "main": "lib/index.js" }',
    'node_modules/wordy/lib/index.js': 'export function word() { return "genuine"; }\n',
    'node_modules/@acme/tail/package.json': '{ "name": "@acme/tail", "type": "module", "main": "index.js" }',
    'node_modules/@acme/tail/index.js': 'export function tail() { return "!"; }\n',
    'tool_registry/speak.yaml': contract('speak', 'node_module', '{ module: js/tool.js, function: run }', extra),
    // A second tool on the same node_modules: `lock` walks each package once for both (one pass).
    'tool_registry/speak2.yaml': contract('speak2', 'node_module', '{ module: js/tool.js, function: run }'),
  });
  cleanups.push(p.cleanup);
  return p;
}

const run = (dir: string, id = 'speak') => runOn(tier, dir, ['run', id, '--locked', '--json']);

describe('issue 34 item 2: installed packages, a project venv and sandbox.paths are pinned', () => {
  it('a file edited inside node_modules/<pkg>/ or @scope/<pkg>/: run --locked refuses, naming it', async () => {
    expect(expected('locked-node-modules-edited', tier)).toBe('refused');
    const p = nodeProject();
    await lock(p.dir);
    const ok = await run(p.dir);
    expect([ok.code, ok.json?.result], ok.stderr).toEqual([0, 'genuine!']);
    // The lock holds one line per package, not per file.
    const text = readFileSync(join(p.dir, 'toolbox.lock'), 'utf8');
    const lines = text.match(/node_modules\/wordy\/: package:sha256:[0-9a-f]{64} 2 files/g) ?? [];
    expect(lines.length).toBe(2);
    expect(lines[0]).toBe(lines[1]);
    expect(text).not.toContain('lib/index.js');

    p.write('node_modules/wordy/lib/index.js', 'export function word() { return "evil"; }\n');
    refusedNaming(await run(p.dir), 'node_modules/wordy/lib/index.js changed');
    refusedNaming(await run(p.dir, 'speak2'), 'node_modules/wordy/lib/index.js changed');
    await lock(p.dir);
    p.write('node_modules/@acme/tail/extra.js', 'export const x = 1;\n');
    refusedNaming(await run(p.dir), 'node_modules/@acme/tail/extra.js added');
    await lock(p.dir);
    // A new package appears (a dependency that shadows a relative import by name).
    p.write('node_modules/newcomer/index.js', '');
    refusedNaming(await run(p.dir), 'node_modules/newcomer/ added');
  });

  it('a fresh process names the file from the record `toolbox lock` kept; without it, the package', async () => {
    const p = nodeProject();
    const l = await spawnCli(['lock'], { cwd: p.dir });
    expect(l.code, l.stderr).toBe(0);
    expect(readdirSync(join(p.dir, '.toolbox', 'lock', 'packages')).length).toBe(2);
    p.write('node_modules/wordy/lib/index.js', 'export function word() { return "evil"; }\n');
    const r = await spawnCli(['run', 'speak', '--locked'], { cwd: p.dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('node_modules/wordy/lib/index.js changed');
    // A record edited by hand names nothing (it must hash to the digest the lock holds).
    for (const f of readdirSync(join(p.dir, '.toolbox', 'lock', 'packages')))
      writeFileSync(join(p.dir, '.toolbox', 'lock', 'packages', f), '[["lib/index.js","sha256:00"]]');
    const r2 = await spawnCli(['run', 'speak', '--locked'], { cwd: p.dir });
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain('node_modules/wordy/ changed (no record on this machine');
  });

  it('unchanged passes; a credential file changing inside a package is no drift and never hashed', async () => {
    const p = nodeProject();
    p.write('node_modules/wordy/.env', 'TOKEN=one\n');
    p.write('node_modules/wordy/.npmrc', '//registry.npmjs.org/:_authToken=one\n');
    await lock(p.dir);
    p.write('node_modules/wordy/.env', 'TOKEN=rotated\n');
    p.write('node_modules/wordy/.npmrc', '//registry.npmjs.org/:_authToken=rotated\n');
    p.write('node_modules/.cache/babel/x.json', '{}');
    const ok = await run(p.dir);
    expect([ok.code, ok.json?.result], ok.stderr).toEqual([0, 'genuine!']);
    const records = join(p.dir, '.toolbox', 'lock', 'packages');
    for (const f of readdirSync(records)) expect(readFileSync(join(records, f), 'utf8')).not.toMatch(/\.env|\.npmrc/);
  });

  it("the tool's project venv: a site-packages module edited, a .pth planted: refused, naming it", async () => {
    expect(expected('locked-venv-edited', tier)).toBe('refused');
    const p = project({
      'my_tools/__init__.py': '',
      'my_tools/tool.py': 'import helperlib\ndef run(x=""):\n    return helperlib.word()\n',
      'tool_registry/speak.yaml': contract(
        'speak',
        'python_function',
        '{ module: my_tools.tool, function: run, python: .venv }',
      ),
    });
    cleanups.push(p.cleanup);
    execFileSync('python3', ['-m', 'venv', '--without-pip', join(p.dir, '.venv')]);
    const lib = readdirSync(join(p.dir, '.venv', 'lib')).find((n) => n.startsWith('python'))!;
    const site = `.venv/lib/${lib}/site-packages`;
    p.write(`${site}/helperlib/__init__.py`, 'def word():\n    return "genuine"\n');
    await lock(p.dir);
    const ok = await run(p.dir);
    expect([ok.code, ok.json?.result], ok.stderr).toEqual([0, 'genuine']);
    // Python's own bytecode cache in site-packages comes and goes: no drift.
    p.write(`${site}/helperlib/__pycache__/__init__.cpython-300.pyc`, 'junk');
    expect((await run(p.dir)).code).toBe(0);

    p.write(`${site}/helperlib/__init__.py`, 'def word():\n    return "evil"\n');
    refusedNaming(await run(p.dir), `${site}/helperlib/__init__.py changed`);
    await lock(p.dir);
    p.write(`${site}/zz-evil.pth`, 'import os; os.environ["X"] = "planted"\n');
    refusedNaming(await run(p.dir), `${site}/zz-evil.pth added`);
    expect(existsSync(join(p.dir, '.venv', 'pyvenv.cfg'))).toBe(true);
  });

  it('a venv named through a link inside the project: the link and what it holds are pinned', async () => {
    const p = project({
      'my_tools/__init__.py': '',
      'my_tools/tool.py': 'def run(x=""):\n    return "ran"\n',
      'tool_registry/speak.yaml': contract(
        'speak',
        'python_function',
        '{ module: my_tools.tool, function: run, python: .venv }',
      ),
    });
    cleanups.push(p.cleanup);
    execFileSync('python3', ['-m', 'venv', '--without-pip', join(p.dir, 'envs', 'real')]);
    symlinkSync('envs/real', join(p.dir, '.venv'));
    await lock(p.dir);
    expect(readFileSync(join(p.dir, 'toolbox.lock'), 'utf8')).toContain('.venv: link:envs/real');
    expect((await run(p.dir)).code).toBe(0);
    const lib = readdirSync(join(p.dir, 'envs', 'real', 'lib')).find((n) => n.startsWith('python'))!;
    p.write(`envs/real/lib/${lib}/site-packages/planted.py`, 'X = 1\n');
    refusedNaming(await run(p.dir), `.venv/lib/${lib}/site-packages/planted.py added`);
  });

  it('a plugin file in a sandbox.paths folder inside the project, edited or added: refused, naming it', async () => {
    expect(expected('locked-sandbox-paths-edited', tier)).toBe('refused');
    const p = project({
      'my_tools/__init__.py': '',
      'my_tools/tool.py': 'def run(x=""):\n    return "ran"\n',
      'plugins/a.py': 'A = 1\n',
      'plugins/.env': 'TOKEN=one\n',
      'tool_registry/speak.yaml': contract(
        'speak',
        'python_function',
        '{ module: my_tools.tool, function: run }',
        'sandbox: { paths: [plugins] }',
      ),
    });
    cleanups.push(p.cleanup);
    await lock(p.dir);
    expect((await run(p.dir)).code).toBe(0);
    p.write('plugins/.env', 'TOKEN=rotated\n');
    expect((await run(p.dir)).code).toBe(0);
    p.write('plugins/a.py', 'A = 2\n');
    refusedNaming(await run(p.dir), 'plugins/a.py changed');
    await lock(p.dir);
    p.write('plugins/b.py', 'B = 1\n');
    refusedNaming(await run(p.dir), 'plugins/b.py added');
  });

  it('installed packages past the limit: lock and run --locked refuse (lock_tool_too_large), saying how to narrow', async () => {
    expect(expected('locked-packages-too-many-files', tier)).toBe('refused');
    const p = nodeProject();
    await lock(p.dir);
    const big = join(p.dir, 'node_modules', 'bulky', 'data');
    mkdirSync(big, { recursive: true });
    for (let i = 0; i <= MAX_PACKAGE_ENTRIES; i++) writeFileSync(join(big, `f${i}.js`), '');
    for (const argv of [
      ['lock', '--json'],
      ['run', 'speak', '--locked', '--json'],
    ]) {
      const r = await runOn(tier, p.dir, argv);
      expect(r.code, r.stderr).toBe(3);
      expect(r.errorJson?.error).toMatchObject({ code: 'lock_tool_too_large', details: { path: 'node_modules' } });
      expect(r.errorJson?.error.message).toContain('node_modules/');
      expect(r.errorJson?.error.hint).toMatch(/Narrow .*--omit=dev/);
    }
  }, 120_000);
});
