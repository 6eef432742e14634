import type { ResolvedLimits } from '../sandbox/types.js';
import { ExitCode, InternalError, ToolboxError } from '../errors.js';
import { isToolRunError } from '../sandbox/tool-run-error.js';
import { explainFailure, type CallFacts } from './refusal.js';

const firstLine = (s: string) => {
  const l = s.split('\n')[0] ?? '';
  return l.length > 200 ? `${l.slice(0, 200)}…` : l;
};

const mib = (b: number) =>
  b >= 1 << 30
    ? `${+(b / (1 << 30)).toFixed(1)}G`
    : b >= 1 << 20
      ? `${+(b / (1 << 20)).toFixed(1)}M`
      : `${Math.round(b / 1024)}K`;

/** Each limit: what it is, its value in force, the contract setting, and a value to raise it to. */
function limitText(limit: string, limits: ResolvedLimits | undefined): { what: string; raise: string } {
  const l = limits;
  const twice = (b: number) => mib(b * 2);
  switch (limit) {
    case 'cpu':
      return {
        what: `the CPU time limit${l ? ` (${l.cpuSeconds} s, sandbox.cpu)` : ' (sandbox.cpu)'}`,
        raise: `raise \`sandbox: { cpu: ${l ? l.cpuSeconds * 2 : 60} }\` (seconds) in the contract`,
      };
    case 'memory':
      return {
        what: `the memory limit${l ? ` (${mib(l.memoryBytes)}, sandbox.memory)` : ' (sandbox.memory)'}`,
        raise: `raise \`sandbox: { memory: ${l ? twice(l.memoryBytes) : '1G'} }\` in the contract`,
      };
    case 'output':
      return {
        what: `the output limit${l ? ` (${mib(l.outputBytes)}, sandbox.output)` : ' (sandbox.output)'}`,
        raise: `raise \`sandbox: { output: ${l ? twice(l.outputBytes) : '8M'} }\` in the contract, or make the tool return less`,
      };
    case 'file_size':
      return {
        what: `the file size limit${l ? ` (${mib(l.fileSizeBytes)}, sandbox.file_size)` : ' (sandbox.file_size)'}`,
        raise: `raise \`sandbox: { file_size: ${l ? twice(l.fileSizeBytes) : '64M'} }\` in the contract`,
      };
    case 'processes':
      return {
        what: `the process limit${l ? ` (${l.processes}, sandbox.processes)` : ' (sandbox.processes)'}`,
        raise: `raise \`sandbox: { processes: ${l ? l.processes * 2 : 128} }\` in the contract`,
      };
    case 'open_files':
      return {
        what: `the open files limit${l ? ` (${l.openFiles}, sandbox.open_files)` : ' (sandbox.open_files)'}`,
        raise: `raise \`sandbox: { open_files: ${l ? l.openFiles * 4 : 1024} }\` in the contract`,
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
  opts: { aborted: boolean; limits?: ResolvedLimits; call?: CallFacts },
): ToolboxError {
  if (opts.aborted)
    return new ToolboxError('cancelled', `call of tool '${id}' cancelled`, { exitCode: ExitCode.cancelled });
  if (e instanceof ToolboxError) return e;
  if (isToolRunError(e)) {
    const details: Record<string, unknown> = {};
    if (e.traceback) details.traceback = e.traceback;
    if (e.logs) details.logs = e.logs;
    if (e.rejected) details.rejected = true;
    // What the sandbox refused, read from the failure's text (errno messages) and the call's settings.
    const why =
      e.kind === 'failed' && opts.call
        ? explainFailure([e.message, e.logs ?? ''].join('\n'), { ...opts.call, tier: e.tier ?? opts.call.tier })
        : undefined;
    if (why?.kind === 'refusal')
      return new ToolboxError(why.code, why.message, {
        exitCode: ExitCode.permission,
        hint: why.hint,
        details: { ...details, refusal: why.code, tier: e.tier },
      });
    if (why?.kind === 'limit') {
      details.limit = why.limit;
      const t = limitText(why.limit, opts.limits);
      return new ToolboxError(
        'tool_limit',
        `the sandbox refused: tool '${id}' reached ${t.what} (${firstLine(e.message)})`,
        {
          exitCode: ExitCode.limit,
          hint: `To allow more, ${t.raise}.`,
          details,
        },
      );
    }
    if (e.kind === 'limit') {
      details.limit = e.limit ?? 'unknown';
      if (e.limit === 'timeout' || e.limit === undefined) {
        const secs = opts.limits ? ` after ${+(opts.limits.timeoutMs / 1000).toFixed(3)} s` : '';
        return new ToolboxError('tool_timeout', `the sandbox stopped tool '${id}': it timed out${secs}.`, {
          exitCode: ExitCode.limit,
          hint: 'Raise `timeout:` in the contract (seconds, or 500ms / 2m), `runtime.timeout` in toolbox.config.yaml, or pass --timeout 2m.',
          details,
        });
      }
      const t = limitText(e.limit, opts.limits);
      return new ToolboxError('tool_limit', `the sandbox stopped tool '${id}': it hit ${t.what}.`, {
        exitCode: ExitCode.limit,
        hint: `To allow more, ${t.raise}.`,
        details,
      });
    }
    const more = e.traceback ? 'Re-run with --verbose to see the traceback.' : undefined;
    return new ToolboxError('tool_failed', `tool '${id}' failed: ${e.message}`, {
      exitCode: ExitCode.toolFailed,
      hint: why?.kind === 'hint' ? [why.hint, more].filter(Boolean).join(' ') : more,
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
