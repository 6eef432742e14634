// One daemon per project, decided by a lock the kernel releases when its holder dies. On Linux that is
// an abstract Unix socket (a name, not a file) bound by the daemon: bind(2) either takes the name or
// fails with EADDRINUSE, atomically, and the name is freed when the process ends, even by SIGKILL.
// Nothing is ever judged stale, so no starter can take the lock from a live daemon and a live daemon
// is never told it lost it. The pid file is written only by the lock's holder, for `status`/`stop`.
// Elsewhere (no abstract sockets), the pid file itself is the lock (pidlock.ts), as before.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { unlinkQuiet, writeFileAtomic } from '../util/fs.js';
import { holdsLock, livePid, startTime, takeLock } from './pidlock.js';

/** A held project lock: `kernel` (abstract socket) or `file` (the pid file alone, where no kernel lock exists). */
export interface ProjectLock {
  kind: 'kernel' | 'file';
  /**
   * Whether the pid file still names this process. A kernel lock cannot be lost, and no starter then
   * touches a pid file it does not hold; one rewritten by hand (or by a daemon that does not take the
   * kernel lock) still means someone else claims the project, so the daemon stops either way.
   */
  held(): boolean;
  /** Remove our pid file and free the lock (the process ending frees a kernel lock as well). */
  release(): void;
}

/** Why the lock was not taken: a daemon of this project serves (`pid`), or an unknown process holds the name. */
export interface LockRefused {
  pid?: number;
}

/**
 * The abstract name of a pid file's lock. Abstract names are visible to every local user (/proc/net/unix),
 * so a secret would not stay one: another user who binds this name first only keeps the daemon from
 * starting (the CLI then runs directly); they never see a request, which only reaches the 0700 folder.
 */
export function lockName(pidFile: string): string {
  let where = pidFile;
  try {
    where = join(realpathSync(dirname(pidFile)), basename(pidFile));
  } catch {
    /* the folder is checked by the caller */
  }
  return `\0toolbox-lock-${createHash('sha256').update(where).digest('hex').slice(0, 32)}`;
}

function bindName(name: string): Promise<Server | 'busy' | 'unsupported'> {
  return new Promise((resolve) => {
    if (process.platform !== 'linux') return resolve('unsupported');
    const server = createServer((s) => s.destroy()); // holds the name; nobody is served on it
    server.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRINUSE' ? 'busy' : 'unsupported'));
    server.listen(name, () => {
      server.unref();
      resolve(server);
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Write the pid file as the lock's holder: a complete temp file renamed over whatever a dead daemon left. */
function writePidFile(pidFile: string): void {
  writeFileAtomic(pidFile, `${process.pid} ${startTime(process.pid) ?? ''}\n`, 0o600);
}

/**
 * Take the project's lock for this process, or say who holds it. A name held while no live daemon's
 * pid file appears within `graceMs` (its holder writes it right after binding) belongs to something
 * else: the caller must not wait for a daemon that will never answer.
 */
export async function acquireLock(pidFile: string, graceMs = 1000): Promise<ProjectLock | LockRefused> {
  const got = await bindName(lockName(pidFile));
  if (got === 'unsupported') {
    if (!takeLock(pidFile)) return { pid: livePid(pidFile) };
    const release = () => {
      if (holdsLock(pidFile)) unlinkQuiet(pidFile);
    };
    return { kind: 'file', held: () => holdsLock(pidFile), release };
  }
  if (got === 'busy') {
    for (const until = Date.now() + graceMs; ; await sleep(20)) {
      const pid = livePid(pidFile);
      if (pid !== undefined || Date.now() >= until) return { pid };
    }
  }
  // A live process named by the pid file while we hold the name is a daemon that does not take this
  // lock (an older build of the same version): it keeps the project.
  const other = livePid(pidFile);
  if (other !== undefined && other !== process.pid) {
    got.close();
    return { pid: other };
  }
  try {
    writePidFile(pidFile);
  } catch (e) {
    got.close();
    throw e;
  }
  return {
    kind: 'kernel',
    held: () => holdsLock(pidFile),
    release: () => {
      if (holdsLock(pidFile)) unlinkQuiet(pidFile);
      got.close();
    },
  };
}
