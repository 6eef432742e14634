// A daemon process from start to end: the user's 0700 socket folder (made or checked), the pid
// file as a lock (one daemon per project), the socket, SIGTERM/SIGINT, idle stop, and cleanup.
import { mkdirSync, statSync, unlinkSync } from 'node:fs';
import { fileIdent } from '../util/fs.js';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { packageVersion } from '../util/version.js';
import { client, type DaemonPaths } from './paths.js';
import { startReaper } from '../sandbox/reaper.js';
import { holdsLock, livePid as pidFileHolder, takeLock } from './pidlock.js';
import { DaemonServer, type Handler } from './server.js';

/** Ten minutes without a request in flight, unless the user says otherwise. */
export const DEFAULT_IDLE_MS = 10 * 60_000;

/**
 * How often a serving daemon checks that the pid file still names it and that the socket path is still
 * its socket. Starters racing next to a stale pid file can, in a rare interleaving (three at once),
 * both believe they won; the one that lost the file, or whose socket another replaced, stops within
 * this interval instead of staying unreachable until its idle timeout.
 */
export const SELF_CHECK_MS = 2000;

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

/** Whether something answers on `socket`. */
export function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(socket);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** The pid a daemon's pid file names, if the file is ours and that process lives. */
export const livePid = (paths: DaemonPaths) => pidFileHolder(paths.pid);

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
  if (!takeLock(paths.pid)) {
    log('another daemon serves this project');
    return 0;
  }
  // Sandboxes caught in their setup when this process is killed are the reaper's to end.
  const reaper = startReaper();
  // Our lock: a socket file left behind by a killed daemon is stale.
  if (!client.unsafeEntry(paths.socket, 'socket')) unlinkQuiet(paths.socket);
  const server = new DaemonServer({
    paths,
    version,
    idleMs: o.idleMs ?? DEFAULT_IDLE_MS,
    handle: o.handle,
    env: { ...process.env }, // a snapshot: read per request, and process.env is slow to enumerate
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
    if (holdsLock(paths.pid)) unlinkQuiet(paths.pid);
    reaper?.stop();
    return 3;
  }
  const bound = fileIdent(paths.socket);
  const selfCheck = () => {
    const why = !holdsLock(paths.pid)
      ? 'the pid file no longer names this daemon'
      : fileIdent(paths.socket) !== bound
        ? 'another process replaced the socket'
        : undefined;
    if (why) void server.close(why);
  };
  selfCheck();
  const checker = setInterval(selfCheck, SELF_CHECK_MS);
  checker.unref();
  log(`serving ${paths.marker} on ${paths.socket} (toolbox ${version}, idle ${o.idleMs ?? DEFAULT_IDLE_MS} ms)`);
  await server.stopped;
  clearInterval(checker);
  // Closing the server has already unlinked the path (libuv does, whatever the path names by then:
  // see docs/daemon.md on a double start). This removes a socket file of ours that is still there.
  if (bound !== undefined && fileIdent(paths.socket) === bound) unlinkQuiet(paths.socket);
  if (holdsLock(paths.pid)) unlinkQuiet(paths.pid);
  reaper?.stop();
  log('stopped');
  return 0;
}
