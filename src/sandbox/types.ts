/**
 * The sandbox API every loader uses to start tool code. Implemented in src/sandbox/index.ts.
 * Nothing outside src/sandbox/ spawns tool code any other way.
 */

import type { ProjectBinds } from '../util/binds.js';

/** Which isolation mechanism is in force (strongest first). */
export type SandboxTier = 'bwrap' | 'unshare' | 'none';

/** What the tier in force isolates on this machine, probed once and cached. */
export interface SandboxInfo {
  tier: SandboxTier;
  /**
   * filesystem: only the system, the bound paths and the work dir are visible; network: no network
   * unless the policy opens it; processes: the tool's process tree lives in its own pid namespace and
   * dies with it; syscalls: seccomp filter; uidDrop: runs under a per-call uid (as root);
   * processLimit: RLIMIT_NPROC is really enforced; resourceLimits: cpu/memory/file size/open files.
   */
  isolates: {
    filesystem: boolean;
    network: boolean;
    processes: boolean;
    syscalls: boolean;
    uidDrop: boolean;
    processLimit: boolean;
    resourceLimits: boolean;
  };
  /** Human warnings to show on every run when isolation is weaker than the policy asks. */
  warnings: string[];
  /** Why a stronger tier is not available (e.g. "bwrap not installed"). */
  reasons: string[];
  /** The mechanism's version when known (e.g. "bubblewrap 0.8.0"). */
  version?: string;
}

/** Limits after applying contract `sandbox` values over the defaults. Sizes in bytes. */
export interface ResolvedLimits {
  timeoutMs: number;
  cpuSeconds: number;
  memoryBytes: number;
  processes: number;
  fileSizeBytes: number;
  openFiles: number;
  outputBytes: number;
}

/** One sandboxed process to start. */
export interface SandboxSpec {
  command: string;
  args: string[];
  /** The complete environment inside (already filtered to the contract's allow-list). */
  env: Record<string, string>;
  /**
   * Host paths toolbox itself chose, made visible read-only at the same path: the runners, an
   * interpreter's install, `sandbox.paths` already checked against the user's grants.
   */
  readOnlyPaths: string[];
  /**
   * Paths taken from the project (the tool's folder, Node's package.json/node_modules walk, a venv,
   * a server package): bound read-only too, after the checks of util/binds.ts (every tier).
   */
  project?: ProjectBinds;
  /**
   * Open the network (default closed). Open means: the tool gets a network namespace of its own whose
   * only way out is toolbox's egress proxy (egress/); a tier without namespaces refuses to run it.
   */
  network: boolean;
  /**
   * With `network`: the egress proxy socket of this tool's policy (made from its sandbox.network and
   * the user's grants; without it, public hosts only) and who bridges it to a loopback port inside:
   * 'self' (the python/node runners do it in-process) or 'wrap' (toolbox's bridge runs the program).
   */
  egress?: { socket: string; bridge: 'self' | 'wrap' };
  limits: ResolvedLimits;
  /** Data written to the child's stdin (then closed). Omit for long-lived processes. */
  stdin?: string | Uint8Array;
  /**
   * Give the child a private pipe for its result, so the tool's own prints cannot corrupt it.
   * The fd number inside the child is in env TOOLBOX_RESULT_FD.
   */
  resultChannel?: boolean;
  signal?: AbortSignal;
}

/** Which limit stopped the process, if any. */
export type LimitHit = 'timeout' | 'cpu' | 'memory' | 'output' | 'file_size' | 'processes' | 'open_files';

export interface SandboxResult {
  exitCode: number | null;
  /** Signal that killed the tool (also decoded from bwrap's 128+N). */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** What the child wrote on the result channel. */
  result?: string;
  limit?: LimitHit;
  timedOut: boolean;
  durationMs: number;
  tier: SandboxTier;
  /** The per-call writable work dir (removed after the call). */
  workDir: string;
  /** The call was stopped through spec.signal (the tree is gone). */
  aborted?: boolean;
  /** Per-call isolation warnings (e.g. a bound path that kept the process limit off). */
  warnings?: string[];
}
