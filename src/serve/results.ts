import { ExitCode, ToolboxError } from '../errors.js';
import type { InvokeResult } from '../runtime/types.js';

/** A tools/call result (the MCP CallToolResult shape). */
export interface CallResult {
  [k: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A successful call: the formatted text for the model, the raw object as structuredContent. */
export function okResult(r: InvokeResult): CallResult {
  return {
    content: [{ type: 'text', text: r.text }],
    ...(isPlainObject(r.result) ? { structuredContent: r.result } : {}),
  };
}

/**
 * A failed call as a tool result (isError), not a protocol error: the model reads why and can
 * correct its arguments. structuredContent carries toolbox's stable error code and exit code.
 */
export function errorResult(e: unknown): CallResult {
  const err =
    e instanceof ToolboxError
      ? e
      : new ToolboxError('internal_error', `internal error: ${(e as Error)?.message ?? String(e)}`, { exitCode: 70 });
  const text = `${err.message}${err.hint ? `\nhint: ${err.hint}` : ''}`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      error: {
        code: err.code,
        exitCode: err.exitCode,
        message: err.message,
        ...(err.hint ? { hint: err.hint } : {}),
        ...(err.details ? { details: err.details } : {}),
      },
    },
    isError: true,
  };
}

/** A bad request to one of serve's own tools (search_tools / call_tool). */
export function badRequest(message: string): CallResult {
  return errorResult(new ToolboxError('invalid_arguments', message, { exitCode: ExitCode.usage }));
}
