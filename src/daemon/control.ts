// Talking to a project's daemon from `toolbox daemon start|stop|status|restart`.
import { connect } from 'node:net';
import { parseDuration } from '../util/duration.js';
import { packageVersion } from '../util/version.js';
import { DEFAULT_IDLE_MS, LOCK_BUSY_EXIT, livePid } from './lifecycle.js';
import { daemonPaths, prepareDir, unsafeDir, unsafeEntry, userSettings, type DaemonPaths } from './paths.js';
import { spawnDaemon } from './spawn.js';
import type { DaemonStatus } from './server.js';

/** The idle timeout from the user's daemon.json (`idleTimeout: "30m"`), else the default. */
export function idleFromSettings(env: NodeJS.ProcessEnv): number {
  const idle = userSettings(env).idle;
  return (idle === undefined ? undefined : parseDuration(idle)) ?? DEFAULT_IDLE_MS;
}

/** The daemon files of the project a command line is about (--registry / --config as given). */
export function projectPaths(env: NodeJS.ProcessEnv, cwd: string, o: { registry?: string; config?: string }) {
  const argv = [...(o.config ? ['--config', o.config] : []), ...(o.registry ? ['--registry', o.registry] : [])];
  return daemonPaths(env, cwd, argv, packageVersion());
}

/** One request/answer exchange with a daemon; undefined when none answers. */
function ask(paths: DaemonPaths, op: 'status' | 'stop'): Promise<Record<string, unknown> | undefined> {
  if (unsafeDir(paths.dir) || unsafeEntry(paths.socket, 'socket')) return Promise.resolve(undefined);
  return askSocket(paths.socket, op);
}

/** One control request (`status`, `stop`) on a daemon socket, unchecked; undefined when nothing answers. */
export function askSocket(socket: string, op: string): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const s = connect(socket);
    let buf = '';
    const timer = setTimeout(() => (s.destroy(), resolve(undefined)), 3000);
    s.setEncoding('utf8');
    s.on('connect', () => s.write(JSON.stringify({ op }) + '\n'));
    s.on('data', (d: string) => (buf += d));
    s.on('error', () => (clearTimeout(timer), resolve(undefined)));
    s.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buf.split('\n')[0]!) as Record<string, unknown>);
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** The running daemon's status, or undefined when none runs for this project. */
export async function daemonStatus(paths: DaemonPaths): Promise<DaemonStatus | undefined> {
  const r = await ask(paths, 'status');
  if (r?.t !== 'status') return undefined;
  const { t: _t, ...status } = r;
  return status as unknown as DaemonStatus;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stop the project's daemon; resolves to its pid, or undefined when none ran. */
export async function stopDaemon(paths: DaemonPaths): Promise<number | undefined> {
  const r = await ask(paths, 'stop');
  const pid = typeof r?.pid === 'number' ? r.pid : livePid(paths);
  if (pid === undefined) return undefined;
  if (!r) process.kill(pid, 'SIGTERM'); // no answer on the socket: our pid file names it
  for (let i = 0; i < 200 && livePid(paths) === pid; i++) await sleep(50);
  return pid;
}

/** Why a daemon could not be started, as a value (the command turns it into an error). */
export interface StartProblem {
  problem: string;
  /** The daemon did not start because something that is no daemon of this project holds its lock. */
  lockHeld?: boolean;
}

/** Start the project's daemon in the background (detached, no terminal) and wait until it answers. */
export async function startDaemon(
  paths: DaemonPaths,
  o: { idleMs: number; env: NodeJS.ProcessEnv },
): Promise<DaemonStatus | StartProblem> {
  const bad = prepareDir(paths.dir);
  if (bad) return { problem: bad };
  const child = spawnDaemon(paths, { env: o.env, idleMs: o.idleMs });
  for (let i = 0; i < 200; i++) {
    const st = await daemonStatus(paths);
    if (st) return st;
    const exited = child.exitCode();
    if (exited) {
      const lockHeld = exited === LOCK_BUSY_EXIT;
      return { problem: `the daemon exited with code ${exited} before answering (see ${paths.log})`, lockHeld };
    }
    await sleep(50);
  }
  return { problem: `the daemon did not answer within 10 s (see ${paths.log})` };
}
