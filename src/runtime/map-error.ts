import type { ResolvedLimits } from '../sandbox/types.js';
import { ExitCode, InternalError, ToolboxError } from '../errors.js';
import { isToolRunError } from '../sandbox/tool-run-error.js';

const mib = (b: number) =>
  b >= 1 << 30
    ? `${+(b / (1 << 30)).toFixed(1)}G`
    : b >= 1 << 20
      ? `${+(b / (1 << 20)).toFixed(1)}M`
      : `${Math.round(b / 1024)}K`;

/** How to raise each limit, and its current value, for the message. */
function limitText(limit: string, limits: ResolvedLimits | undefined): { what: string; raise: string } {
  const l = limits;
  switch (limit) {
    case 'cpu':
      return {
        what: `the CPU time limit${l ? ` (${l.cpuSeconds} s)` : ''}`,
        raise: 'raise `sandbox: { cpu: <seconds> }` in the contract',
      };
    case 'memory':
      return {
        what: `the memory limit${l ? ` (${mib(l.memoryBytes)})` : ''}`,
        raise: 'raise `sandbox: { memory: 1G }` in the contract',
      };
    case 'output':
      return {
        what: `the output limit${l ? ` (${mib(l.outputBytes)})` : ''}`,
        raise: 'raise `sandbox: { output: 8M }` in the contract, or make the tool return less',
      };
    case 'file_size':
      return {
        what: `the file size limit${l ? ` (${mib(l.fileSizeBytes)})` : ''}`,
        raise: 'raise `sandbox: { file_size: 64M }` in the contract',
      };
    case 'processes':
      return {
        what: `the process limit${l ? ` (${l.processes})` : ''}`,
        raise: 'raise `sandbox: { processes: <n> }` in the contract',
      };
    default:
      return { what: `a resource limit (${limit})`, raise: 'raise the matching `sandbox:` value in the contract' };
  }
}

/**
 * Turn whatever a loader or tool threw into the ToolboxError the caller sees:
 * tool errors exit 4 (traceback in details), limits exit 5 naming the limit and how to raise it,
 * an aborted call exit 130.
 */
export function mapCallError(
  e: unknown,
  id: string,
  opts: { aborted: boolean; limits?: ResolvedLimits },
): ToolboxError {
  if (opts.aborted)
    return new ToolboxError('cancelled', `call of tool '${id}' cancelled`, { exitCode: ExitCode.cancelled });
  if (e instanceof ToolboxError) return e;
  if (isToolRunError(e)) {
    const details: Record<string, unknown> = {};
    if (e.traceback) details.traceback = e.traceback;
    if (e.logs) details.logs = e.logs;
    if (e.rejected) details.rejected = true;
    if (e.kind === 'limit') {
      details.limit = e.limit ?? 'unknown';
      if (e.limit === 'timeout' || e.limit === undefined) {
        const secs = opts.limits ? ` after ${+(opts.limits.timeoutMs / 1000).toFixed(3)} s` : '';
        return new ToolboxError('tool_timeout', `tool '${id}' timed out${secs} and was stopped.`, {
          exitCode: ExitCode.limit,
          hint: 'Raise `timeout:` in the contract (seconds, or 500ms / 2m), `runtime.timeout` in toolbox.config.yaml, or pass --timeout 2m.',
          details,
        });
      }
      const t = limitText(e.limit, opts.limits);
      return new ToolboxError('tool_limit', `tool '${id}' hit ${t.what} and was stopped.`, {
        exitCode: ExitCode.limit,
        hint: `To allow more, ${t.raise}.`,
        details,
      });
    }
    return new ToolboxError('tool_failed', `tool '${id}' failed: ${e.message}`, {
      exitCode: ExitCode.toolFailed,
      hint: e.traceback ? 'Re-run with --verbose to see the traceback.' : undefined,
      details,
    });
  }
  if (e instanceof InternalError) {
    return new ToolboxError('internal_error', `internal error: ${e.message}`, {
      exitCode: 70,
      hint: 'This is a bug in toolbox. Re-run with --verbose for the stack and report it.',
      cause: e,
    });
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return new ToolboxError('tool_failed', `tool '${id}' failed: ${err.message}`, {
    exitCode: ExitCode.toolFailed,
    details: err.stack ? { traceback: err.stack } : undefined,
  });
}

/**
 * Whether an error counts against the tool's circuit breaker: only the tool's own faults (a crash,
 * a limit or timeout while it ran, an error it reported). Usage errors, refusals, cancellations and
 * arguments the tool rejected (details.rejected) are the caller's and never count.
 */
export function countsAsFailure(e: ToolboxError): boolean {
  if (e.code === 'circuit_open' || e.code === 'cancelled') return false;
  if (e.details?.rejected === true) return false;
  return e.exitCode === ExitCode.toolFailed || e.exitCode === ExitCode.limit;
}
