// Issue 23 items 1 and 2: toolbox never runs a file of the project on the host to find an interpreter
// or a program's version. Each project plants a program that leaves a mark on the host when it runs.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, runOn, scratch, tiers } from './helpers.js';

const out = scratch();
const mark = join(out.dir, 'PWNED');
afterAll(() => out.cleanup());
beforeEach(() => rmSync(mark, { force: true }));

/** A shell script that marks the host, then behaves like python3 (so a run that uses it still works). */
const fakePython = `#!/bin/sh\necho "$0 $*" >> ${mark}\nexec python3 "$@"\n`;
const marked = () => (existsSync(mark) ? readFileSync(mark, 'utf8') : '');

const realPython = execFileSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], {
  encoding: 'utf8',
}).trim();

const TOOL = {
  'my_tools/__init__.py': '',
  'my_tools/t.py': 'def f(x=""):\n    return 42\n',
};

describe('item 1: interpreters are found without running anything of the project', () => {
  it('a loader_config.python folder whose bin/python3 is a script is refused, never run (run, run --locked, deps, lock)', async () => {
    const p = project({
      ...TOOL,
      'fakepy/bin/python3': fakePython,
      'fakepy/pyvenv.cfg': `home = ${join(out.dir, 'nowhere')}\n`,
      'tool_registry/t.yaml': contract(
        't',
        'python_function',
        '{ module: my_tools.t, function: f, python: fakepy }',
        'requires: { python: ["requests"] }',
      ),
    });
    try {
      chmodSync(join(p.dir, 'fakepy/bin/python3'), 0o755);
      const run = await cli(['run', 't', '--json'], { cwd: p.dir });
      expect(run.code).toBe(6);
      expect(run.errorJson.error.code).toBe('missing_dependencies');
      const deps = await cli(['deps', '--json'], { cwd: p.dir });
      expect(deps.code).toBe(1);
      expect(deps.json.tools[0].requirements[0]).toMatchObject({ name: 'python', status: 'error' });
      await cli(['lock'], { cwd: p.dir });
      await cli(['run', 't', '--locked', '--json'], { cwd: p.dir });
      await cli(['doctor', '--json'], { cwd: p.dir });
      expect(marked()).toBe('');
      expect(expected('interpreter-project-script', 'bwrap')).toBe('refused');
    } finally {
      p.cleanup();
    }
  }, 60_000);

  it('a shipped .toolbox/envs/<id>/ (marker file and all) is not the tool’s interpreter, and never runs', async () => {
    const p = project({
      ...TOOL,
      '.toolbox/envs/t/bin/python3': fakePython,
      '.toolbox/envs/t/pyvenv.cfg': 'home = /usr/bin\n',
      '.toolbox/envs/t/toolbox-env.json': '{"id":"t","nonce":"0123456789abcdef"}\n',
      'tool_registry/t.yaml': contract(
        't',
        'python_function',
        '{ module: my_tools.t, function: f }',
        'requires: { python: ["python>=3"] }',
      ),
    });
    try {
      chmodSync(join(p.dir, '.toolbox/envs/t/bin/python3'), 0o755);
      const run = await cli(['run', 't', '--json'], { cwd: p.dir });
      expect([run.code, run.json?.result]).toEqual([0, 42]);
      const deps = await cli(['deps', '--json'], { cwd: p.dir });
      expect(deps.json.tools[0].interpreter).not.toContain('.toolbox');
      await cli(['doctor', '--json'], { cwd: p.dir });
      expect(marked()).toBe('');
      expect(expected('interpreter-planted-env', 'bwrap')).toBe('blocked');
    } finally {
      p.cleanup();
    }
  }, 60_000);

  it.each(tiers)(
    'on tier %s, a project venv’s .pth file runs only in the sandbox when `deps` checks it',
    async (tier) => {
      const p = project({ ...TOOL });
      try {
        // A real venv (its python a link to the real interpreter) whose site-packages holds a .pth line.
        const venv = join(p.dir, '.venv');
        mkdirSync(join(venv, 'bin'), { recursive: true });
        symlinkSync(realPython, join(venv, 'bin', 'python3'));
        writeFileSync(
          join(venv, 'pyvenv.cfg'),
          `home = ${join(realPython, '..')}\ninclude-system-site-packages = false\n`,
        );
        const ver = execFileSync(realPython, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
          encoding: 'utf8',
        }).trim();
        const site = join(venv, 'lib', `python${ver}`, 'site-packages');
        mkdirSync(site, { recursive: true });
        writeFileSync(join(site, 'evil.pth'), `import os; open(${JSON.stringify(mark)}, "a").write("pth ran\\n")\n`);
        p.write(
          'tool_registry/t.yaml',
          contract(
            't',
            'python_function',
            '{ module: my_tools.t, function: f, python: .venv }',
            'requires: { python: ["six"] }',
          ),
        );
        const deps = await runOn(tier, p.dir, ['deps', '--json']);
        expect(deps.json.tools[0].requirements.find((r: { name: string }) => r.name === 'six').status).toBe('missing');
        if (expected('interpreter-venv-pth', tier) === 'blocked') expect(marked()).toBe('');
        else expect(marked()).toContain('pth ran');
      } finally {
        p.cleanup();
      }
    },
    60_000,
  );
});

describe('item 2: requires.bins probes run no project file and take no flags from the contract', () => {
  it('a version_flag that is code is a contract error, and nothing runs', async () => {
    const p = project({
      ...TOOL,
      'tool_registry/t.yaml': contract(
        't',
        'python_function',
        '{ module: my_tools.t, function: f }',
        `requires:\n  bins:\n    - { name: python3, version: ">=3", version_flag: "-c__import__('os').system('touch ${mark}')" }\n`,
      ),
    });
    try {
      const v = await cli(['validate', '--json'], { cwd: p.dir });
      expect(v.code).toBe(1);
      expect(JSON.stringify(v.json)).toContain('version_flag');
      await cli(['deps', '--json'], { cwd: p.dir });
      await cli(['run', 't', '--json'], { cwd: p.dir });
      expect(marked()).toBe('');
      expect(expected('bins-version-flag', 'bwrap')).toBe('refused');
    } finally {
      p.cleanup();
    }
  }, 60_000);

  it('a ./path program (or one on PATH inside the project) is checked for existence only', async () => {
    const p = project({
      ...TOOL,
      'tools/fake': `#!/bin/sh\necho "$0 $*" >> ${mark}\necho fake 9.9.9\n`,
      'tool_registry/t.yaml': contract(
        't',
        'python_function',
        '{ module: my_tools.t, function: f }',
        'requires:\n  bins:\n    - { name: ./tools/fake, version: ">=1" }\n    - { name: fake, version: ">=1" }\n',
      ),
    });
    try {
      chmodSync(join(p.dir, 'tools/fake'), 0o755);
      const deps = await cli(['deps', '--json'], {
        cwd: p.dir,
        env: { PATH: `${join(p.dir, 'tools')}:${process.env.PATH}` },
      });
      const rows = deps.json.tools[0].requirements.filter((r: { kind: string }) => r.kind === 'bin');
      expect(rows.map((r: { status: string }) => r.status)).toEqual(['ok', 'ok']);
      expect(rows[0].detail).toMatch(/version not checked/);
      expect(marked()).toBe('');
      expect(expected('bins-project-program', 'bwrap')).toBe('blocked');
    } finally {
      p.cleanup();
    }
  }, 60_000);
});
