// A reaper for a long-lived process that starts sandboxes (the daemon): a small detached process
// that outlives it and, once it has ended (even by SIGKILL), kills whatever sandboxed process it
// left behind. bwrap's --die-with-parent covers a running sandbox; the reaper covers one caught in
// its setup, before bwrap has set its parent-death signal. It is a POSIX shell (~2 MB, not a
// second Node process): it blocks reading its stdin, whose other end only the daemon holds, and
// at EOF kills every live process whose environment carries the daemon's owner tag (marked.ts),
// again until a round finds none.
import { spawnHost } from '../util/host-process.js';
import { randomBytes } from 'node:crypto';
import { setMarkerOwner } from './marked.js';

// It runs with the trusted system PATH (host-process.ts), so a grep or sleep early on the user's
// PATH is never what it runs. First a self-test of what the sweep needs (GNU grep's -z on
// /proc/<pid>/environ, a sleep that takes fractions), answered on stdout: "on", or "off <code> <why>"
// and exit. A reaper that could not kill anything says so, and `daemon status` shows it, rather
// than standing guard for nothing.
/** The reaper's shell script (exported for its self-test's tests). */
export const REAPER_SCRIPT = `
if ! grep -lsFz -e "TOOLBOX_REAPER_PROBE=$1" "/proc/$$/environ" >/dev/null 2>&1; then
  echo "off grep_z grep -z cannot read /proc/<pid>/environ (GNU grep and a mounted /proc are needed)"; exit 0
fi
if ! sleep 0.02 2>/dev/null; then
  echo "off sleep_fraction sleep does not accept fractions of a second"; exit 0
fi
echo on
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

/** Whether the reaper stands guard; when not, a stable code and why (`daemon status` shows both). */
export interface ReaperState {
  on: boolean;
  pid?: number;
  /** starting | no_shell | grep_z | sleep_fraction | ended */
  code?: string;
  reason?: string;
}

/** A started reaper: `stop()` when the process ends cleanly (it then sweeps once and exits). */
export interface Reaper {
  tag: string;
  pid: number | undefined;
  state(): ReaperState;
  /** Resolves once its self-test has answered (or it could not start). */
  ready: Promise<ReaperState>;
  stop(): void;
}

/** Start this process's reaper. When it cannot work here, its state says why (the sandbox still dies with us). */
export function startReaper(env: NodeJS.ProcessEnv = process.env): Reaper {
  const tag = randomBytes(8).toString('hex');
  let state: ReaperState = { on: false, code: 'starting', reason: 'its self-test has not answered yet' };
  let settle!: (s: ReaperState) => void;
  const ready = new Promise<ReaperState>((r) => (settle = r));
  const set = (s: ReaperState) => {
    state = s;
    settle(s);
  };
  let child;
  try {
    child = spawnHost('sh', ['-c', REAPER_SCRIPT, 'toolbox-reaper', tag], {
      detached: true, // its own session: a signal to our process group does not take it down with us
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...env, TOOLBOX_REAPER_PROBE: tag },
      cwd: '/',
    });
  } catch (e) {
    set({ on: false, code: 'no_shell', reason: (e as Error).message });
    return { tag, pid: undefined, state: () => state, ready, stop: () => {} };
  }
  child.on('error', (e) => set({ on: false, code: 'no_shell', reason: `cannot start /bin/sh: ${e.message}` }));
  const ended = (how: string) => set({ on: false, code: 'ended', reason: `the reaper process ended (${how})` });
  child.on('exit', (code, signal) => {
    if (state.on) ended(signal ?? `exit ${code}`); // before its answer, its stdout decides (below)
  });
  if (child.pid !== undefined && child.stdin && child.stdout) {
    child.stdin.on('error', () => {});
    let line = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      line += d;
      const nl = line.indexOf('\n');
      if (nl < 0) return;
      const [word, code, ...why] = line.slice(0, nl).split(' ');
      set(word === 'on' ? { on: true, pid: child.pid } : { on: false, code, reason: why.join(' ') });
      child.stdout!.destroy(); // nothing more comes, and it must not keep us alive
    });
    child.stdout.on('close', () => {
      if (state.code === 'starting') ended('before its self-test answered');
    });
    // Our end of its stdin is the only one (close-on-exec: no sandbox inherits it), so it closes
    // exactly when we end. Neither keeps us alive.
    (child.stdin as unknown as { unref(): void }).unref();
    (child.stdout as unknown as { unref(): void }).unref();
    setMarkerOwner(tag);
  }
  child.unref();
  return { tag, pid: child.pid, state: () => state, ready, stop: () => child.stdin?.end() };
}
