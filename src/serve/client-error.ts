// What an MCP client may learn from a failed call: the stable code, the exit code and a message.
// Not host paths, tracebacks, logs or hints that only make sense at a shell (--verbose, `toolbox run`):
// a client of serve is untrusted and is not the person running toolbox (docs/sandbox.md).
const ABS_PATH = /(^|[\s'"(=:])(\/(?:[\w.@+-]+\/)*[\w.@+-]+)/g;
const CLI_ONLY = /--[a-z]|`toolbox |toolbox\.config|\.yaml|\.py\b|\/|~/;

/** The message with every absolute host path replaced by its last component. */
export function stripPaths(s: string): string {
  return s.replace(ABS_PATH, (_m, pre: string, p: string) => `${pre}${p.split('/').pop() ?? ''}`);
}

/** The error object sent to an MCP client: details reduced to safe keys, no traceback, logs or CLI hint. */
export function clientError(e: {
  code: string;
  exitCode: number;
  message: string;
  hint?: string;
  details?: Record<string, unknown>;
}): { code: string; exitCode: number; message: string; hint?: string; details?: Record<string, unknown> } {
  const safe: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e.details ?? {}))
    if (
      !['traceback', 'logs', 'stack', 'path', 'file', 'cause'].includes(k) &&
      (typeof v !== 'string' || !v.includes('/'))
    )
      safe[k] = v;
  return {
    code: e.code,
    exitCode: e.exitCode,
    message: stripPaths(e.message),
    ...(e.hint && !CLI_ONLY.test(e.hint) ? { hint: e.hint } : {}),
    ...(Object.keys(safe).length ? { details: safe } : {}),
  };
}
