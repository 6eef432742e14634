// Hostile test of the daemon's project lock. Several daemons of one project start at the same instant
// next to a stale pid file (what a SIGKILLed daemon leaves), round after round, released together by a
// file barrier once each has loaded its code. Every round: exactly one of them ever serves, and it is the
// one whose status answers on the socket and whom the pid file names; every other one exits at once
// (code 0: another daemon serves); the winner is stopped by nothing but our `stop`; afterwards the
// socket folder is empty (no orphan socket, pid file or temp file).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askSocket as ask } from '../../src/daemon/control.js';
import { lockName } from '../../src/daemon/lock.js';
import { pathsFor } from '../../src/daemon/paths.js';
import { ExitCode } from '../../src/errors.js';
import { REPO } from '../helpers.js';
import { marker as sandboxMarker } from '../sandbox/helpers.js';
import { daemonProject } from './helpers.js';

const RACERS = 4;
const ROUNDS = 30;
// A pid above any pid_max: the process it names is gone, so the file is stale.
const STALE = '999999999 12345\n';

// A hostile scheduler: each racer stalls for 0-3 ms (a seeded pseudo-random choice per call) before
// every rename, link and unlink of a file, as a process preempted at the worst moment would. That widens
// the windows between a lock's check and its use from microseconds to milliseconds, so interleavings a
// loaded machine produces rarely show up in a few rounds. syncBuiltinESMExports makes the ES named
// exports that the daemon's code imports (import { renameSync } from 'node:fs') see the wrappers.
const racer = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const [dir, me, rounds, marker] = process.argv.slice(1);
let seed = 7 + 131 * Number(me);
const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const nap = new Int32Array(new SharedArrayBuffer(4));
for (const name of ['renameSync', 'linkSync', 'unlinkSync']) {
  const real = fs[name];
  fs[name] = (...args) => (Atomics.wait(nap, 0, 0, Math.floor(rand() * 4)), real(...args));
}
syncBuiltinESMExports();
const { existsSync, renameSync, writeFileSync } = fs;
const { serveDaemon } = await import(${JSON.stringify(join(REPO, 'dist/daemon/lifecycle.js'))});
process.setMaxListeners(0); // serveDaemon adds its signal handlers once per round
for (let r = 0; r < Number(rounds); r++) {
  writeFileSync(dir + '/ready.' + r + '.' + me, '');
  while (!existsSync(dir + '/go.' + r)) {}
  process.stderr.write('round ' + r + '\\n');
  const code = await serveDaemon({ marker, idleMs: 60000, handle: async () => 0 });
  writeFileSync(dir + '/tmp.' + me, String(code));
  renameSync(dir + '/tmp.' + me, dir + '/res.' + r + '.' + me); // complete when seen
}
`;

const dirs: string[] = [];
const tempDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `toolbox-${name}-`)); // mode 0700
  dirs.push(d);
  return d;
};
const kids: ChildProcess[] = [];
afterAll(() => {
  for (const k of kids) if (k.exitCode === null) k.kill('SIGKILL');
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(ok: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(5)) if (ok()) return true;
  return ok();
}

describe('daemon project lock', () => {
  it(`${RACERS} daemons starting at once next to a stale pid file: exactly one serves, every round`, async () => {
    const work = tempDir('race');
    const runtime = tempDir('xdg');
    const marker = join(work, 'tool_registry');
    mkdirSync(marker);
    const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    const paths = pathsFor(env, marker, version);
    mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
    const logs: string[] = [];
    const pids: number[] = [];
    for (let me = 0; me < RACERS; me++) {
      const k = spawn(
        process.execPath,
        ['--input-type=module', '-e', racer, work, String(me), String(ROUNDS), marker],
        {
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      kids.push(k);
      pids.push(k.pid!);
      logs.push('');
      k.stderr!.on('data', (d) => (logs[me] += d));
    }
    const res = (r: number, me: number) => join(work, `res.${r}.${me}`);
    const bad: string[] = [];
    for (let r = 0; r < ROUNDS && !bad.length; r++) {
      const all = [...Array(RACERS).keys()];
      if (!(await until(() => all.every((me) => existsSync(join(work, `ready.${r}.${me}`))), 20_000))) {
        bad.push(`round ${r}: racers not ready (${logs.join(' | ')})`);
        break;
      }
      writeFileSync(paths.pid, STALE, { mode: 0o600 });
      writeFileSync(join(work, `go.${r}`), '');
      await until(() => all.filter((me) => existsSync(res(r, me))).length >= RACERS - 1, 10_000);
      const exited = all.filter((me) => existsSync(res(r, me)));
      const codes = exited.map((me) => readFileSync(res(r, me), 'utf8'));
      const winner = all.find((me) => !exited.includes(me));
      // Losers exit once the winner holds the lock; it may not listen yet.
      let status: Record<string, unknown> | undefined;
      for (const end = Date.now() + 10_000; !status && Date.now() < end; await sleep(20))
        status = await ask(paths.socket, 'status');
      const since = (me: number) => logs[me]!.split(`round ${r}\n`)[1] ?? '';
      // stderr arrives through a pipe, maybe after the socket's answer
      if (winner !== undefined) await until(() => since(winner).includes(' serving '), 2000);
      const pidFile = existsSync(paths.pid) ? Number(readFileSync(paths.pid, 'utf8').split(' ')[0]) : undefined;
      const served = all.filter((me) => since(me).includes(' serving '));
      const seen = { exited: exited.length, codes, served, status: status?.pid, pidFile };
      const want = {
        exited: RACERS - 1,
        codes: codes.map(() => '0'),
        served: [winner],
        status: pids[winner!],
        pidFile,
      };
      if (winner === undefined || JSON.stringify(seen) !== JSON.stringify({ ...want, pidFile: pids[winner] })) {
        bad.push(`round ${r}: ${JSON.stringify(seen)}, racer pids ${JSON.stringify(pids)}`);
        break;
      }
      await ask(paths.socket, 'stop');
      if (!(await until(() => existsSync(res(r, winner)), 10_000))) bad.push(`round ${r}: the winner did not stop`);
      await until(() => / stopped\n/.test(since(winner)), 2000);
      const stopped = /stopping: (.*)/.exec(since(winner))?.[1];
      if (stopped !== 'stop requested') bad.push(`round ${r}: the winner stopped on its own (${stopped})`);
      const left = readdirSync(paths.dir);
      if (left.length) bad.push(`round ${r}: left in the socket folder: ${left.join(', ')}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);
});

