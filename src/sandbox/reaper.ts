// A reaper for a long-lived process that starts sandboxes (the daemon): a small detached process
// that outlives it and, once it has ended (even by SIGKILL), kills whatever sandboxed process it
// left behind. bwrap's --die-with-parent covers a running sandbox; the reaper covers one caught in
// its setup, before bwrap has set its parent-death signal.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { codePath } from '../util/assets.js';
import { setMarkerOwner } from './marked.js';

/** A started reaper: `stop()` when the process ends cleanly (it then sweeps once and exits). */
export interface Reaper {
  tag: string;
  pid: number;
  stop(): void;
}

/** Start this process's reaper; undefined when it cannot be started (the sandbox still dies with us). */
export function startReaper(env: NodeJS.ProcessEnv = process.env): Reaper | undefined {
  const tag = randomBytes(8).toString('hex');
  const child = spawn(process.execPath, [codePath('sandbox', 'reaper-main.js'), tag], {
    detached: true, // its own session: a signal to our process group does not take it down with us
    stdio: ['pipe', 'ignore', 'ignore'],
    env,
  });
  child.on('error', () => {});
  if (child.pid === undefined || !child.stdin) return undefined;
  child.stdin.on('error', () => {});
  // Our end of its stdin is the only one (close-on-exec: no sandbox inherits it), so it closes
  // exactly when we end. Neither keeps us alive.
  (child.stdin as unknown as { unref(): void }).unref();
  child.unref();
  setMarkerOwner(tag);
  return { tag, pid: child.pid, stop: () => child.stdin?.end() };
}
