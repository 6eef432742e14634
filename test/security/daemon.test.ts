// Hostile cases for the resident daemon (docs/daemon.md): socket folders that are not safely the
// user's are never used or cleaned, project files cannot turn the daemon on, and a request is
// refused before anything runs unless the client commits to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonProject } from '../daemon/helpers.js';
import { marker, processesWith } from '../sandbox/helpers.js';

const mark = marker();
const p = daemonProject(mark);
const SELECT = ['select', 'add two numbers', '--json', '--verbose'];
let socket = '';
const requests = async () => (await p.status()).requests as number;
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
  socket = JSON.parse((await p.tb(['daemon', 'start', '--json'])).stdout).socket;
}, 30_000);
afterAll(() => p.cleanup(), 30_000);

/** One raw exchange on the daemon's socket: the lines it sent before closing (or `ms` passing). */
function raw(lines: unknown[], ms = 1500): Promise<Record<string, unknown>[]> {
  return new Promise((resolve) => {
    const s = connect(socket);
    let buf = '';
    s.setEncoding('utf8');
    s.on('connect', () => s.write(lines.map((l) => JSON.stringify(l) + '\n').join('')));
    s.on('data', (d: string) => (buf += d));
    const done = () =>
      resolve(
        buf
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
    s.on('close', done);
    setTimeout(() => s.destroy(), ms);
  });
}

describe('daemon socket folder', () => {
  it('group/other-accessible folder: not used, said under --verbose, nothing deleted', async () => {
    const dir = join(p.runtimeDir, 'toolbox');
    const before = await requests();
    chmodSync(dir, 0o777);
    try {
      const r = await p.tb(SELECT);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('not using the daemon');
      expect(existsSync(socket)).toBe(true);
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(await requests()).toBe(before);
    await p.tb(SELECT.slice(0, 3));
    expect(await requests()).toBe(before + 1); // the control: used again once safe
  });

  it('a symlinked socket folder is not used', async () => {
    const other = mkdtempSync(join(tmpdir(), 'toolbox-xdg-link-'));
    try {
      symlinkSync(join(p.runtimeDir, 'toolbox'), join(other, 'toolbox'));
      const before = await requests();
      const r = await p.tb(SELECT, { env: { XDG_RUNTIME_DIR: other, TOOLBOX_DAEMON: 'auto' } });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('symbolic link');
      expect(await requests()).toBe(before);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it.skipIf(!isRoot)(
    'a folder or socket owned by someone else is not used and not deleted (needs root to chown)',
    async () => {
      const dir = join(p.runtimeDir, 'toolbox');
      const before = await requests();
      for (const target of [dir, socket]) {
        chownSync(target, 65534, 65534);
        try {
          const r = await p.tb(SELECT);
          expect(r.code).toBe(0);
          expect(r.stderr).toContain('not to you');
          expect(existsSync(socket)).toBe(true);
        } finally {
          chownSync(target, 0, 0);
        }
      }
      expect(await requests()).toBe(before);
    },
  );
});

describe('who may turn the daemon on', () => {
  it('files in the project cannot; the user may, from their own config folder only', async () => {
    const q = daemonProject(marker());
    const config = mkdtempSync(join(tmpdir(), 'toolbox-xdgconf-'));
    try {
      for (const f of ['.toolbox/daemon.json', 'daemon.json', 'tool_registry/daemon.json'])
        q.write(f, '{"mode": "on"}');
      q.write('toolbox.config.yaml', 'select:\n  top: 3\n');
      expect((await q.tb(SELECT, { env: { XDG_CONFIG_HOME: config } })).code).toBe(0);
      expect(existsSync(join(q.runtimeDir, 'toolbox'))).toBe(false);
      // The user's file, but writable by others: ignored.
      mkdirSync(join(config, 'toolbox'), { mode: 0o700 });
      writeFileSync(join(config, 'toolbox', 'daemon.json'), '{"mode": "on"}');
      chmodSync(join(config, 'toolbox', 'daemon.json'), 0o666);
      expect((await q.tb(SELECT, { env: { XDG_CONFIG_HOME: config } })).code).toBe(0);
      expect(existsSync(join(q.runtimeDir, 'toolbox'))).toBe(false);
      // The user's own file: the daemon starts on demand and answers.
      chmodSync(join(config, 'toolbox', 'daemon.json'), 0o600);
      expect((await q.tb(SELECT, { env: { XDG_CONFIG_HOME: config } })).code).toBe(0);
      const st = await q.status();
      expect(st.running).toBe(true);
      expect(st.requests).toBe(1);
    } finally {
      await q.cleanup();
      rmSync(config, { recursive: true, force: true });
    }
  }, 30_000);

  it('TOOLBOX_DAEMON=off, another user config folder or a forced tier takes the direct path; another PATH does not', async () => {
    const before = await requests();
    expect((await p.tb(SELECT, { env: { TOOLBOX_DAEMON: 'off' } })).code).toBe(0);
    const other = mkdtempSync(join(tmpdir(), 'toolbox-other-config-'));
    try {
      for (const [env, said] of [
        [{ XDG_CONFIG_HOME: other }, 'user config folder (config.yaml, grants.yaml) differs'],
        [{ TOOLBOX_SANDBOX: 'none' }, 'TOOLBOX_SANDBOX differs'],
      ] as const) {
        const r = await p.tb(SELECT, { env });
        expect(r.code).toBe(0);
        expect(r.stderr).toContain(said);
        expect(r.stderr).not.toContain(other);
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect(await requests()).toBe(before);
    // A PATH with a folder in front that finds the same programs is served (daemon/caller.ts).
    const r = await p.tb(SELECT, { env: { PATH: `/nonexistent:${process.env.PATH}` } });
    expect(r.stderr).toContain('answered by the daemon');
    expect(await requests()).toBe(before + 1);
  });
});

describe('daemon protocol', () => {
  const call = (over: Record<string, unknown> = {}) => ({
    op: 'call',
    proto: 1,
    version: p.version(),
    argv: ['run', 'nap'],
    cwd: p.dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
    stdinTTY: false,
    out: { tty: false },
    err: { tty: false },
    ...over,
  });

  it('refuses another version, protocol, command or a malformed request before anything runs', async () => {
    const before = await requests();
    for (const bad of [
      { version: '9.9.9' },
      { proto: 2 },
      { argv: ['validate'] },
      { argv: 'run nap' },
      { cwd: 'relative' },
      { env: { PATH: 1 } },
      // A client naming another config folder (with other grants) is turned away, never served with it.
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env, XDG_CONFIG_HOME: '/nonexistent/config' } },
    ])
      expect((await raw([call(bad)]))[0]?.t).toBe('nack');
    expect(await requests()).toBe(before);
  });

  it('an acknowledged request that the client never commits (`go`) never runs', async () => {
    const before = await requests();
    const answer = await raw([call()], 1500);
    expect(answer.map((m) => m.t)).toEqual(['ack']);
    // A `run` that claims to be committed up front (only a select without a session may) waits for `go` too.
    const claimed = await raw([call({ go: true })], 1500);
    expect(claimed.map((m) => m.t)).toEqual(['ack']);
    expect(processesWith(mark)).toEqual([]);
    expect(await requests()).toBe(before);
    // The control: a plain select committed up front runs without `go`.
    const sel = await raw([call({ go: true, argv: ['select', 'add', '--json'] })], 5000);
    expect(sel.at(-1)).toEqual({ t: 'exit', code: 0 });
    expect(await requests()).toBe(before + 1);
  }, 20_000);
});

describe('a stale pid file (found in review)', () => {
  it('naming a live stranger (a reused pid): stop never signals it, and a new daemon still starts', async () => {
    const { spawn } = await import('node:child_process');
    expect((await p.tb(['daemon', 'stop', '--json'])).code).toBe(0);
    const pidFile = socket.replace(/\.sock$/, '.pid');
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      // What a SIGKILLed daemon leaves once its pid is reused: the pid is alive, but it is not the
      // process that wrote the file (no start time recorded, or another one).
      for (const content of [`${stranger.pid}\n`, `${stranger.pid} 1\n`]) {
        writeFileSync(pidFile, content, { mode: 0o600 });
        const stop = await p.tb(['daemon', 'stop', '--json']);
        expect(stop.code).toBe(0);
        await new Promise((r) => setTimeout(r, 300));
        expect({ code: stranger.exitCode, signal: stranger.signalCode }).toEqual({ code: null, signal: null });
      }
      const start = await p.tb(['daemon', 'start', '--json']);
      expect(start.code).toBe(0);
      const st = await p.status();
      expect(st.running).toBe(true);
      expect(st.pid).not.toBe(stranger.pid);
      expect((await p.tb(SELECT.slice(0, 3))).code).toBe(0);
      expect(await requests()).toBeGreaterThan(0); // the new daemon answers
    } finally {
      stranger.kill('SIGKILL');
    }
  }, 30_000);
});
