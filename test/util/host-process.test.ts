// The one module that starts host processes: programs by name from root-owned system folders only,
// toolbox's own Node, or an interpreter the user installed; nothing of a project, ever.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  asVenv,
  HOST_PATH,
  runHost,
  SELF,
  spawnHost,
  trustedBinary,
  trustInterpreter,
} from '../../src/util/host-process.js';
import { tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const root = process.getuid?.() === 0;
const realPython = execFileSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], {
  encoding: 'utf8',
}).trim();

describe('programs by name', () => {
  it('come from the root-owned system folders only, never from PATH or a path', async () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const mark = join(p.dir, 'RAN');
    writeFileSync(join(p.dir, 'sh'), `#!/bin/sh\ntouch ${mark}\n`);
    chmodSync(join(p.dir, 'sh'), 0o755);
    expect(trustedBinary('sh')).toMatch(/^\/(usr\/)?bin\/sh$/);
    for (const bad of ['./sh', join(p.dir, 'sh'), '../sh', '', 'no-such-program-here'])
      expect(trustedBinary(bad)).toBeUndefined();
    expect(() => spawnHost(join(p.dir, 'sh'), [], { env: {}, cwd: p.dir })).toThrow(
      expect.objectContaining({ code: 'host_program_untrusted' }),
    );
    const r = await runHost('sh', ['-c', 'echo "$PATH"'], { env: { PATH: `${p.dir}:/usr/bin` }, cwd: p.dir });
    expect([r.code, r.stdout.trim()]).toEqual([0, HOST_PATH]); // the program's own lookups see only system folders
    const viaPath = await runHost('sh', ['-c', 'sh -c true'], { env: { PATH: p.dir }, cwd: p.dir });
    expect(viaPath.code).toBe(0);
    const untrusted = await runHost(join(p.dir, 'sh'), [], { env: {}, cwd: p.dir });
    expect(untrusted.code).toBeNull();
    expect(untrusted.error).toMatch(/trusted system programs/);
    expect(existsSync(mark)).toBe(false);
  });

  it('keeps an absolute-only PATH or the exact one when asked', async () => {
    const env = { PATH: 'rel/bin:/opt/x/bin::/usr/bin' };
    const abs = await runHost('sh', ['-c', 'echo "$PATH"'], { env, cwd: '/', path: 'absolute' });
    expect(abs.stdout.trim()).toBe('/opt/x/bin:/usr/bin');
    const exact = await runHost('sh', ['-c', 'echo "$PATH"'], { env, cwd: '/', path: 'exact' });
    expect(exact.stdout.trim()).toBe(env.PATH);
  });

  it("starts toolbox's own Node as SELF, and reports timeouts and input", async () => {
    const r = await runHost(SELF, ['-e', 'process.stdin.pipe(process.stdout)'], { env: {}, cwd: '/', input: 'hi' });
    expect([r.code, r.stdout]).toEqual([0, 'hi']);
    const slow = await runHost(SELF, ['-e', 'setTimeout(() => {}, 10000)'], { env: {}, cwd: '/', timeoutMs: 200 });
    expect(slow.code).toBeNull();
    expect(slow.error).toMatch(/timed out/);
  });
});

describe('trustInterpreter', () => {
  it('accepts the real interpreter binary of a system or user install', () => {
    const t = trustInterpreter(realPython);
    expect(t?.path).toBe(realPython);
    if (existsSync('/usr/bin/python3')) expect(trustInterpreter('/usr/bin/python3')?.path).toMatch(/^\/usr\/bin\//);
  });

  it("refuses a project's copy of the binary, a symlink into the project, a script, a relative path", () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const bin = join(p.dir, '.venv', 'bin');
    mkdirSync(bin, { recursive: true });
    copyFileSync(realPython, join(bin, 'python3'));
    chmodSync(join(bin, 'python3'), 0o755);
    writeFileSync(join(bin, 'script'), '#!/bin/sh\necho hi\n');
    chmodSync(join(bin, 'script'), 0o755);
    symlinkSync(join(bin, 'python3'), join(p.dir, 'py-link'));
    // As root a project is root-owned too: being root-owned is not what makes a binary trusted.
    if (root) expect(trustInterpreter(join(bin, 'python3'))).toBeUndefined();
    expect(trustInterpreter(join(bin, 'python3'), { HOME: p.dir, PYENV_ROOT: p.dir })).toBeUndefined();
    expect(trustInterpreter(join(p.dir, 'py-link'))).toBeUndefined();
    expect(trustInterpreter(join(bin, 'script'))).toBeUndefined();
    expect(trustInterpreter('python3')).toBeUndefined();
  });

  it('runs isolated (-I): a module planted in the working folder is not imported', async () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const mark = join(p.dir, 'RAN');
    writeFileSync(join(p.dir, 'json.py'), `open(${JSON.stringify(mark)}, "w").write("x")\n`);
    const r = await runHost(trustInterpreter(realPython)!, ['-c', 'import json, sys; print(sys.flags.isolated)'], {
      env: { PYTHONPATH: p.dir },
      cwd: p.dir,
    });
    expect([r.code, r.stdout.trim()]).toEqual([0, '1']);
    expect(existsSync(mark)).toBe(false);
  });

  it('acts as the Python of a venv made from it (asVenv)', async () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const venv = join(p.dir, 'env');
    const t = trustInterpreter(realPython)!;
    const made = await runHost(t, ['-m', 'venv', '--without-pip', venv], { env: {}, cwd: p.dir, timeoutMs: 60_000 });
    expect(made.code).toBe(0);
    const r = await runHost(asVenv(t, venv), ['-c', 'import sys; print(sys.prefix)'], { env: {}, cwd: p.dir });
    expect(r.stdout.trim()).toBe(venv);
  }, 60_000);
});
