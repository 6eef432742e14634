// Resolving an interpreter never runs it on the host: pyenv shims are followed through their version
// files, a script named python3 is refused, and a venv's planted pyvenv.cfg binds nothing.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** resolveInterpreter(cmd) in a fresh process with `env`, from `cwd`: its answer, or its error code. */
function resolveIn(
  cwd: string,
  env: NodeJS.ProcessEnv,
  cmd = 'python3',
): { path?: string; code?: string; hint?: string } {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { resolveInterpreter } = await import(${JSON.stringify(`${REPO}/dist/sandbox/interpreter.js`)});
       try { console.log(JSON.stringify({ path: (await resolveInterpreter(${JSON.stringify(cmd)})).path })); }
       catch (e) { console.log(JSON.stringify({ code: e.code, hint: e.hint })); }`,
    ],
    { cwd, encoding: 'utf8', env },
  );
  return JSON.parse(out) as { path?: string; code?: string; hint?: string };
}

describe('pyenv shims and scripts', () => {
  const realPython = () =>
    execFileSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], {
      encoding: 'utf8',
    }).trim();

  it('follows a pyenv shim by its version files, never by running it', () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const real = realPython();
    const root = join(p.dir, 'pyenv');
    const mark = join(p.dir, 'RAN');
    mkdirSync(join(root, 'shims'), { recursive: true });
    mkdirSync(join(root, 'libexec'));
    for (const v of ['3.98.0', '3.99.1', '3.99.12']) {
      mkdirSync(join(root, 'versions', v, 'bin'), { recursive: true });
      symlinkSync(real, join(root, 'versions', v, 'bin', 'python3'));
    }
    writeFileSync(join(root, 'shims', 'python3'), `#!/bin/sh\ntouch ${mark}\nexec ${real} "$@"\n`);
    chmodSync(join(root, 'shims', 'python3'), 0o755);
    const sys = join(p.dir, 'sysbin');
    mkdirSync(sys);
    symlinkSync(real, join(sys, 'python3'));
    const env = { PATH: `${join(root, 'shims')}:${sys}:/usr/bin:/bin`, HOME: p.dir };
    const work = join(p.dir, 'w', 'deep');
    mkdirSync(work, { recursive: true });
    const v = (name: string) => join(root, 'versions', name, 'bin', 'python3');

    writeFileSync(join(root, 'version'), '3.98.0\n');
    expect(resolveIn(work, env).path).toBe(v('3.98.0')); // the global version file
    writeFileSync(join(p.dir, 'w', '.python-version'), '# pinned\n3.99\n');
    expect(resolveIn(work, env).path).toBe(v('3.99.12')); // nearest .python-version; a prefix takes the newest
    expect(resolveIn(work, { ...env, PYENV_VERSION: '3.99.1' }).path).toBe(v('3.99.1')); // the variable wins
    expect(resolveIn(work, { ...env, PYENV_VERSION: 'system' }).path).toBe(join(sys, 'python3')); // next on PATH
    expect(resolveIn(work, { ...env, PYENV_VERSION: '2.7' }).code).toBe('interpreter_not_found');
    expect(existsSync(mark)).toBe(false);
  });

  it('refuses a Python that is a script, without running it', () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const mark = join(p.dir, 'RAN');
    const bin = join(p.dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'python3'), `#!/bin/sh\ntouch ${mark}\nexec python3 "$@"\n`);
    chmodSync(join(bin, 'python3'), 0o755);
    expect(resolveIn(p.dir, { PATH: `${bin}:/usr/bin:/bin`, HOME: p.dir }).code).toBe('interpreter_not_found');
    const named = resolveIn(p.dir, { PATH: '/usr/bin:/bin', HOME: p.dir }, join(bin, 'python3'));
    expect(named.code).toBe('interpreter_not_found');
    // The hint says what to use instead, not to install the refused file.
    expect(named.hint).toContain('toolbox deps --install');
    expect(named.hint).not.toContain(join(bin, 'python3'));
    expect(existsSync(mark)).toBe(false);
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
