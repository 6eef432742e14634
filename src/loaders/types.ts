// Loaders report a failed call by throwing ToolRunError from src/sandbox/tool-run-error.ts
// ({ kind: 'failed' | 'limit', ... }).
import type { Env } from '../util/env.js';
import type { Project } from '../config.js';
import type { ToolEntry, LoaderType } from '../contract/types.js';
import type { ResolvedLimits, SandboxTier } from '../sandbox/types.js';
import type { EgressPolicy, Refusal } from '../sandbox/egress/policy.js';
import type { ContentBlock } from '../mcp/content.js';

/** MCP log levels, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The caller's side of a running call: where a tool's progress and log messages go, and who
 * answers its questions (MCP elicitation and sampling). `toolbox serve` forwards these to the MCP
 * client; a caller without a client leaves methods out, and the tool is told it cannot ask.
 */
export interface ToolClient {
  // May return the send in flight: the call's result waits for it, so a client never gets the last progress
  // or log message after the result (when it would already have dropped the request's handlers).
  progress?(p: { progress: number; total?: number; message?: string }): void | Promise<unknown>;
  log?(m: { level: LogLevel; data: unknown; logger?: string }): void | Promise<unknown>;
  /** One question: resolves with the client's result (a caller that only implements this gets batches one by one). */
  request?(method: InputMethod, params: Record<string, unknown>): Promise<unknown>;
  /**
   * Questions asked together, answered together (results in the same order). A question's `key`
   * names it (the tool's choice, else one the caller assigns); a 2026-07-28 client answers by key,
   * so keys must be stable when a call is run again.
   */
  ask?(questions: Question[]): Promise<unknown[]>;
  /**
   * The tool says the rest of the call may take long: a caller that can (an MCP client that
   * supports tasks, for a contract that allows them) stops waiting and follows the call as a task.
   */
  background?(): void;
  /**
   * Show a person a URL to open (an MCP server behind OAuth: the authorization page; the browser then
   * comes back to toolbox). A caller without a person to show it to leaves it out.
   */
  openUrl?(url: string, why: string): void | Promise<void>;
}

/** What a tool can ask its caller: MCP's server-to-client requests. */
export type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
export const INPUT_METHODS: readonly InputMethod[] = ['elicitation/create', 'sampling/createMessage', 'roots/list'];

/** One question of a running tool for its caller. */
export interface Question {
  method: InputMethod;
  params: Record<string, unknown>;
  key?: string;
}

/** What a loader gets when it loads a tool (once per tool per process; cached by the runtime). */
export interface LoadContext {
  project: Project;
  entry: ToolEntry;
  /** Long-running process (serve, library): keep workers / server connections alive between calls. */
  longRunning: boolean;
  verbose: boolean;
  /**
   * The environment toolbox was called with (the client's under the daemon): where a bare program
   * name and a pyenv/asdf shim are looked up. Default process.env.
   */
  hostEnv?: Env;
}

/** What a loaded tool gets for one call. */
export interface CallContext {
  signal: AbortSignal;
  limits: ResolvedLimits;
  /** Network opened by the contract's sandbox.network. */
  network: boolean;
  /**
   * With the network open: the egress proxy listener of the tool's policy (its Unix socket is what
   * the sandbox binds), and its refusal count when the call started (what it refused during the call
   * is reported with the call's outcome).
   */
  egress?: { socket: string; listener: EgressListener; mark: number };
  /** Environment passed into the sandbox (allow-listed variables only). */
  env: Record<string, string>;
  /** Extra read-only paths from the contract's sandbox.paths (absolute), already checked. */
  readOnlyPaths: string[];
  /**
   * The tool's paths in the user's own grants.yaml: what the loader's own project paths (its
   * folder, node_modules, venv) may resolve to outside the project (util/binds.ts).
   */
  granted: () => string[];
  /** Progress, logging, elicitation and sampling (serve's MCP client); absent in plain CLI runs. */
  client?: ToolClient;
}

/** The raw outcome of one call, before formatting. */
export interface ToolOutput {
  result: unknown;
  /** MCP content blocks, when the loader got them as such (an upstream MCP server's result). */
  content?: ContentBlock[];
  /** The tool's own stderr / prints, for --verbose. */
  logs?: string;
  tier: SandboxTier;
  /** Per-call isolation warnings (SandboxResult.warnings), shown to the caller with the result. */
  warnings?: string[];
}

/** A tool whose implementation is ready to call. */
export interface LoadedTool {
  call(args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutput>;
  /** Release workers / connections (long-running processes). */
  dispose?(): Promise<void>;
}

/** One loader type. Loader files are imported lazily through `loaderMap`. */
export interface Loader {
  type: LoaderType;
  load(ctx: LoadContext): Promise<LoadedTool>;
}

/**
 * What a call uses of its egress proxy listener (sandbox/egress/proxy.ts's Listener, which matches
 * it). Structural, so the library's declarations do not pull in node:net's types: the public API
 * compiles without @types/node (the pack smoke test).
 */
export interface EgressListener {
  readonly socket: string;
  readonly policy: EgressPolicy;
  /** Refusals so far (a call's mark is this number at its start). */
  readonly total: number;
  /** The refusals logged since `mark`. */
  since(mark: number): Refusal[];
}
