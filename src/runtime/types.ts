import type { Truncation } from './cap.js';
import type { Caller } from '../policy/permissions.js';
import type { SandboxTier } from '../sandbox/types.js';
import type { ToolClient } from '../loaders/types.js';
import type { ContentBlock } from '../mcp/content.js';

/** One call of one tool through the pipeline (validation, permissions, deps, breaker, sandbox, format). */
export interface InvokeRequest {
  id: string;
  /** The arguments object (validated against the tool's schema before anything is loaded). */
  args: unknown;
  caller?: Caller;
  /** Overrides the contract's timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Id of this call in traces (gen_ai.tool.call.id); serve passes the JSON-RPC request id. Default: a UUID. */
  callId?: string;
  /** Session id: the tool stays loaded for the session; recorded for selection memory. */
  session?: string;
  /** How arguments are named in validation messages: CLI flags (`--city`) or parameter names (default). */
  argStyle?: 'flags' | 'params';
  /** Where the tool's progress / log messages go and who answers its elicitation / sampling requests. */
  client?: ToolClient;
}

/** A successful call. Failures are thrown as ToolboxError (exit 2 args, 4 tool, 5 limit, 6 deps, 7 permission). */
export interface InvokeResult {
  tool: string;
  ok: true;
  /** The result; for a tool that returned MCP content, its structuredContent, else the content's text. */
  result: unknown;
  /** MCP content blocks, when the tool returned content (images, audio, resources, text) rather than a value. */
  content?: ContentBlock[];
  /** The result formatted for people / LLMs (the contract's `format`, or a readable rendering), cut to the cap. */
  text: string;
  /** Set when `text` was cut at the output cap (or withheld as binary): where the full result is. */
  truncated?: Truncation;
  durationMs: number;
  loadMs: number;
  runMs: number;
  cacheHit: boolean;
  sandbox: SandboxTier;
  warnings: string[];
  logs?: string;
}
