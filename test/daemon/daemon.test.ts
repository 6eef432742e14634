// The resident daemon through the real binary: start/status/stop, the same bytes as the direct
// path, the client's env and cwd, freshness, concurrency, Ctrl+C, and a daemon killed mid-call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ExitCode } from '../../src/errors.js';
import { BIN, tempProject } from '../helpers.js';
import { marker, processesWith } from '../sandbox/helpers.js';
import { ADD, daemonProject } from './helpers.js';
import { createServer } from 'node:net';
import { startTime } from '../../src/daemon/pidlock.js';

const mark = marker();
const p = daemonProject(mark);
const OFF = { TOOLBOX_DAEMON: 'off' };
const describeProcess = (pid: number) => {
  try {
    const st = readFileSync(`/proc/${pid}/status`, 'utf8');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(-120);
    return `${pid} ${/^State:\s+(.*)$/m.exec(st)?.[1]} ppid ${/^PPid:\s+(\d+)/m.exec(st)?.[1]} ${cmd}`;
  } catch {
    return `${pid} gone`;
  }
};
const isShell = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('/usr/bin/sh\0');
  } catch {
    return false;
  }
};
const waitFor = async (cond: () => boolean, ms = 15_000) => {
  for (let t = 0; t < ms && !cond(); t += 50) await new Promise((r) => setTimeout(r, 50));
  return cond();
};

beforeAll(async () => {
  const r = await p.tb(['daemon', 'start', '--json', '--idle', '5m']);
  expect(r.code).toBe(0);
}, 30_000);
afterAll(() => p.cleanup(), 30_000);

