import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { loadRegistry, type Registry } from '../registry/registry.js';
import { canUse, type Caller } from '../policy/permissions.js';
import { Runtime } from '../runtime/runtime.js';
import { closeAllSessions } from '../mcp/pool.js';
import { mcpOutputSchema } from '../contract/mcp-tool.js';
import type { ToolClient } from '../loaders/types.js';
import { removeSession } from '../policy/session.js';
import { Limiter } from '../runtime/limiter.js';
import { DEFAULT_RELAY_LIMITS, limitRelay, type RelayLimits } from './relay-limits.js';
import { ensureTelemetry } from '../telemetry/state.js';
import { userSettingsFor } from '../policy/user-settings.js';
import { errorResult, okResult, type CallResult } from './results.js';
import { searchTools } from './search.js';
import { MemoryStore, type ServeStore } from './store.js';
import { RedisStore } from './redis-store.js';
import type { SharedState } from '../state/shared.js';
import { Exchanges } from './input-required.js';
import { Tasks } from './tasks.js';
import { publishResult, type ResultPlace } from './result-resources.js';
import { RegistryWatcher, toolsDigest } from './watch.js';
import { toolDef } from './definitions.js';
import { DEFAULT_PAGE_SIZE, listVersion } from './paging.js';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { ServeSandbox } from './preflight.js';
import type { ServeMetrics } from './metrics.js';

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
  /** HTTP: sessions one client (its token, peer and clientInfo) may hold at once (default 16). */
  maxSessionsPerClient?: number;
  /** HTTP: a session active this recently (or with a request or stream open) is live: never evicted (default 5 min). */
  sessionLiveMs?: number;
  verbose?: boolean;
  /** Host environment for the sandbox allow-lists (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Refuse tools that differ from toolbox.lock (default: config `locked`). */
  locked?: boolean;
  /** Where state that outlives one request is kept (default: this process's memory; Redis with `shared`). */
  store?: ServeStore;
  /**
   * The store shared by the replicas of a deployment (`--state redis://…`): the breaker, the call
   * log, client limits and what the protocol keeps across requests go there. The caller owns it.
   */
  shared?: SharedState;
  /** How long a call waits, suspended, for a 2026-07-28 client's answers (default 2 min). */
  inputWaitMs?: number;
  /** How long a call that may be a task runs before it becomes one, unless it went to the background (1 s). */
  taskGraceMs?: number;
  /** Tools per page of tools/list (default 100; the user's `serve.tools.page_size`, `--page-size`). */
  pageSize?: number;
  /** What a tool may relay to the client per call (default DEFAULT_RELAY_LIMITS; the user's, never the project's). */
  relay?: RelayLimits;
  /** Where warnings for the person running serve go (a forged store record); default: nowhere. */
  warn?: (message: string) => void;
}

/** Where every call result names the sandbox tier it ran under. */
export const SANDBOX_META_KEY = 'toolbox/sandbox';

/** The store channel change events travel on (subscriptions/listen streams of every replica hear it). */
const EVENTS = 'mcp:events';

// The registry is re-read (stat only, thanks to its cache) at most this often: new or edited
// contracts show up in a running server without a restart.
const REGISTRY_TTL_MS = 1000;

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSION_LIVE_MS = 5 * 60_000;
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 16;

/**
 * What every MCP connection of one `toolbox serve` process shares: one Runtime (the same pipeline
 * as `toolbox run`: validation, permissions, breaker, sandbox, call log, LRU of loaded tools with
 * warm workers), one in-flight limiter, and the registry view.
 */
