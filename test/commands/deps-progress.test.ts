// `deps --install` on a terminal shows a spinner with the current step (issue 38); nothing of it
// when piped or under --json; --verbose streams pip's own output. A real pty through script(1).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, tempProject } from '../helpers.js';
import { contract, makeWheel, PY_LOADER } from '../deps/fixtures.js';

let p: ReturnType<typeof tempProject>;
beforeAll(() => {
  p = tempProject({ 'pkg/__init__.py': '', 'pkg/mod.py': 'def run():\n    return 1\n' });
  makeWheel(join(p.dir, 'tool_registry', 'wheels'), 'tbxprog', '1.0.0');
  p.write(
    'tool_registry/t.yaml',
    contract('t', PY_LOADER, 'requires: { python: [./wheels/tbxprog-1.0.0-py3-none-any.whl] }'),
  );
});
afterAll(() => p.cleanup());

const onPty = (args: string, env: Record<string, string> = {}) =>
  spawnSync('script', ['-qec', `stty cols 120; ${process.execPath} ${BIN} ${args}`, '/dev/null'], {
    cwd: p.dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', ...env },
    timeout: 120_000,
  });

describe('deps --install progress', () => {
  it('on a terminal: a spinner naming the tool and its step', () => {
    const r = onPty('deps --install t');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('t: creating the venv');
    expect(r.stdout).toContain('t: pip install');
    expect(r.stdout).toMatch(/t: pip: .*(Processing|Installing|Successfully)/);
    expect(r.stdout).toContain('installed');
  }, 120_000);

  it('on a terminal with CI or NO_COLOR: no spinner', () => {
    for (const env of [{ CI: '1' }, { NO_COLOR: '1' }]) {
      const r = onPty('deps --install t', env);
      expect(r.status).toBe(0);
      expect(r.stdout).not.toContain('t: creating the venv');
    }
  }, 240_000);

  it('piped and --json: no spinner; --verbose streams pip to stderr, never into --json', async () => {
    const piped = await cli(['deps', '--install', 't'], { cwd: p.dir });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain('creating the venv');
    const verbose = await cli(['deps', '--install', 't', '--verbose'], { cwd: p.dir });
    expect(verbose.stderr).toMatch(/Successfully installed tbxprog-1\.0\.0/);
    const json = await cli(['deps', '--install', 't', '--json', '--verbose'], { cwd: p.dir });
    expect(json.json.install[0].status).toBe('installed');
    expect(json.stderr).not.toContain('Successfully installed');
  }, 240_000);
});
