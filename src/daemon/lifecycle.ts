// A daemon process from start to end: the user's 0700 socket folder (made or checked), the pid
// file as a lock (one daemon per project), the socket, SIGTERM/SIGINT, idle stop, and cleanup.
import { renameSync, statSync } from 'node:fs';
import { fileIdent, unlinkQuiet } from '../util/fs.js';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { packageVersion } from '../util/version.js';
import { pathsFor, prepareDir, unsafeEntry, type DaemonPaths } from './paths.js';
import { startReaper } from '../sandbox/reaper.js';
import { setResidentVerifier, spawnVerifier } from '../select/journal.js';
import { acquireLock } from './lock.js';
import { livePid as pidFileHolder } from './pidlock.js';
import { DaemonServer, type Handler } from './server.js';

/** Exit code of a daemon that did not start because something that is no daemon of ours holds its lock. */
export const LOCK_BUSY_EXIT = 75;

/** Ten minutes without a request in flight, unless the user says otherwise. */
export const DEFAULT_IDLE_MS = 10 * 60_000;

/**
 * How often a serving daemon checks that its socket path is still its socket (someone removed or
 * replaced it: the daemon is unreachable and stops instead of holding the project until its idle
 * timeout) and, where the pid file is the lock (no kernel lock), that the pid file still names it.
 */
export const SELF_CHECK_MS = 2000;

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

/**
 * Serve the project named by `marker` until idle, stopped or signalled. Resolves to the process's
 * exit code: 0 after a clean stop, also when another daemon already serves this project.
 */
export async function serveDaemon(o: { marker: string; idleMs?: number; handle: Handler }): Promise<number> {
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} [${process.pid}] ${line}\n`);
  const version = packageVersion();
  const paths = pathsFor(process.env, o.marker, version);
  const bad = prepareDir(paths.dir);
  if (bad) {
    log(`not starting: ${bad}`);
    return 3;
  }
  process.umask(0o077); // the socket file is created 0600
  const lock = await acquireLock(paths.pid);
  if (!('kind' in lock)) {
    if (lock.pid !== undefined) log(`another daemon (pid ${lock.pid}) serves this project`);
    else log(`not starting: the project's lock is held by a process that is no daemon of this project`);
    return lock.pid !== undefined ? 0 : LOCK_BUSY_EXIT;
  }
  const unsafe = unsafeEntry(paths.socket, 'socket');
  if (unsafe && unsafe !== 'missing') {
    log(`not starting: ${unsafe}`);
    lock.release();
    return 3;
  }
  // Sandboxes caught in their setup when this process is killed are the reaper's to end.
  const reaper = startReaper();
  const server = new DaemonServer({
    paths,
    version,
    idleMs: o.idleMs ?? DEFAULT_IDLE_MS,
    handle: o.handle,
    env: { ...process.env }, // a snapshot: read per request, and process.env is slow to enumerate
    log,
    indexSize: () => indexSize(paths.marker),
    reaper: () => reaper.state(),
  });
  void reaper.ready.then((st) => {
    if (!st.on) log(`reaper off (${st.code}): ${st.reason}; a sandbox caught in its setup may outlive a killed daemon`);
  });
  // The index check of a large registry runs here after the answer, not in a process per check; only
  // an update to make (something changed, or token counts to count) starts the verifier process.
  setResidentVerifier((project) =>
    server.afterAnswer(() => {
      void Promise.all([import('../select/store.js'), import('../registry/cache.js')])
        .then(async ([{ storedIndexExact }, { hasRegistryCache }]) => {
          // The process also writes a registry cache that a large registry's first build left to it.
          if (!(await storedIndexExact(project)) || !hasRegistryCache(project)) spawnVerifier(project);
        })
        .catch(() => spawnVerifier(project)); // the process reports nothing either; the next open does
    }),
  );
  const onSignal = (sig: string) => void server.close(sig);
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGHUP', () => {}); // detached: a closing terminal is no reason to stop
  // Listen on a name of our own, then rename the socket into place: clients never meet a socket that
  // does not accept yet, and closing the server later unlinks only that first name (libuv unlinks the
  // path it bound, whatever that path names by then), never the socket path, which we remove ourselves
  // below only while it is still our socket.
  const bindAt = `${paths.dir}/.${paths.hash}.s`;
  unlinkQuiet(bindAt); // left by a daemon of ours killed between listen and rename (we hold the lock)
  let bound: string | undefined;
  try {
    await server.listen(bindAt);
    renameSync(bindAt, paths.socket);
    bound = fileIdent(paths.socket);
  } catch (e) {
    log(`cannot listen on ${paths.socket}: ${(e as Error).message}`);
    await server.close('cannot listen');
    unlinkQuiet(bindAt);
    lock.release();
    reaper.stop();
    return 3;
  }
  const selfCheck = () => {
    const why = !lock.held()
      ? 'the pid file no longer names this daemon'
      : fileIdent(paths.socket) !== bound
        ? 'another process removed or replaced the socket'
        : undefined;
    if (why) void server.close(why);
  };
  selfCheck();
  const checker = setInterval(selfCheck, SELF_CHECK_MS);
  checker.unref();
  log(
    `serving ${paths.marker} on ${paths.socket} (toolbox ${version}, idle ${o.idleMs ?? DEFAULT_IDLE_MS} ms, ${lock.kind} lock)`,
  );
  await server.stopped;
  clearInterval(checker);
  if (bound !== undefined && fileIdent(paths.socket) === bound) unlinkQuiet(paths.socket);
  lock.release();
  reaper.stop();
  log('stopped');
  return 0;
}
