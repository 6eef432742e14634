// Through the daemon (warm workers per caller environment), an edit of a tool's module or of a
// helper module beside it is picked up by the next `toolbox run`: the same output as directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli } from '../helpers.js';
import { FRESH_STEPS, freshProject } from '../fixtures/tools/fresh.js';

const p = freshProject();
const runtimeDir = mkdtempSync(join(tmpdir(), 'toolbox-xdg-')); // mode 0700
const tb = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnCli(argv, { cwd: p.dir, env: { XDG_RUNTIME_DIR: runtimeDir, ...env } });

beforeAll(async () => {
  expect((await tb(['daemon', 'start', '--json', '--idle', '5m'])).code).toBe(0);
}, 30_000);
afterAll(async () => {
  await tb(['daemon', 'stop', '--json']);
  p.cleanup();
  rmSync(runtimeDir, { recursive: true, force: true });
}, 30_000);

describe('toolbox daemon: edited code is picked up by the next call', () => {
  it('Python and Node tools, the module and a helper beside it; the same text as directly', async () => {
    for (const step of FRESH_STEPS) {
      if (step.edit) p.edit(...step.edit);
      for (const [id, want] of [
        ['fresh_py', step.py],
        ['fresh_js', step.js],
      ] as const) {
        const via = await tb(['run', id, '--verbose']);
        expect({ edit: step.edit, id, code: via.code, out: via.stdout }).toEqual({
          edit: step.edit,
          id,
          code: 0,
          out: `${want}\n`,
        });
        expect(via.stderr).toMatch(/answered by the daemon/);
        const direct = await tb(['run', id], { TOOLBOX_DAEMON: 'off' });
        expect(direct.stdout).toBe(via.stdout);
      }
    }
  }, 120_000);
});
