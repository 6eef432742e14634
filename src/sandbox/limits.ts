// Default limits and the parsing of a contract's `sandbox` values ('256M', '500ms', ...).
import { ExitCode, ToolboxError } from '../errors.js';
import type { SandboxPolicy } from '../contract/types.js';
import type { ResolvedLimits } from './types.js';
import { parseDuration } from '../util/duration.js';

const MiB = 1024 * 1024;

/**
 * Limits applied when the contract says nothing. Memory is RLIMIT_DATA (heap + private writable
 * mappings), not RLIMIT_AS: V8 reserves large virtual ranges up front and fails under RLIMIT_AS.
 */
export const DEFAULT_LIMITS: Readonly<ResolvedLimits> = Object.freeze({
  timeoutMs: 30_000,
  cpuSeconds: 30,
  memoryBytes: 512 * MiB,
  processes: 64,
  fileSizeBytes: 16 * MiB,
  openFiles: 256,
  outputBytes: 1 * MiB,
});

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: MiB,
  mb: MiB,
  mib: MiB,
  g: 1024 * MiB,
  gb: 1024 * MiB,
  gib: 1024 * MiB,
};

/**
 * A size in bytes from a number (bytes) or a string such as '512KiB', '256M', '1G', '1.5g'.
 * Units are binary (K = 1024). Returns undefined when the value cannot be read.
 */
export function parseSize(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return bytes > 0 ? bytes : undefined;
}

function bad(field: string, value: unknown, expected: string): ToolboxError {
  return new ToolboxError('invalid_sandbox_value', `Invalid ${field} ${JSON.stringify(value)}: expected ${expected}`, {
    exitCode: ExitCode.registry,
    hint: `Fix \`${field}\` in the tool contract.`,
    details: { field },
  });
}

function positiveInt(field: string, value: unknown, min = 1): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw bad(field, value, `a number ≥ ${min}`);
  return Math.floor(value);
}

function size(field: string, value: number | string): number {
  const n = parseSize(value);
  if (n === undefined) throw bad(field, value, "bytes as a number, or a size such as '512KiB', '256M', '1G'");
  return n;
}

/**
 * Defaults overlaid with a contract's `sandbox` section and timeout. `overrideMs` (from the
 * `--timeout` flag, already parsed by the caller with requireDuration) wins over the contract.
 * Invalid contract values throw `invalid_sandbox_value` (exit 3: the contract is broken).
 * The CPU limit follows a raised timeout (a contract asking for 5 minutes wall time should not
 * be killed at 30 s of CPU) unless the contract sets `cpu` itself.
 */
export function resolveLimits(
  policy: SandboxPolicy | undefined,
  timeout: number | string | undefined,
  overrideMs?: number,
): ResolvedLimits {
  const limits: ResolvedLimits = { ...DEFAULT_LIMITS };
  if (timeout !== undefined) {
    const ms = parseDuration(timeout);
    if (ms === undefined)
      throw bad('timeout', timeout, "seconds as a number, or a duration such as '500ms', '10s', '2m'");
    limits.timeoutMs = ms;
  }
  if (overrideMs !== undefined) {
    if (!Number.isFinite(overrideMs) || overrideMs <= 0) {
      throw new ToolboxError('invalid_timeout', `Invalid timeout ${overrideMs}ms: expected a positive duration`, {
        exitCode: ExitCode.usage,
        hint: "Pass --timeout as seconds or a duration such as '500ms', '10s', '2m'.",
      });
    }
    limits.timeoutMs = Math.round(overrideMs);
  }
  limits.cpuSeconds = Math.max(DEFAULT_LIMITS.cpuSeconds, Math.ceil(limits.timeoutMs / 1000));
  if (!policy) return limits;
  if (policy.cpu !== undefined) {
    if (typeof policy.cpu !== 'number' || !(policy.cpu > 0)) throw bad('sandbox.cpu', policy.cpu, 'seconds > 0');
    limits.cpuSeconds = Math.max(1, Math.ceil(policy.cpu));
  }
  if (policy.memory !== undefined) limits.memoryBytes = size('sandbox.memory', policy.memory);
  if (policy.file_size !== undefined) limits.fileSizeBytes = size('sandbox.file_size', policy.file_size);
  if (policy.output !== undefined) limits.outputBytes = size('sandbox.output', policy.output);
  if (policy.processes !== undefined) limits.processes = positiveInt('sandbox.processes', policy.processes);
  if (policy.open_files !== undefined) limits.openFiles = positiveInt('sandbox.open_files', policy.open_files, 8);
  return limits;
}