describe('toolbox daemon', () => {
  it('status --json names pid, project, socket, uptime, idle timeout, requests and index size', async () => {
    const st = await p.status();
    expect(st).toMatchObject({ action: 'status', running: true, idleTimeoutMs: 300_000, tools: 3 });
    expect(st.pid).toBeTypeOf('number');
    expect(st.project).toBe(join(p.dir, 'tool_registry'));
    expect(st.socket.startsWith(join(p.runtimeDir, 'toolbox') + '/')).toBe(true);
    expect(Buffer.byteLength(st.socket)).toBeLessThan(108);
    expect(st.requests).toBeTypeOf('number');
    // A second start finds the running one.
    const again = JSON.parse((await p.tb(['daemon', 'start', '--json'])).stdout);
    expect(again.pid).toBe(st.pid);
  });

  it('select prints the same bytes and exit codes through the daemon as directly', async () => {
    const before = (await p.status()).requests as number;
    const cases = [
      ['select', 'add two numbers'],
      ['select', 'add two numbers', '--json'],
      ['select', 'sum', '--format', 'openai', '-k', '2'],
      ['select', '   '],
      ['select', 'x', '--top', 'zero', '--json'],
    ];
    for (const argv of cases) {
      const direct = await p.tb(argv, { env: OFF });
      const via = await p.tb(argv);
      expect({ argv, ...via }).toEqual({ argv, ...direct });
    }
    expect((await p.status()).requests).toBe(before + cases.length);
  });

  it('--verbose says whether the daemon answered; an unknown TOOLBOX_DAEMON value is a usage error', async () => {
    const st = await p.status();
    const via = await p.tb(['select', 'add two numbers', '--verbose']);
    expect(via.code).toBe(0);
    expect(via.stderr).toContain(`toolbox: answered by the daemon (pid ${st.pid}`);
    const off = await p.tb(['select', 'add two numbers', '--verbose'], { env: OFF });
    expect(off.stderr).toMatch(/toolbox: not using the daemon: the daemon is off \(TOOLBOX_DAEMON\)/);
    expect(off.stderr).not.toContain('answered by the daemon');
    // Another project, with no daemon: said too.
    const lone = tempProject({ 'tool_registry/add.yaml': ADD });
    try {
      const other = await p.tb(['select', 'add two numbers', '--verbose'], { cwd: lone.dir });
      expect(other.stderr).toMatch(/not using the daemon: no daemon runs for this project/);
    } finally {
      lone.cleanup();
    }
    // Without --verbose: nothing about the daemon.
    expect((await p.tb(['select', 'add two numbers'])).stderr).toBe('');
    for (const argv of [
      ['select', 'add'],
      ['run', 'add', '--a', '1', '--b', '2'],
      ['daemon', 'status'],
    ]) {
      for (const json of [false, true]) {
        const r = await p.tb([...argv, ...(json ? ['--json'] : [])], { env: { TOOLBOX_DAEMON: 'yes' } });
        expect({ argv, json, code: r.code, stdout: r.stdout }).toEqual({
          argv,
          json,
          code: ExitCode.usage,
          stdout: '',
        });
        if (json) expect(JSON.parse(r.stderr).error.code).toBe('invalid_daemon_mode');
        else expect(r.stderr).toMatch(/TOOLBOX_DAEMON="yes" is not a daemon mode/);
      }
    }
  });

  it('on a terminal: the same colours and table width through the daemon (the client decides them)', async () => {
    const before = (await p.status()).requests as number;
    // The interpreter itself: a pyenv shim would change the environment (PYENV_VERSION) of what it starts.
    const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    const onTty = (daemonMode: string) => {
      const log = join(p.dir, `tty-${daemonMode}.log`);
      const code = execFileSync(
        python,
        [join(import.meta.dirname, '../e2e/pty-driver.py'), '[]', process.execPath, BIN, 'select', 'add two numbers'],
        {
          cwd: p.dir,
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            TERM: 'xterm-256color',
            PTY_SIZE: '24x44',
            PTY_LOG: log,
            TOOLBOX_DAEMON: daemonMode,
            ...p.env,
          },
        },
      );
      return { code: Number(code.trim()), out: readFileSync(log, 'utf8') };
    };
    const direct = onTty('off');
    const via = onTty('auto');
    expect(via).toEqual(direct);
    expect(direct.out).toContain('\x1b['); // coloured
    // The table is fitted to the client's 44 columns (the tokens line below it is prose, not fitted).
    const rows = direct.out
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split(/\r?\n/)
      .filter((l) => /^\s*(#|\d)\s/.test(l));
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) expect(r.trimEnd().length).toBeLessThanOrEqual(44);
    expect((await p.status()).requests).toBe(before + 1);
  }, 60_000);

  it('run prints the same bytes through the daemon, also with arguments on stdin and in a file', async () => {
    const before = (await p.status()).requests as number;
    for (const [argv, input] of [
      [['run', 'add', '--a', '2', '--b', '3'], undefined],
      [['run', 'add'], '{"a": 4, "b": 5}'],
      [['run', 'add', '--a', 'x', '--b', '1', '--json'], undefined],
      [['run', 'nosuchtool'], undefined],
    ] as const) {
      const direct = await p.tb([...argv], { env: OFF, input });
      const via = await p.tb([...argv], { input });
      expect({ argv, ...via }).toEqual({ argv, ...direct });
    }
    expect((await p.status()).requests).toBe(before + 4);
    // --args-file is read from the CLIENT's folder, not the daemon's.
    p.write('sub/args.json', '{"a": 20, "b": 22}');
    const r = await p.tb(['run', 'add', '--args-file', 'args.json'], { cwd: join(p.dir, 'sub') });
    expect(r).toMatchObject({ code: 0, stdout: '42\n' });
    expect((await p.status()).requests).toBe(before + 5);
  }, 60_000);

  it("a tool sees the calling client's environment, never the daemon's or another client's", async () => {
    const before = (await p.status()).requests as number;
    const calls = ['one', 'two', 'three', 'one', 'two', 'three'].map((v) =>
      p.tb(['run', 'show_env'], { env: { DAEMON_TEST_VALUE: v } }).then((r) => [v, r.stdout.trim()]),
    );
    for (const [sent, seen] of await Promise.all(calls)) expect(seen).toBe(sent);
    expect((await p.tb(['run', 'show_env'])).stdout.trim()).toBe('<unset>');
    expect((await p.status()).requests).toBe(before + 7);
  }, 60_000);

  it('notices an added, edited and removed contract, and a config change, on the next request', async () => {
    const file = p.write(
      'tool_registry/zebra.yaml',
      'id: zebra_facts\nname: zebra\ndescription: Tells facts about zebras and their stripes.\n' +
        'schema: { type: object, properties: {} }\nloader: command\nloader_config:\n  argv: [echo, stripes]\n',
    );
    const top = async (q: string) => JSON.parse((await p.tb(['select', q, '--json', '-k', '1'])).stdout).results;
    expect((await top('zebra stripes'))[0].id).toBe('zebra_facts');
    writeFileSync(file, (await import('node:fs')).readFileSync(file, 'utf8').replace('zebras', 'okapis'));
    expect((await top('okapis'))[0]?.id).toBe('zebra_facts');
    expect((await p.tb(['run', 'zebra_facts'])).stdout).toBe('stripes\n');
    rmSync(file);
    expect((await top('zebra stripes'))[0]?.id).not.toBe('zebra_facts');
    expect((await p.tb(['run', 'zebra_facts'])).code).toBe(ExitCode.usage);
    // A project with a config file is another daemon (the config names it); editing the config reloads it.
    const config = join(p.dir, 'toolbox.config.yaml');
    writeFileSync(config, 'select:\n  top: 1\n');
    try {
      expect((await p.tb(['daemon', 'start', '--json'])).code).toBe(0);
      const before = (await p.status()).requests as number;
      const count = async () =>
        JSON.parse((await p.tb(['select', 'numbers sum environment', '--json'])).stdout).results.length;
      expect(await count()).toBe(1);
      writeFileSync(config, 'select:\n  top: 2\n');
      expect(await count()).toBe(2);
      expect((await p.status()).requests).toBe(before + 2);
    } finally {
      await p.tb(['daemon', 'stop']);
      rmSync(config);
    }
  }, 60_000);

  it("one client's slow call does not hold up another's select; concurrent clients get their own answers", async () => {
    const slow = spawn(process.execPath, [BIN, 'run', 'nap', '--json'], {
      cwd: p.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      expect(await waitFor(() => processesWith(mark).length > 0)).toBe(true);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          i % 2
            ? p.tb(['select', 'add two numbers', '--json', '-k', '1'])
            : p.tb(['run', 'add', '--a', String(i), '--b', '1']),
        ),
      );
      answers.forEach((r, i) =>
        i % 2 ? expect(JSON.parse(r.stdout).results[0].id).toBe('add') : expect(r.stdout).toBe(`${i + 1}\n`),
      );
      expect(slow.exitCode).toBeNull(); // still napping: the others did not wait for it
      expect((await p.status()).active).toBe(1);
    } finally {
      slow.kill('SIGINT');
      await once(slow, 'exit');
      // The daemon ends the tool after the client left: the next test must not take this nap for its own.
      await waitFor(() => processesWith(mark).length === 0);
    }
  }, 60_000);

  it('Ctrl+C in the client cancels the call in the daemon and exits 130', async () => {
    const child = spawn(process.execPath, [BIN, 'run', 'nap', '--json'], {
      cwd: p.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(await waitFor(() => processesWith(mark).length > 0)).toBe(true);
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(ExitCode.cancelled);
    expect(await waitFor(() => processesWith(mark).length === 0)).toBe(true);
    expect((await p.status()).running).toBe(true);
  }, 60_000);

  it('a reader that goes away (EPIPE) is not an error through the daemon either: exit 0, no stack', async () => {
    const before = (await p.status()).requests as number;
    const child = spawn(process.execPath, [BIN, 'select', 'add two numbers', '--json'], {
      cwd: p.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    let served = before;
    for (let i = 0; i < 30 && served === before; i++) {
      await new Promise((r) => setTimeout(r, 100));
      served = (await p.status()).requests as number;
    }
    expect(served).toBe(before + 1); // it did go through the daemon
  }, 30_000);

  it('a write that fails for another reason (/dev/full) exits 74 through the daemon too, with one JSON error', async () => {
    const before = (await p.status()).requests as number;
    const full = openSync('/dev/full', 'w');
    let stderr = '';
    let code: number | null;
    try {
      const child = spawn(process.execPath, [BIN, 'select', 'add two numbers', '--json'], {
        cwd: p.dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
        stdio: ['ignore', full, 'pipe'],
      });
      child.stderr.on('data', (d) => (stderr += d));
      [code] = (await once(child, 'exit')) as [number | null];
    } finally {
      closeSync(full);
    }
    expect(code).toBe(ExitCode.output);
    expect(JSON.parse(stderr)).toMatchObject({ error: { code: 'output_failed' } });
    let served = before;
    for (let i = 0; i < 30 && served === before; i++) {
      await new Promise((r) => setTimeout(r, 100));
      served = (await p.status()).requests as number;
    }
    expect(served).toBe(before + 1); // it did go through the daemon
  }, 30_000);

  it('a daemon killed mid-run: the client exits 75 (daemon_lost) and the tool is not run again', async () => {
    const { pid } = await p.status();
    const child = spawn(process.execPath, [BIN, 'run', 'nap', '--json'], {
      cwd: p.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // Wait for the tool's own shell (the last process of the sandbox to start), then kill the daemon.
    const toolShell = () => processesWith(mark).some(isShell);
    expect(await waitFor(toolShell)).toBe(true);
    process.kill(pid, 'SIGKILL');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(ExitCode.daemonLost);
    expect(JSON.parse(stderr.trim().split('\n').pop()!).error.code).toBe('daemon_lost');
    expect(stdout).toBe(''); // no direct run after the loss
    // The tool dies with the daemon (bwrap --die-with-parent; the daemon's reaper for a sandbox caught
    // in its setup: test/daemon/sigkill.test.ts), and nothing of it starts again.
    await waitFor(() => processesWith(mark).length === 0, 4000);
    expect(processesWith(mark).map(describeProcess)).toEqual([]);
    // The next command finds a dead daemon's socket and takes the direct path; no client ever removes
    // the socket path (it could remove a fresh daemon's socket renamed into place meanwhile: review4 F5).
    const st = await p.status();
    expect(st.running).toBe(false);
    const stale = statSync(st.socket);
    const r = await p.tb(['select', 'add two numbers', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0].id).toBe('add');
    expect(statSync(st.socket).ino).toBe(stale.ino);
    // TOOLBOX_DAEMON=on starts a new daemon, whose socket replaces the dead one, and is served by it.
    const on = await p.tb(['select', 'add two numbers', '--json'], { env: { TOOLBOX_DAEMON: 'on' } });
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout).results[0].id).toBe('add');
    const now = await p.status();
    expect(now).toMatchObject({ running: true, requests: 1 });
    expect(statSync(st.socket).ino).not.toBe(stale.ino); // for the tests after this one: a daemon runs
  }, 60_000);

  it('stop removes the socket and pid file; restart brings it back; start rejects a bad --idle', async () => {
    const st = await p.status();
    const stop = JSON.parse((await p.tb(['daemon', 'stop', '--json'])).stdout);
    expect(stop).toMatchObject({ action: 'stop', running: false, stopped: st.pid });
    expect(existsSync(st.socket)).toBe(false);
    expect(existsSync(st.socket.replace(/\.sock$/, '.pid'))).toBe(false);
    const re = JSON.parse((await p.tb(['daemon', 'restart', '--json', '--idle', '1m'])).stdout);
    expect(re).toMatchObject({ running: true, idleTimeoutMs: 60_000 });
    // SIGTERM: a clean stop that removes the socket and pid file too.
    process.kill(re.pid, 'SIGTERM');
    expect(await waitFor(() => !existsSync(re.socket) && !existsSync(re.socket.replace(/\.sock$/, '.pid')))).toBe(true);
    expect((await p.status()).running).toBe(false);
    const bad = await p.tb(['daemon', 'start', '--idle', 'soon', '--json']);
    expect(bad.code).toBe(ExitCode.usage);
    expect(JSON.parse(bad.stderr).error.code).toBe('invalid_duration');
    const unknown = await p.tb(['daemon', 'pause', '--json']);
    expect(JSON.parse(unknown.stderr).error.code).toBe('invalid_action');
  }, 60_000);

  // Only the lock's holder writes the pid file and the socket (test/daemon/race.test.ts races starters).
  // One whose pid file or socket someone else replaced anyway must stop by itself rather than stay
  // unreachable until its idle timeout, and must not remove what is not its own.
  it('a daemon whose pid file names another live process stops by itself and leaves that file alone', async () => {
    await p.tb(['daemon', 'stop']);
    const st = JSON.parse((await p.tb(['daemon', 'start', '--json'])).stdout);
    const pidFile = st.socket.replace(/\.sock$/, '.pid');
    const other = `${process.pid} ${startTime(process.pid)}\n`; // this test process: alive, not the daemon
    writeFileSync(pidFile, other);
    try {
      expect(await waitFor(() => startTime(st.pid) === undefined, 10_000)).toBe(true);
      expect(existsSync(st.socket)).toBe(false); // its own socket, removed
      expect(readFileSync(pidFile, 'utf8')).toBe(other); // not its lock: kept
    } finally {
      rmSync(pidFile, { force: true }); // else `daemon stop` would signal this process
    }
  }, 30_000);

  it('a daemon whose socket path another process took over stops by itself and leaves that socket', async () => {
    const st = JSON.parse((await p.tb(['daemon', 'start', '--json'])).stdout);
    expect(st.running).toBe(true);
    rmSync(st.socket);
    const other = createServer(() => {});
    await new Promise<void>((r) => other.listen(st.socket, r));
    try {
      expect(await waitFor(() => startTime(st.pid) === undefined, 10_000)).toBe(true);
      expect(existsSync(st.socket.replace(/\.sock$/, '.pid'))).toBe(false); // its lock, released
      expect(existsSync(st.socket)).toBe(true); // the other process's socket, not unlinked
    } finally {
      other.close();
    }
  }, 30_000);

  it('stops by itself after the idle timeout and removes its socket', async () => {
    await p.tb(['daemon', 'stop']);
    const st = JSON.parse((await p.tb(['daemon', 'start', '--json', '--idle', '1s'])).stdout);
    expect(st.running).toBe(true);
    expect(await waitFor(() => !existsSync(st.socket), 10_000)).toBe(true);
    expect((await p.status()).running).toBe(false);
  }, 30_000);
});
