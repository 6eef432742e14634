import { ExitCode, ToolboxError } from '../../errors.js';
import { ToolRunError } from '../../sandbox/tool-run-error.js';
import type { LimitHit, ResolvedLimits, SandboxResult, SandboxTier } from '../../sandbox/types.js';
import type { ToolEntry } from '../../contract/types.js';

/** A reply from a runner (python_runner.py / node_runner.mjs). */
export interface RunnerReply {
  ok?: boolean;
  result?: unknown;
  ready?: boolean;
  id?: number;
  logs?: string;
  /** CPU seconds the runner process has used so far (worker mode). */
  cpu?: number;
  error?: { kind: string; type?: string; message: string; traceback?: string | null; rejected?: boolean };
  /** A progress or log message from the running call (worker mode). */
  notify?: { method: 'progress' | 'log' | 'background'; params: Record<string, unknown> };
  /** A question for the caller (elicitation, sampling); answered on the worker's stdin. */
  /** A question (method, params, optional key), or several asked together (`questions`, answered as a list). */
  ask?: {
    rid: number;
    method?: string;
    params?: Record<string, unknown>;
    key?: string;
    questions?: { method: string; params?: Record<string, unknown>; key?: string }[];
  };
}

/** The last `max` characters of a text, cut at a line start when possible. */
export function tail(text: string, max = 2000): string {
  const t = text.trimEnd();
  if (t.length <= max) return t;
  const cut = t.slice(t.length - max);
  const nl = cut.indexOf('\n');
  return '…' + (nl >= 0 && nl < max / 2 ? cut.slice(nl + 1) : cut);
}

function size(bytes: number): string {
  if (bytes >= 1 << 30 && bytes % (1 << 30) === 0) return `${bytes / (1 << 30)} GiB`;
  if (bytes >= 1 << 20) return `${+(bytes / (1 << 20)).toFixed(1)} MiB`;
  if (bytes >= 1 << 10) return `${+(bytes / (1 << 10)).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** Which limit stopped the tool, in words, with the value in force. */
export function limitMessage(limit: LimitHit, limits: ResolvedLimits): string {
  switch (limit) {
    case 'timeout':
      return `timed out after ${limits.timeoutMs / 1000}s`;
    case 'cpu':
      return `CPU time limit of ${limits.cpuSeconds}s exceeded`;
    case 'memory':
      return `memory limit of ${size(limits.memoryBytes)} exceeded`;
    case 'output':
      return `output limit of ${size(limits.outputBytes)} exceeded`;
    case 'file_size':
      return `file size limit of ${size(limits.fileSizeBytes)} exceeded`;
    case 'processes':
      return `process limit of ${limits.processes} exceeded`;
    case 'open_files':
      return `open files limit of ${limits.openFiles} exceeded`;
  }
}

export function limitError(
  limit: LimitHit,
  limits: ResolvedLimits,
  tier: SandboxTier | undefined,
  logs?: string,
): ToolRunError {
  return new ToolRunError({ kind: 'limit', limit, message: limitMessage(limit, limits), logs, tier });
}

/** Thrown when the caller aborted the call (Ctrl-C, client cancelled). */
export function cancelledError(): ToolboxError {
  return new ToolboxError('cancelled', 'the call was cancelled', { exitCode: ExitCode.cancelled });
}

/** The failure a finished sandboxed process stands for: a limit, or a crash with its stderr tail. */
export function processFailure(res: SandboxResult, limits: ResolvedLimits, what: string): ToolRunError {
  const logs = res.stderr || undefined;
  if (res.limit) return limitError(res.limit, limits, res.tier, logs);
  const how = res.signal ? `was killed by ${res.signal}` : `exited with code ${res.exitCode}`;
  const detail = tail(res.stderr || res.stdout, 1000);
  return new ToolRunError({
    kind: 'failed',
    message: `${what} ${how}${detail ? `: ${detail}` : ''}`,
    logs,
    tier: res.tier,
  });
}

/**
 * Turn a runner's reply into the result, or throw: a missing module or function is the contract's
 * fault (exit 3, pointing at the contract file); anything the tool raised is a ToolRunError.
 */
export function replyResult(
  reply: RunnerReply,
  entry: ToolEntry,
  tier: SandboxTier | undefined,
  logs: string | undefined,
  limits?: ResolvedLimits,
): unknown {
  if (reply.ok) return reply.result;
  const err = reply.error ?? { kind: 'exception', message: 'the runner sent a malformed reply' };
  // A MemoryError the runner caught is the memory limit (RLIMIT_DATA) refusing an allocation: the tool hit a
  // limit (exit 5 `memory`), it did not fail on its own (exit 4).
  if (limits && err.type === 'MemoryError') throw limitError('memory', limits, tier, logs);
  if (err.kind === 'module_not_found' || err.kind === 'function_not_found') {
    const key = err.kind === 'module_not_found' ? 'module' : 'function';
    throw new ToolboxError(`tool_${key}_not_found`, `tool '${entry.contract.id}': ${err.message}`, {
      exitCode: ExitCode.registry,
      location: { file: entry.file, line: entry.line },
      hint: `Fix loader_config.${key} in ${entry.file}${entry.line ? `:${entry.line}` : ''}, or add the missing code.`,
      details: { kind: err.kind },
    });
  }
  const pkg = missingPackage(err, entry);
  if (pkg) throw missingDependency(pkg, err.message, entry);
  // The arguments did not fit the function's parameters (Python's "unexpected keyword argument",
  // a destructured parameter the caller left out): the call's mistake, exit 2, never the breaker's.
  if (err.kind === 'bad_call')
    throw new ToolboxError(
      'invalid_arguments',
      `tool '${entry.contract.id}' cannot be called with these arguments: ${err.message}`,
      {
        exitCode: ExitCode.usage,
        hint: `Pass the arguments of its schema (\`toolbox show ${entry.contract.id}\`). If they fit the schema, the schema and the function's parameters disagree: fix ${entry.file}.`,
        details: { kind: err.kind, rejected: true },
      },
    );
  throw new ToolRunError({
    kind: 'failed',
    message: err.message,
    traceback: err.traceback ?? undefined,
    logs,
    tier,
    rejected: err.rejected === true,
  });
}

