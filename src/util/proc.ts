// Facts about a process from /proc/<pid>/stat (Linux), read in one place.
import { readFileSync } from 'node:fs';

/**
 * The fields of /proc/<pid>/stat that follow the command name (state first, then ppid, …; the name
 * is in parentheses and may hold spaces). Undefined when the process is gone or there is no /proc.
 */
export function procStat(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether a process runs: kill(0) reaches it, and /proc (where there is one) says it is no zombie. */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  const state = procStat(pid)?.[0];
  return state === undefined || !/^[ZX]/.test(state); // no /proc: kill(0) said it runs
}