describe('a squatted daemon lock', () => {
  // Abstract socket names are visible to every local user (/proc/net/unix): anyone can bind a
  // project's lock name first. That must only cost the speed-up, never serve a request or make the CLI wait.
  it('daemon start fails at once with daemon_lock_held; TOOLBOX_DAEMON=on runs directly', async () => {
    const p = daemonProject(sandboxMarker());
    const squatter = createServer((s) => s.destroy());
    try {
      const socket = (JSON.parse((await p.tb(['daemon', 'status', '--json'])).stdout) as { socket: string }).socket;
      await new Promise<void>((r) => squatter.listen(lockName(socket.replace(/\.sock$/, '.pid')), r));
      const start = await p.tb(['daemon', 'start', '--json']);
      expect(start.code).toBe(ExitCode.registry);
      expect((JSON.parse(start.stderr) as { error: { code: string } }).error.code).toBe('daemon_lock_held');
      const argv = ['select', 'add two integers', '--json'];
      const direct = await p.tb(argv, { env: { TOOLBOX_DAEMON: 'off' } });
      const on = await p.tb(argv, { env: { TOOLBOX_DAEMON: 'on' } });
      expect({ code: on.code, stdout: on.stdout }).toEqual({ code: 0, stdout: direct.stdout });
      expect(JSON.parse(direct.stdout)).toMatchObject({ results: [{ id: 'add' }] });
      expect(existsSync(socket)).toBe(false); // nothing serves, nothing was left
      expect((JSON.parse((await p.tb(['daemon', 'status', '--json'])).stdout) as { running: boolean }).running).toBe(
        false,
      );
    } finally {
      squatter.close();
      await p.cleanup();
    }
  }, 60_000);
});