/**
 * The package a failed import names, when it is a dependency and not the tool's own code: Python's
 * "No module named 'x'" (at import or during the call) whose top-level name is not the tool's own
 * package; Node's "Cannot find package 'x'" (a missing file of the tool is "Cannot find module").
 */
export function missingPackage(
  err: { type?: string; message: string },
  entry: ToolEntry,
): { lang: 'python' | 'node'; name: string } | undefined {
  const c = entry.contract;
  if (c.loader === 'python_function') {
    const m = /No module named '([\w.]+)'/.exec(err.message);
    if (!m || (err.type !== undefined && err.type !== 'ModuleNotFoundError')) return undefined;
    const top = m[1]!.split('.')[0]!;
    const own = String((c.loader_config as { module?: unknown }).module ?? '').split('.')[0];
    return top === own ? undefined : { lang: 'python', name: top };
  }
  if (c.loader === 'node_module') {
    const m = /Cannot find package '((?:@[\w.-]+\/)?[\w.-]+)/.exec(err.message);
    return m ? { lang: 'node', name: m[1]! } : undefined;
  }
  return undefined;
}

/** missing_dependency (exit 6): what to declare in `requires`, and the command that installs it. */
function missingDependency(pkg: { lang: 'python' | 'node'; name: string }, message: string, entry: ToolEntry) {
  const id = entry.contract.id;
  const declared = entry.contract.requires?.[pkg.lang];
  const list = Array.isArray(declared) ? declared : typeof declared === 'object' ? Object.keys(declared) : [];
  const named = list.some((l) =>
    l
      .toLowerCase()
      .replace(/[-_.]+/g, '_')
      .startsWith(pkg.name.toLowerCase().replace(/[-_.]+/g, '_')),
  );
  const where = `${entry.file}${entry.line ? `:${entry.line}` : ''}`;
  const hint =
    pkg.lang === 'python'
      ? `${named ? `requires.python in ${where} names it but it is not installed where the tool runs.` : `Declare it in ${where}: \`requires: { python: [${pkg.name}] }\` (its PyPI name, when that differs from the import name).`} Then \`toolbox deps --install ${id}\` installs it in a virtualenv for this tool (\`toolbox deps ${id}\` shows what is missing).`
      : `${named ? `requires.node in ${where} names it, but` : `Declare it in ${where}: \`requires: { node: ["${pkg.name}"] }\`; then`} install it where the tool's module resolves packages (\`npm install ${pkg.name}\` in its folder or the project); \`toolbox deps ${id}\` checks it.`;
  return new ToolboxError(
    'missing_dependency',
    `tool '${id}' imports '${pkg.name}', which is not installed where it runs (${message.split('\n')[0]!.slice(0, 200)})`,
    {
      exitCode: ExitCode.missingDeps,
      location: { file: entry.file, line: entry.line },
      hint,
      details: { tool: id, package: pkg.name, language: pkg.lang, declared: named },
    },
  );
}

/** Parse the single JSON reply of a one-shot runner, or explain why there is none. */
export function oneShotReply(res: SandboxResult, limits: ResolvedLimits, what: string): RunnerReply {
  if (res.limit) throw limitError(res.limit, limits, res.tier, res.stderr || undefined);
  if (res.result !== undefined && res.result !== '') {
    try {
      return JSON.parse(res.result) as RunnerReply;
    } catch {
      throw new ToolRunError({
        kind: 'failed',
        message: `${what} sent a reply that is not JSON: ${tail(res.result, 200)}`,
        logs: res.stderr,
        tier: res.tier,
      });
    }
  }
  throw processFailure(res, limits, `${what} ended without a result; it`);
}
