// A reaper for a long-lived process that starts sandboxes (the daemon): a small detached process
// that outlives it and, once it has ended (even by SIGKILL), kills whatever sandboxed process it
// left behind. bwrap's --die-with-parent covers a running sandbox; the reaper covers one caught in
// its setup, before bwrap has set its parent-death signal. It is a POSIX shell (~2 MB, not a
// second Node process): it blocks reading its stdin, whose other end only the daemon holds, and
// at EOF kills every live process whose environment carries the daemon's owner tag (marked.ts),
// again until a round finds none.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setMarkerOwner } from './marked.js';

const SCRIPT = `
while IFS= read -r _; do :; done
n=0
while [ "$n" -lt 50 ]; do
  hit=
  for e in $(grep -lsFz -e "TOOLBOX_SANDBOX_ID=$1." /proc/[0-9]*/environ); do
    p=\${e#/proc/}; p=\${p%/environ}
    [ "$p" = "$$" ] && continue
    s=; read -r s < "/proc/$p/stat" 2>/dev/null || continue
    s=\${s##*) }; s=\${s%% *}
    case "$s" in Z|X) continue ;; esac
    kill -9 "$p" 2>/dev/null && hit=1
  done
  [ -z "$hit" ] && [ "$n" -ge 2 ] && break
  n=$((n + 1))
  sleep 0.02
done
`;

/** A started reaper: `stop()` when the process ends cleanly (it then sweeps once and exits). */
export interface Reaper {
  tag: string;
  pid: number;
  stop(): void;
}

/** Start this process's reaper; undefined when it cannot be started (the sandbox still dies with us). */
export function startReaper(env: NodeJS.ProcessEnv = process.env): Reaper | undefined {
  const tag = randomBytes(8).toString('hex');
  const child = spawn('/bin/sh', ['-c', SCRIPT, 'toolbox-reaper', tag], {
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