export class ServeCore {
  readonly runtime: Runtime;
  readonly limiter: Limiter;
  readonly store: ServeStore;
  /** Calls waiting for a 2026-07-28 client's answers (input-required results). */
  readonly inputs = new Exchanges();
  /** Calls that became MCP tasks (their records in the store). */
  readonly tasks: Tasks;
  /** Who calls, as input-required states record it (a state minted for one caller is refused for another). */
  readonly callerKey: string;
  /** Change events for 2026-07-28 subscriptions/listen streams, over the store's pub/sub. */
  readonly events: ServerEventBus;
  private reg?: { registry: Registry; at: number };
  /** The deployment's shared store, when there is one. */
  get shared(): SharedState | undefined {
    return this.opts.shared;
  }
  /** The sandbox found at start (serve sets it): its tier goes into every call's `_meta` and /readyz. */
  sandbox?: ServeSandbox;
  /** Counters for /metrics and the request log (serve sets them; absent in a library use). */
  metrics?: ServeMetrics;
  private watcher?: RegistryWatcher;
  private readonly toolsListeners = new Set<() => void>();

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
      ...(opts.shared ? { shared: opts.shared } : {}),
    });
    // Per tool: as many calls as the tool has warm workers (runtime.pool_size), so a slow tool's
    // backlog never takes the slots another tool needs.
    this.limiter = new Limiter(
      opts.maxConcurrent ?? 16,
      opts.maxQueued ?? 1000,
      project.config.runtime?.pool_size ?? 4,
    );
    this.store = opts.store ?? (opts.shared ? new RedisStore(opts.shared) : new MemoryStore());
    this.tasks = new Tasks(this.store, (kind) => this.forged(kind));
    this.callerKey = JSON.stringify([opts.caller.user ?? null, opts.caller.role ?? null]);
    this.events = storeBus(this.store);
  }

  /** Load the `warm: true` tools now, so their first call is fast. */
  async start(): Promise<{ loaded: string[]; failed: { id: string; error: ToolboxError }[] }> {
    // Telemetry first, so the first request already gets its MCP span.
    await ensureTelemetry(this.opts.env ?? process.env, () => userSettingsFor(this.project).telemetry);
    this.registry();
    this.watcher = new RegistryWatcher(
      this.project.registryDir,
      () => toolsDigest(this.visibleTools(true).map((e) => toolDef(e.contract))),
      (digest) => this.toolsChanged(digest),
    );
    this.watcher.start();
    return this.runtime.warm();
  }

  /** The registry, re-read (stat only) when older than a second, or now with `fresh`. */
  registry(fresh = false): Registry {
    const now = Date.now();
    if (fresh || !this.reg || now - this.reg.at > REGISTRY_TTL_MS)
      this.reg = { registry: loadRegistry(this.project), at: now };
    return this.reg.registry;
  }

  /**
   * Hear about changes to the tools clients see (a contract added, removed or edited): the
   * listener is called once per change. Returns the function that stops listening.
   */
  onToolsChanged(listener: () => void): () => void {
    this.toolsListeners.add(listener);
    return () => this.toolsListeners.delete(listener);
  }

  private toolsChanged(digest: string): void {
    for (const l of [...this.toolsListeners]) l();
    void this.store.publish(EVENTS, { kind: 'tools_list_changed', digest });
  }

  /** Tools the caller may use (what --expose all lists). */
  visibleTools(fresh = false): ToolEntry[] {
    return this.registry(fresh)
      .entries.filter((e) => canUse(e.contract, this.opts.caller, this.project.config))
      .sort((a, b) => (a.contract.id < b.contract.id ? -1 : a.contract.id > b.contract.id ? 1 : 0));
  }

  /** Tools per page of tools/list. */
  get pageSize(): number {
    return this.opts.pageSize ?? DEFAULT_PAGE_SIZE;
  }

  private listed?: { registry: Registry; entries: ToolEntry[]; ids: string[]; version: string };

  /** The tools the caller may use, sorted by id, with the version a cursor is made for (paging.ts). */
  listing(): { entries: ToolEntry[]; ids: string[]; version: string } {
    const registry = this.registry();
    if (this.listed?.registry !== registry) {
      const entries = this.visibleTools();
      const ids = entries.map((e) => e.contract.id);
      this.listed = { registry, entries, ids, version: listVersion(ids) };
    }
    return this.listed;
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
    /** Whose call it is, for the fair share of the queue (default: the session). */
    owner?: string,
  ): Promise<CallResult> {
    // The call also ends when the server stops; a signal aborted with a reason (the server stopping,
    // the session closed) answers with that reason instead of a plain "cancelled".
    const signals = [signal, this.stopping.signal].filter((s): s is AbortSignal => s !== undefined);
    const all = AbortSignal.any(signals);
    this.active++;
    const done = this.metrics?.callStarted(id, () => this.knows(id));
    let result: CallResult | undefined;
    try {
      const r = await this.limiter.run(
        () => {
          const relay = client && limitRelay(client, this.opts.relay ?? DEFAULT_RELAY_LIMITS, id);
          return this.runtime.invoke({
            id,
            args: args ?? {},
            caller: this.opts.caller,
            session,
            signal: all,
            client: relay,
            callId,
          });
        },
        all,
        { tool: id, client: owner ?? session },
      );
      const link = r.truncated ? await publishResult(this.store, this.results, r.truncated) : undefined;
      result = this.withTier(okResult(r, this.runtime.find(r.tool).contract, link));
    } catch (e) {
      // The server stopping wins over the call's own signal (a waiting 2026 call is cancelled as the
      // server stops): its client is told server_stopping, not cancelled.
      const why = [...signals].reverse().find((s) => s.aborted && s.reason instanceof ToolboxError)?.reason as unknown;
      result = this.withTier(
        errorResult(why instanceof ToolboxError ? why : e, { structured: !this.announcesOutputSchema(id) }),
      );
    } finally {
      this.active--;
      done?.(result);
    }
    return result;
  }

  /** `_meta["toolbox/sandbox"]`: the tier this call ran under (a client can refuse `none`). */
  private withTier(r: CallResult): CallResult {
    const tier = this.sandbox?.tier;
    if (!tier) return r;
    return { ...r, _meta: { ...(r._meta as Record<string, unknown> | undefined), [SANDBOX_META_KEY]: tier } };
  }

  /** Where capped results are read back from: this project's .toolbox/results/ only. */
  get results(): ResultPlace {
    return { stateDir: this.project.stateDir, forged: (kind) => this.forged(kind) };
  }

  private forgedSaid = 0;
  private forgedSince = 0;
  /**
   * A record in the store failed its check (someone else wrote it): it is ignored, and said at most
   * once a minute with a count, so a writer flooding the store cannot flood the log as well.
   */
  private forged(kind: string): void {
    this.forgedSince++;
    if (Date.now() - this.forgedSaid < 60_000) return;
    this.forgedSaid = Date.now();
    const n = this.forgedSince;
    this.forgedSince = 0;
    this.opts.warn?.(
      `ignored ${n} ${kind} record${n === 1 ? '' : 's'} in the shared store that toolbox did not write (or that were garbled); nothing of ${n === 1 ? 'it' : 'them'} was served. Someone else can write to the store: protect it with a password (docs/scale.md).`,
    );
  }

  /** Calls running through call() now. */
  active = 0;
  /** Aborted when the server begins to stop: every call ends with server_stopping. */
  private readonly stopping = new AbortController();

  /**
   * Begin stopping: end every call in flight now, each answered with `server_stopping` (so no client
   * waits for an answer that will not come), and every call waiting for a client's answers.
   */
  beginStop(): void {
    if (this.stopping.signal.aborted) return;
    queueMicrotask(() => this.inputs.cancelAll()); // after `stopping` carries its reason
    this.stopping.abort(
      new ToolboxError('server_stopping', 'toolbox serve is stopping: the call was stopped before it finished', {
        exitCode: ExitCode.cancelled,
        hint: 'Call the tool again once the server is back.',
      }),
    );
  }

  /** Resolves when no call is running, or after `ms`. */
  async drained(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.active > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  /** Whether `id` names a tool of the registry (metrics label only those: a client cannot add series). */
  private knows(id: string): boolean {
    try {
      this.runtime.find(id);
      return true;
    } catch {
      return false;
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
    this.beginStop();
    this.watcher?.stop();
    await this.runtime.close();
    await closeAllSessions();
    await this.store.close();
  }
}

/**
 * The SDK's change-event bus over the store's pub/sub. A change seen by several replicas at once
 * (each watches the registry) reaches each listen stream once: events carry the tools' digest, and a
 * listener skips one it has just delivered.
 */
function storeBus(store: ServeStore): ServerEventBus {
  return {
    publish: (event: ServerEvent) => void store.publish(EVENTS, event),
    subscribe: (listener: (event: ServerEvent) => void) => {
      let last: string | undefined;
      return store.subscribe(EVENTS, (m) => {
        const e = m as ServerEvent & { digest?: string };
        if (e.digest !== undefined && e.digest === last) return;
        last = e.digest;
        const { digest: _d, ...event } = e;
        listener(event as ServerEvent);
      });
    },
  };
}
