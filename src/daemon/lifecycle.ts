// A daemon process from start to end: the user's 0700 socket folder (made or checked), the pid
// file as a lock (one daemon per project), the socket, SIGTERM/SIGINT, idle stop, and cleanup.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { packageVersion } from '../util/version.js';
import { client, type DaemonPaths } from './paths.js';
import { DaemonServer, type Handler } from './server.js';

/** Ten minutes without a request in flight, unless the user says otherwise. */
export const DEFAULT_IDLE_MS = 10 * 60_000;

/** Make the user's socket folder (0700) if it is missing; why it cannot be used, or undefined. */
export function prepareDir(dir: string): string | undefined {
  const before = client.unsafeDir(dir);
  if (before !== 'missing') return before;
  try {
    // Parents as the user's umask makes them; the folder itself 0700 (mkdir's mode is masked, never widened).
    mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot create ${dir}: ${(e as Error).message}`;
  }
  return client.unsafeDir(dir);
}

/**
 * A process's identity on Linux: its start time (field 22 of /proc/<pid>/stat, in clock ticks since
 * boot). A pid is reused after a daemon dies (SIGKILL, OOM, reboot with a persistent cache folder);
 * pid plus start time is not, so a stale pid file never makes us signal or wait for a stranger.
 * Undefined for a zombie (killed, never reaped: it no longer runs) or a process that is gone.
 */
function startTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[0] === 'Z' ? undefined : fields[19];
}

const hasProc = () => existsSync('/proc/self/stat');

// Without /proc (not Linux), only kill(0) can tell, and a reused pid cannot be told apart.
const alive = (pid: number, started: string | undefined) => {
  if (hasProc()) return started !== undefined && startTime(pid) === started;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether something answers on `socket`. */
export function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(socket);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** The pid a daemon's pid file names, if the file is ours and that process lives. */
export function livePid(paths: DaemonPaths): number | undefined {
  if (client.unsafeEntry(paths.pid, 'file')) return undefined;
  const [p, started] = readFileSync(paths.pid, 'utf8').trim().split(' ');
  const pid = Number(p);
  return Number.isInteger(pid) && pid > 0 && alive(pid, started) ? pid : undefined;
}

/** Take the pid file (O_EXCL). False when another live daemon holds it. */
function lock(paths: DaemonPaths): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(paths.pid, 'wx', 0o600);
      writeSync(fd, `${process.pid} ${startTime(process.pid) ?? ''}\n`);
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (livePid(paths) !== undefined) return false;
      // A daemon that died without cleaning up (SIGKILL): its pid file is ours to remove.
      if (client.unsafeEntry(paths.pid, 'file')) return false;
      unlinkSync(paths.pid);
    }
  }
  return false;
}

/** Tools in the select index of the project `marker` names (what the next `select` would read). */
async function indexSize(marker: string): Promise<number> {
  const { resolveProject } = await import('../config.js');
  const { openIndex } = await import('../select/store.js');
  const isDir = statSync(marker, { throwIfNoEntry: false })?.isDirectory() ?? true;
  const project = resolveProject({ cwd: dirname(marker), ...(isDir ? { registry: marker } : { config: marker }) });
  return (await openIndex(project)).tools.length;
}

const unlinkQuiet = (f: string) => {
  try {
    unlinkSync(f);
  } catch {
    /* gone */
  }
};

/**
 * Serve the project named by `marker` until idle, stopped or signalled. Resolves to the process's
 * exit code: 0 after a clean stop, also when another daemon already serves this project.
 */
export async function serveDaemon(o: { marker: string; idleMs?: number; handle: Handler }): Promise<number> {
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} [${process.pid}] ${line}\n`);
  const version = packageVersion();
  const paths = client.pathsFor(process.env, o.marker, version);
  const bad = prepareDir(paths.dir);
  if (bad) {
    log(`not starting: ${bad}`);
    return 3;
  }
  process.umask(0o077); // the socket file is created 0600
  if (!lock(paths)) {
    log('another daemon serves this project');
    return 0;
  }
  // Our lock: a socket file left behind by a killed daemon is stale.
  if (!client.unsafeEntry(paths.socket, 'socket')) unlinkQuiet(paths.socket);
  const server = new DaemonServer({
    paths,
    version,
    idleMs: o.idleMs ?? DEFAULT_IDLE_MS,
    handle: o.handle,
    env: process.env,
    log,
    indexSize: () => indexSize(paths.marker),
  });
  const onSignal = (sig: string) => void server.close(sig);
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGHUP', () => {}); // detached: a closing terminal is no reason to stop
  try {
    await server.listen();
  } catch (e) {
    log(`cannot listen on ${paths.socket}: ${(e as Error).message}`);
    unlinkQuiet(paths.pid);
    return 3;
  }
  log(`serving ${paths.marker} on ${paths.socket} (toolbox ${version}, idle ${o.idleMs ?? DEFAULT_IDLE_MS} ms)`);
  await server.stopped;
  unlinkQuiet(paths.socket);
  unlinkQuiet(paths.pid);
  log('stopped');
  return 0;
}
