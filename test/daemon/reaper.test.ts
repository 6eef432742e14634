// The daemon's reaper degrades loudly: where it cannot work (no GNU `grep -z`, a `sleep` without
// fractions) or once it was killed, `daemon status` says it is off, with a code and why, instead of
// standing guard for nothing.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { marker } from '../sandbox/helpers.js';
import { daemonProject } from './helpers.js';
import { REAPER_SCRIPT } from '../../src/sandbox/reaper.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A folder with one fake program, put first on PATH: `body` is its shell script. */
function fakeBin(name: string, body: string): string {
  const d = mkdtempSync(join(tmpdir(), 'toolbox-fakebin-'));
  dirs.push(d);
  writeFileSync(join(d, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(d, name), 0o755);
  return `${d}:${process.env.PATH}`;
}

type Reaper = { on: boolean; pid?: number; code?: string };

/** The reaper as `daemon status` reports it once its self-test answered. */
async function reaperOf(p: ReturnType<typeof daemonProject>, env: NodeJS.ProcessEnv = {}): Promise<Reaper> {
  for (let i = 0; i < 100; i++) {
    const st = JSON.parse((await p.tb(['daemon', 'status', '--json'], { env })).stdout) as { reaper?: Reaper };
    if (st.reaper?.code !== 'starting') return st.reaper!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the reaper never answered');
}

describe('the daemon reaper', () => {
  it('is on where it can work, and reported off once it was killed', async () => {
    const p = daemonProject(marker());
    try {
      expect((await p.tb(['daemon', 'start', '--json'])).code).toBe(0);
      const r = await reaperOf(p);
      expect(r).toMatchObject({ on: true, pid: expect.any(Number) });
      process.kill(r.pid!, 'SIGKILL');
      let after = r;
      for (let i = 0; i < 100 && after.on; i++) {
        await new Promise((res) => setTimeout(res, 50));
        after = await reaperOf(p);
      }
      expect(after).toMatchObject({ on: false, code: 'ended' });
      const human = await p.tb(['daemon', 'status']);
      expect(human.stdout).toMatch(/^ {2}reaper {3}off \(ended\): /m);
    } finally {
      await p.cleanup();
    }
  }, 60_000);

  it.each([
    ['grep', 'grep_z', 'exit 2'], // a grep without -z (busybox builds without it) rejects the option
    ['sleep', 'sleep_fraction', 'case "$1" in *.*) exit 1 ;; esac\nexec /bin/sleep "$@"'],
  ])('its self-test says off with a %s that lacks what it needs: %s', (name, code, body) => {
    // The script itself, on a PATH with the lacking program first (the daemon never runs it on such a
    // PATH: it gets the trusted system folders only).
    const r = spawnSync('/bin/sh', ['-c', REAPER_SCRIPT, 'toolbox-reaper', 'tag1'], {
      env: { PATH: fakeBin(name, body), TOOLBOX_REAPER_PROBE: 'tag1' },
      input: '',
      encoding: 'utf8',
    });
    expect(r.stdout.split(' ')[0]).toBe('off');
    expect(r.stdout.split(' ')[1]).toBe(code);
  });

  it("never runs a grep or sleep found early on the user's PATH", async () => {
    const p = daemonProject(marker());
    const touched = join(mkdtempSync(join(tmpdir(), 'toolbox-fakebin-mark-')), 'ran');
    dirs.push(dirname(touched));
    const env = { PATH: fakeBin('grep', `touch ${touched}; exit 2`) };
    try {
      expect((await p.tb(['daemon', 'start', '--json'], { env })).code).toBe(0);
      expect(await reaperOf(p, env)).toMatchObject({ on: true });
      expect(existsSync(touched)).toBe(false);
    } finally {
      await p.tb(['daemon', 'stop'], { env });
      await p.cleanup();
    }
  }, 60_000);
});
