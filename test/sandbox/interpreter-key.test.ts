// The shim cache is keyed on what picks the interpreter (the shim, version variables and version
// files), not on the current folder: a new folder under the same version files reuses the answer.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('interpreter cache key', () => {
  it('is shared by folders with the same version files and differs when a .python-version appears', () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const real = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    const bin = join(p.dir, 'bin');
    mkdirSync(bin);
    // A shim as pyenv makes them: a script, so toolbox must run it once to learn the interpreter.
    writeFileSync(join(bin, 'python3'), `#!/bin/sh\nexec ${real} "$@"\n`);
    chmodSync(join(bin, 'python3'), 0o755);
    const cache = join(p.dir, 'cache');
    const resolveFrom = (cwd: string) =>
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { resolveInterpreter } = await import(${JSON.stringify(`${REPO}/dist/sandbox/interpreter.js`)});
           console.log((await resolveInterpreter('python3')).path);`,
        ],
        {
          cwd,
          encoding: 'utf8',
          env: { PATH: `${bin}:/usr/bin:/bin`, HOME: p.dir, XDG_CACHE_HOME: cache, PYENV_ROOT: join(p.dir, 'pyenv') },
        },
      ).trim();
    const keys = () =>
      Object.keys(JSON.parse(readFileSync(join(cache, 'toolbox', 'interpreters.json'), 'utf8')) as object);
    for (const d of ['a', 'b', 'c/d']) mkdirSync(join(p.dir, 'w', d), { recursive: true });
    expect(resolveFrom(join(p.dir, 'w', 'a'))).toContain('python');
    resolveFrom(join(p.dir, 'w', 'b'));
    resolveFrom(join(p.dir, 'w', 'c', 'd'));
    expect(keys()).toHaveLength(1);
    writeFileSync(join(p.dir, 'w', 'c', '.python-version'), '3\n');
    resolveFrom(join(p.dir, 'w', 'c', 'd'));
    expect(keys()).toHaveLength(2);
  });
});

describe('a venv on PATH', () => {
  it('binds the base install the interpreter really lives in, never a folder a planted pyvenv.cfg names', () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const real = execFileSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], {
      encoding: 'utf8',
    }).trim();
    const secret = join(p.dir, 'secret', 'bin');
    mkdirSync(secret, { recursive: true });
    const bin = join(p.dir, '.venv', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(real, join(bin, 'python3'));
    const resolveWith = (home: string) => {
      writeFileSync(join(p.dir, '.venv', 'pyvenv.cfg'), `home = ${home}\ninclude-system-site-packages = false\n`);
      const out = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { resolveInterpreter } = await import(${JSON.stringify(`${REPO}/dist/sandbox/interpreter.js`)});
           console.log(JSON.stringify((await resolveInterpreter('python3')).readOnlyPaths));`,
        ],
        {
          cwd: p.dir,
          encoding: 'utf8',
          env: { PATH: `${bin}:/usr/bin:/bin`, HOME: p.dir, XDG_CACHE_HOME: join(p.dir, 'c') },
        },
      );
      return JSON.parse(out) as string[];
    };
    const planted = resolveWith(secret);
    expect(planted.some((d) => d.startsWith(join(p.dir, 'secret')))).toBe(false);
    const honest = resolveWith(dirname(real));
    expect(honest.some((d) => d.startsWith(join(p.dir, 'secret')))).toBe(false);
    expect(honest).toContain(join(p.dir, '.venv'));
  });
});
