// Loaders report a failed call by throwing ToolRunError from src/sandbox/tool-run-error.ts
// ({ kind: 'failed' | 'limit', ... }).
import type { Project } from '../config.js';
import type { ToolEntry, LoaderType } from '../contract/types.js';
import type { ResolvedLimits, SandboxTier } from '../sandbox/types.js';

/** What a loader gets when it loads a tool (once per tool per process; cached by the runtime). */
export interface LoadContext {
  project: Project;
  entry: ToolEntry;
  /** Long-running process (serve, library): keep workers / server connections alive between calls. */
  longRunning: boolean;
  verbose: boolean;
}

/** What a loaded tool gets for one call. */
export interface CallContext {
  signal: AbortSignal;
  limits: ResolvedLimits;
  /** Network opened by the contract's sandbox.network. */
  network: boolean;
  /** Environment passed into the sandbox (allow-listed variables only). */
  env: Record<string, string>;
  /** Extra read-only paths from the contract's sandbox.paths (absolute). */
  readOnlyPaths: string[];
}

/** The raw outcome of one call, before formatting. */
export interface ToolOutput {
  result: unknown;
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
