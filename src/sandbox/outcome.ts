// Turning how a sandboxed process ended into a signal name and the limit that stopped it.
import { constants } from 'node:os';
import type { LimitHit, ResolvedLimits, SandboxTier } from './types.js';

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, n]) => [n, name]));

/**
 * bwrap (and the `sh` we put at pid 1 under unshare) report a child killed by signal N as exit
 * code 128+N with no signal of their own: decode that back into a signal. A tool that really exits
 * with 129..192 is reported as killed by a signal; this cannot be told apart.
 */
export function decodeExit(
  tier: SandboxTier,
  code: number | null,
  signal: NodeJS.Signals | null,
): { exitCode: number | null; signal: string | null } {
  if (signal) return { exitCode: null, signal };
  if (tier !== 'none' && code !== null && code > 128 && code <= 128 + 64) {
    const name = SIGNAL_NAMES.get(code - 128);
    if (name) return { exitCode: null, signal: name };
  }
  return { exitCode: code, signal: null };
}

const MEMORY_PATTERNS = [
  /\bMemoryError\b/,
  /Cannot allocate memory/i,
  /\bENOMEM\b/,
  /out of memory/i,
  /bad_alloc/,
  /Reached heap limit/i,
  /Allocation failed/i,
  /memory allocation of \d+ bytes failed/i,
];
const FILE_SIZE_PATTERNS = [/File too large/i, /\bEFBIG\b/];
const PROCESS_PATTERNS = [
  /fork.*Resource temporarily unavailable/i,
  /Resource temporarily unavailable.*fork/i,
  /BlockingIOError: \[Errno 11\]/,
  /spawn .*EAGAIN/,
  /can't fork/i,
  /Cannot fork/i,
];

/**
 * Which limit most likely stopped the tool, from its exit and its stderr. Timeouts and output caps
 * are known for sure (we enforced them); the rest are inferred: SIGXCPU (or a SIGKILL we did not
 * send after at least the CPU limit in wall time) is the CPU limit, SIGXFSZ the file size limit,
 * and allocation / fork failures in stderr the memory and process limits.
 */
export function classifyLimit(o: {
  signal: string | null;
  exitCode: number | null;
  stderr: string;
  durationMs: number;
  limits: ResolvedLimits;
}): LimitHit | undefined {
  if (o.signal === 'SIGXCPU') return 'cpu';
  if (o.signal === 'SIGXFSZ') return 'file_size';
  if (o.signal === 'SIGKILL' && o.durationMs >= o.limits.cpuSeconds * 1000) return 'cpu';
  const tail = o.stderr.slice(-8192);
  // A fork bomb's parent often exits 0 after its copies failed to fork: still the process limit.
  if (PROCESS_PATTERNS.some((r) => r.test(tail))) return 'processes';
  if (o.exitCode === 0 && !o.signal) return undefined;
  if (MEMORY_PATTERNS.some((r) => r.test(tail))) return 'memory';
  if (FILE_SIZE_PATTERNS.some((r) => r.test(tail))) return 'file_size';
  return undefined;
}
