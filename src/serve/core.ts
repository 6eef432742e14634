import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { ToolboxError } from '../errors.js';
import { loadRegistry, type Registry } from '../registry/registry.js';
import { canUse, type Caller } from '../policy/permissions.js';
import { Runtime } from '../runtime/runtime.js';
import { closeAllSessions } from '../mcp/pool.js';
import { mcpOutputSchema } from '../contract/mcp-tool.js';
import type { ToolClient } from '../loaders/types.js';
import { removeSession } from '../policy/session.js';
import { Limiter } from '../runtime/limiter.js';
import { ensureTelemetry } from '../telemetry/state.js';
import { errorResult, okResult, type CallResult } from './results.js';
import { searchTools } from './search.js';

/** How `toolbox serve` exposes the registry and to whom. */
export interface ServeOptions {
  /** search: search_tools + call_tool (+ found tools per session); all: every tool. */
  expose: 'search' | 'all';
  caller: Caller;
  /** Calls running at once (default 16); more wait in a queue of `maxQueued` (default 1000). */
  maxConcurrent?: number;
  maxQueued?: number;
  /** HTTP: a session with no request in flight for this long is closed (default 30 min). */
  sessionIdleMs?: number;
  /** HTTP: sessions alive at once (default 100); a new one evicts the least recently active one no longer live. */
  maxSessions?: number;
  /** HTTP: a session active this recently (or with a request or stream open) is live: never evicted (default 5 min). */
  sessionLiveMs?: number;
  verbose?: boolean;
  /** Host environment for the sandbox allow-lists (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Refuse tools that differ from toolbox.lock (default: config `locked`). */
  locked?: boolean;
}

// The registry is re-read (stat only, thanks to its cache) at most this often: new or edited
// contracts show up in a running server without a restart.
const REGISTRY_TTL_MS = 1000;

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSION_LIVE_MS = 5 * 60_000;

/**
 * What every MCP connection of one `toolbox serve` process shares: one Runtime (the same pipeline
 * as `toolbox run`: validation, permissions, breaker, sandbox, call log, LRU of loaded tools with
 * warm workers), one in-flight limiter, and the registry view.
 */
export class ServeCore {
  readonly runtime: Runtime;
  readonly limiter: Limiter;
  private reg?: { registry: Registry; at: number };

  constructor(
    readonly project: Project,
    readonly opts: ServeOptions,
  ) {
    this.runtime = new Runtime(project, {
      longRunning: true,
      via: 'serve',
      verbose: opts.verbose,
      env: opts.env,
      ...(opts.locked ? { locked: true } : {}),
    });
    // Per tool: as many calls as the tool has warm workers (runtime.pool_size), so a slow tool's
    // backlog never takes the slots another tool needs.
    this.limiter = new Limiter(
      opts.maxConcurrent ?? 16,
      opts.maxQueued ?? 1000,
      project.config.runtime?.pool_size ?? 4,
    );
  }

  /** Load the `warm: true` tools now, so their first call is fast. */
  async start(): Promise<{ loaded: string[]; failed: { id: string; error: ToolboxError }[] }> {
    // Telemetry first, so the first request already gets its MCP span.
    await ensureTelemetry(this.opts.env ?? process.env, this.project.config.telemetry);
    this.registry();
    return this.runtime.warm();
  }

  registry(): Registry {
    const now = Date.now();
    if (!this.reg || now - this.reg.at > REGISTRY_TTL_MS) this.reg = { registry: loadRegistry(this.project), at: now };
    return this.reg.registry;
  }

  /** Tools the caller may use (what --expose all lists). */
  visibleTools(): ToolEntry[] {
    return this.registry().entries.filter((e) => canUse(e.contract, this.opts.caller, this.project.config));
  }

  /** The best `top` tools for `query` that the caller may use. */
  search(query: string, top: number, session?: string, signal?: AbortSignal): Promise<ToolEntry[]> {
    return searchTools({
      registry: this.registry(),
      query,
      top,
      caller: this.opts.caller,
      session,
      env: this.opts.env,
      signal,
    });
  }

  /** One call through the runtime, as an MCP result. Never throws: failures are isError results. */
  async call(
    id: string,
    args: unknown,
    session: string | undefined,
    signal?: AbortSignal,
    client?: ToolClient,
    callId?: string,
  ): Promise<CallResult> {
    try {
      const r = await this.limiter.run(
        () => this.runtime.invoke({ id, args: args ?? {}, caller: this.opts.caller, session, signal, client, callId }),
        signal,
        { tool: id, client: session },
      );
      return okResult(r, this.runtime.find(r.tool).contract);
    } catch (e) {
      return errorResult(e, { structured: !this.announcesOutputSchema(id) });
    }
  }

  private announcesOutputSchema(id: string): boolean {
    try {
      return mcpOutputSchema(this.runtime.find(id).contract) !== undefined;
    } catch {
      return false; // unknown tool: the client has no schema for it
    }
  }

  /** The session ended (client gone, expired, evicted): release its pins and delete its history file. */
  endSession(session: string): void {
    this.runtime.endSession(session);
    removeSession(this.project, session);
  }

  /** Stop every worker and server process this process started. */
  async close(): Promise<void> {
    await this.runtime.close();
    await closeAllSessions();
  }
}
