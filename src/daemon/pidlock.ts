// The daemon's pid file: who serves a project (for `status` and `stop`), and the lock itself only
// where no kernel lock exists (lock.ts; not Linux). As a lock, taking it is atomic (link(2) of a
// complete temp file fails when the pid file exists), and so is removing a stale one (rename it aside
// under a unique name, then check that what was moved is the very file judged stale). Two starters
// never both win; three or more next to a stale file can, rarely: a starter that judged the old file
// stale may move a fresh lock aside just as a third links its own (docs/daemon.md).
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileIdent, unlinkQuiet } from '../util/fs.js';
import { processRuns, procStat } from '../util/proc.js';
import { unsafeEntry } from './paths.js';

/**
 * A process's identity on Linux: its start time (field 22 of /proc/<pid>/stat, in clock ticks since
 * boot). A pid is reused after a daemon dies (SIGKILL, OOM, reboot with a persistent cache folder);
 * pid plus start time is not, so a stale pid file never makes us signal or wait for a stranger.
 * Undefined for a zombie (killed, never reaped: it no longer runs) or a process that is gone.
 */
export function startTime(pid: number): string | undefined {
  const fields = procStat(pid);
  return !fields || fields[0] === 'Z' ? undefined : fields[19];
}

const hasProc = () => existsSync('/proc/self/stat');

// Without /proc (not Linux), only kill(0) can tell, and a reused pid cannot be told apart.
const alive = (pid: number, started: string | undefined) => {
  if (hasProc()) return started !== undefined && startTime(pid) === started;
  return processRuns(pid);
};

const readQuiet = (f: string) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return undefined;
  }
};

/** The live pid a pid file's text names, or undefined. */
function holder(text: string | undefined): number | undefined {
  const [p, started] = (text ?? '').trim().split(' ');
  const pid = Number(p);
  return Number.isInteger(pid) && pid > 0 && alive(pid, started) ? pid : undefined;
}

/** The pid a daemon's pid file names, if the file is ours and that process lives. */
export function livePid(pidFile: string): number | undefined {
  if (unsafeEntry(pidFile, 'file')) return undefined;
  return holder(readQuiet(pidFile));
}

/** Take the pid file for this process. False when a live daemon holds it (or it is not ours to remove). */
export function takeLock(pidFile: string): boolean {
  const unique = () => `${pidFile}.${process.pid}.${randomBytes(6).toString('hex')}`;
  const tmp = unique();
  writeFileSync(tmp, `${process.pid} ${startTime(process.pid) ?? ''}\n`, { flag: 'wx', mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        linkSync(tmp, pidFile); // atomic: fails when any pid file exists
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const seen = fileIdent(pidFile);
      const text = readQuiet(pidFile);
      if (seen === undefined || text === undefined) continue; // removed meanwhile: try again
      if (holder(text) !== undefined) return false;
      if (unsafeEntry(pidFile, 'file')) return false;
      // A daemon that died without cleaning up (SIGKILL) left it. Move it aside, then make sure the
      // moved file is the one judged stale: another starter may have replaced it with its own lock.
      const aside = unique();
      try {
        renameSync(pidFile, aside);
      } catch {
        continue;
      }
      if (fileIdent(aside) !== seen || readQuiet(aside) !== text) {
        // Someone's fresh lock: put it back (link: never over a newer one) and let the next round decide.
        try {
          linkSync(aside, pidFile);
        } catch {
          /* a newer one is there */
        }
      }
      unlinkQuiet(aside);
    }
    return false;
  } finally {
    unlinkQuiet(tmp);
  }
}

/** Whether the pid file still is this process's (a serving daemon checks it and stops when it lost it). */
export function holdsLock(pidFile: string): boolean {
  return holder(readQuiet(pidFile)) === process.pid;
}
