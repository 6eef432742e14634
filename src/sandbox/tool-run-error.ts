import type { LimitHit } from './types.js';

/**
 * What a loaded tool throws when one call goes wrong. The runtime maps it to a ToolboxError:
 * kind 'failed' → `tool_failed` (exit 4, the tool's own message; traceback shown with --verbose);
 * kind 'limit' → `tool_timeout` / `tool_limit` (exit 5, naming the limit and how to raise it).
 * Loaders never build exit codes themselves.
 */
export class ToolRunError extends Error {
  readonly kind: 'failed' | 'limit';
  /** Which limit stopped the tool (kind 'limit' only). */
  readonly limit?: LimitHit;
  /** The tool's traceback / stack (Python traceback, JS stack), for --verbose. */
  readonly traceback?: string;
  /** What the tool printed (stderr, stray prints), for --verbose. */
  readonly logs?: string;
  /** Sandbox tier the call ran under, when known (recorded in the call log). */
  readonly tier?: string;
  /** The tool rejected its arguments (Python ValueError, a JS error named ValueError): not the tool's fault. */
  readonly rejected?: boolean;

  constructor(opts: {
    kind: 'failed' | 'limit';
    message: string;
    limit?: LimitHit;
    traceback?: string;
    logs?: string;
    tier?: string;
    rejected?: boolean;
  }) {
    super(opts.message);
    this.name = 'ToolRunError';
    this.kind = opts.kind;
    this.limit = opts.limit;
    this.traceback = opts.traceback;
    this.logs = opts.logs;
    this.tier = opts.tier;
    if (opts.rejected) this.rejected = true;
  }
}

/** True for a ToolRunError, also across module copies (checks the shape, not the prototype). */
export function isToolRunError(e: unknown): e is ToolRunError {
  return e instanceof ToolRunError || (e instanceof Error && e.name === 'ToolRunError' && 'kind' in e);
}
