// Starting one wrapped process: per-call work dir and uid, the exact environment, the seccomp
// program on fd 3, the result pipe, and tearing the whole tree down.
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { procStat } from '../util/proc.js';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { spawnHost } from '../util/host-process.js';
import { isAlive, killMarked, markerNeedle, newMarker } from './marked.js';
import { buildSeccompFilter } from './seccomp.js';
import { wrapCommand, type Tools } from './wrap.js';
import { checkProjectBinds } from '../util/binds.js';
import type { SandboxSpec, SandboxTier } from './types.js';

const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';
/** Per-call uids come from a range no distribution hands out (far above subuid ranges too). */
const UID_BASE = 1_900_000_000;

/** A started child with what is needed to finish it. */
export interface Started {
  child: ChildProcess;
  tier: SandboxTier;
  workDir: string;
  /** The child's fd for the result channel (in stdio), when asked for. */
  resultFd?: number;
  warnings: string[];
  /** SIGKILL the whole tree (namespace, or process group + marked processes on tier none). */
  killTree(): void;
  /** Every pid killTree sent SIGKILL to (to wait until they are really gone). */
  killed: Set<number>;
  /** Remove the work dir. */
  cleanup(): void;
}

/** Filter the environment: loader variables would run code in setpriv/prlimit before the uid drop. */
function childEnv(spec: Pick<SandboxSpec, 'env'>, workDir: string): Record<string, string> {
  const env: Record<string, string> = { PATH: DEFAULT_PATH };
  for (const [k, v] of Object.entries(spec.env)) if (!k.startsWith('LD_') && typeof v === 'string') env[k] = v;
  // The call's scratch folder: writable, empty, removed after the call (runners in worker mode
  // give each call a folder of its own inside it). Documented for tools as TOOLBOX_SCRATCH.
  env.HOME = workDir;
  env.TMPDIR = workDir;
  env.TOOLBOX_SCRATCH = workDir;
  return env;
}

export { isAlive };

/** Resolve once none of `pids` is alive any more (SIGKILL is asynchronous), or after `maxMs`. */
export async function waitGone(pids: Iterable<number>, maxMs = 3000): Promise<void> {
  const list = [...pids];
  for (let waited = 0; waited < maxMs && list.some(isAlive); waited += 5) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Host pids of every descendant of `pid` (from the ppid links in /proc). Processes inside the
 * sandbox's pid namespace are listed here too, under their host pids.
 */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStat(name);
    if (!fields) continue; // exited meanwhile
    const ppid = Number(fields[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const out: number[] = [];
  for (let queue = [pid]; queue.length;) {
    const next = children.get(queue.pop()!) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

/** Start `spec` wrapped for `tier`. Stdio: stdin piped (or ignored), stdout/stderr piped. */
export function startWrapped(
  spec: Omit<SandboxSpec, 'stdin'> & { stdin?: unknown },
  tier: SandboxTier,
  tools: Tools,
  pipeStdin: boolean,
): Started {
  // The project's paths are checked before anything is made or started (sandbox_path_denied).
  const projectPaths = spec.project ? checkProjectBinds(spec.project, spec.network) : [];
  const workDir = mkdtempSync(join(tmpdir(), 'toolbox-run-'));
  const root = process.getuid?.() === 0;
  const uid = tier === 'bwrap' && root ? UID_BASE + randomInt(100_000_000) : undefined;
  const cleanup = () => {
    try {
      rmSync(workDir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      /* best effort */
    }
  };
  try {
    const wrapped = wrapCommand({
      tier,
      tools,
      command: spec.command,
      args: spec.args,
      readOnlyPaths: [...spec.readOnlyPaths, ...projectPaths],
      network: spec.network,
      ...(spec.egress ? { egressSocket: spec.egress.socket } : {}),
      limits: spec.limits,
      workDir,
      uid,
    });
    const env = childEnv(spec, workDir);
    const stdio: StdioOptions = [pipeStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'];
    if (wrapped.seccompFd) stdio.push('pipe');
    let resultFd: number | undefined;
    if (spec.resultChannel) {
      resultFd = stdio.length;
      stdio.push('pipe');
      env.TOOLBOX_RESULT_FD = String(resultFd);
    }
    // Every process of this call carries a marker in its environment: what killTree looks for to
    // catch processes that outlived their wrapper (a bwrap killed during its setup leaves its
    // namespace init behind; on tier none, setsid escapees). bwrap and unshare keep it out of the
    // tool's own environment (the wrappers themselves still carry it).
    const marker = newMarker();
    env.TOOLBOX_SANDBOX_ID = marker;
    // A new session (bwrap makes its own) so the tool has no controlling terminal to inject keys into.
    // By name, from the trusted system folders (the probe found the same files there).
    const child = spawnHost(basename(wrapped.file), wrapped.args, {
      cwd: workDir,
      env,
      stdio,
      detached: tier !== 'bwrap',
      path: 'exact',
    });
    if (wrapped.seccompFd) {
      const s = child.stdio[3] as NodeJS.WritableStream | null;
      s?.on('error', () => {});
      s?.end(buildSeccompFilter({ network: spec.network }));
    }
    child.stdin?.on('error', () => {
      /* the tool closed its stdin early */
    });
    const killed = new Set<number>();
    const kill = (p: number) => {
      try {
        process.kill(p, 'SIGKILL');
        killed.add(p);
      } catch {
        /* gone */
      }
    };
    const killTree = () => {
      const pid = child.pid;
      if (pid !== undefined && child.exitCode === null && child.signalCode === null) {
        // Freeze the wrapper so it cannot start anything new, then kill it and everything under it.
        // Killing only the wrapper is not enough: caught during its setup (before bwrap has set its
        // parent-death signal), the namespace's init would outlive it.
        try {
          process.kill(pid, 'SIGSTOP');
        } catch {
          /* gone */
        }
        const tree = descendants(pid);
        kill(pid);
        for (const d of tree) kill(d);
      }
      if (tier === 'none' && pid !== undefined) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* group gone */
        }
      }
      if (tier === 'none' || killed.size > 0) {
        for (let i = 0; i < 5 && killMarked(markerNeedle(marker), killed) > 0; i++) {
          /* until nothing is left */
        }
      }
    };
    return { child, tier, workDir, resultFd, warnings: wrapped.warnings, killTree, killed, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}
