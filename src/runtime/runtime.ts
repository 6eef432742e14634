import type { Env } from '../util/env.js';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Project } from '../config.js';
import { networkOpen, type ToolContract, type ToolEntry } from '../contract/types.js';
import { ToolboxError } from '../errors.js';
import type { CallContext, LoadedTool, ToolOutput } from '../loaders/types.js';
import { findTool } from '../registry/registry.js';
import { readSession, recordSessionEvent } from '../policy/session.js';
import { Breaker, breakerSettings } from './breaker.js';
import { appendCall, CALL_LOG_FILES } from './call-log.js';
import type { SharedState } from '../state/shared.js';
import { SharedRuntimeState } from './shared.js';
import { checkState } from '../util/state.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';
import { checkOutput } from './format.js';
import { shapeOutput } from './content.js';
import { countsAsFailure, mapCallError } from './map-error.js';
import type { CallFacts } from './refusal.js';
import { ownPaths } from './own-paths.js';
import { assertCanUse } from '../policy/permissions.js';
import { grantedNetwork, grantedPaths, sandboxPathsFor } from '../policy/grants.js';
import { egressError, egressWarnings } from './egress.js';
import { realOrUndefined } from '../util/binds.js';
import { assertEnvGranted } from '../policy/credentials.js';
import { userSettingsFor } from '../policy/user-settings.js';
import type { ResolvedLimits, SandboxInfo } from '../sandbox/types.js';
import { ToolCache } from './tool-cache.js';
import { codeVersion } from '../lock/tool-files.js';
import { capResult } from './cap.js';
import { activeTelemetry, ensureTelemetry } from '../telemetry/state.js';
import type { InvokeRequest, InvokeResult } from './types.js';
import { validateArgs } from './validate.js';
import { checkArgShape } from './arg-guard.js';

/** Options of a Runtime. */
export interface RuntimeOptions {
  /** Loaded-tool LRU size (default: config runtime.cache_size, else 32). */
  cacheSize?: number;
  /** Keep loaded tools (workers, server connections) between calls: serve and the library API. */
  longRunning?: boolean;
  verbose?: boolean;
  /** Host environment the contract's `sandbox.env` allow-list reads from (default process.env). */
  env?: Env;
  /** Entry point recorded in the call log: 'cli', 'serve', 'library' (default). */
  via?: string;
  /** Clock for the circuit breaker (tests). */
  now?: () => number;
  /** Refuse tools that differ from toolbox.lock (default: config `locked`). */
  locked?: boolean;
  /**
   * A store shared with other processes (`--state redis://…`): the breaker and the call log go there
   * (`.toolbox/` while it is unreachable). The caller owns the connection.
   */
  shared?: SharedState;
}

// A backstop over the sandbox's own timeout, for loaders whose work is not a sandboxed process
// (http, mcp): the call is abandoned a little after its wall-clock limit.
const BACKSTOP_GRACE_MS = 2000;

const fileKey = (file: string) => {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}:${st.ctimeMs}`;
  } catch {
    return 'missing';
  }
};

/**
 * The one pipeline every entry point uses (CLI `run`, MCP `serve`, the library API):
 * find the tool (only its contract parsed) → permissions → argument validation → circuit breaker
 * → dependency check → lazy load (LRU-cached) → sandboxed call → format → call log.
 */
export class Runtime {
  readonly project: Project;
  private readonly opts: RuntimeOptions;
  private readonly entries = new Map<string, { entry: ToolEntry; key: string }>();
  private readonly cache: ToolCache;
  private readonly breaker: Breaker;
  /** The deployment's breaker and call log, with `--state` (else undefined: `.toolbox/` only). */
  readonly shared?: SharedRuntimeState;
  private sandboxInfo?: Promise<SandboxInfo | undefined>;

  constructor(project: Project, opts: RuntimeOptions = {}) {
    this.project = project;
    this.opts = opts;
    this.cache = new ToolCache(project, opts.cacheSize ?? project.config.runtime?.cache_size ?? 32, {
      longRunning: Boolean(opts.longRunning),
      verbose: Boolean(opts.verbose),
      env: opts.env,
    });
    const settings = breakerSettings(project.config);
    this.breaker = new Breaker(project.stateDir, settings, opts.now);
    if (opts.shared) this.shared = new SharedRuntimeState(opts.shared, settings, this.breaker, project.stateDir);
  }

  /** The tool's contract entry (parsed lazily; re-read when its file changes). Throws unknown_tool (exit 2). */
  find(id: string): ToolEntry {
    const hit = this.entries.get(id);
    if (hit && fileKey(hit.entry.file) === hit.key) return hit.entry;
    const entry = findTool(this.project, id);
    this.entries.set(id, { entry, key: fileKey(entry.file) });
    return entry;
  }

  /** Ids of the tools loaded now, least recently used first. */
  loaded(): string[] {
    return this.cache.ids();
  }

  /**
   * Call one tool. Resolves with the result; throws ToolboxError with the documented exit code.
   * With telemetry on (OTEL_EXPORTER_OTLP_ENDPOINT or the user's own `telemetry.endpoint`) the call is an
   * `execute_tool` span; otherwise no OpenTelemetry module is ever loaded.
   */
  async invoke(req: InvokeRequest): Promise<InvokeResult> {
    const t =
      activeTelemetry() ??
      (await ensureTelemetry(this.opts.env ?? process.env, () => userSettingsFor(this.project).telemetry));
    if (!t) return this.invokeOnce(req);
    const { withToolSpan } = await import('../telemetry/tool-span.js');
    return withToolSpan(t, { name: req.id, callId: req.callId ?? randomUUID(), args: req.args }, () =>
      this.invokeOnce(req),
    );
  }

  private async invokeOnce(req: InvokeRequest): Promise<InvokeResult> {
    const t0 = performance.now();
    const entry = this.find(req.id);
    const c = entry.contract;
    const stats = { loadMs: 0, runMs: 0, cacheHit: false, tier: undefined as string | undefined };
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    if (req.signal?.aborted) ac.abort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
    let limits: ResolvedLimits | undefined;
    let facts: (() => CallFacts) | undefined;
    let callStart: number | undefined;
    // Only what happens once the tool is loaded or running can be the tool's fault (breaker).
    let toolPhase = false;
    let release: (() => void) | undefined;
    let egress: CallContext['egress'];
    try {
      // What is written after the call (the log, a cut result) must be toolbox's own: a planted
      // .toolbox/ entry stops the call here, before the tool runs (state_unsafe, exit 3).
      checkState(this.project.stateDir, [...CALL_LOG_FILES, 'results/']);
      if (this.opts.locked ?? this.project.config.locked === true)
        (await import('../lock/enforce.js')).assertLocked(this.project, entry);
      if (req.session) readSession(this.project, req.session); // rejects a malformed session id before anything runs
      assertCanUse(c, req.caller ?? {}, this.project.config);
      const args = (req.args ?? {}) as Record<string, unknown>;
      checkArgShape(c.id, args);
      validateArgs(c, args, req.argStyle);
      if (this.shared) await this.shared.check(c.id);
      else this.breaker.check(c.id);
      toolPhase = true;
      const { tool, hit, loadMs, done } = await this.cache.get(entry, this.loadKey(entry), req.session);
      release = done;
      Object.assign(stats, { cacheHit: hit, loadMs });
      const ctx = await this.callContext(c, entry.file, req, ac.signal);
      egress = ctx.egress;
      limits = ctx.limits;
      // What the call could see, read only to explain a failure (its paths cost stats: not on every call).
      facts = () => ({
        network: ctx.network,
        root: this.project.root,
        visible: [...ownPaths(this.project.root, c), ...ctx.readOnlyPaths],
        contract: c,
        file: entry.file,
      });
      callStart = performance.now();
      // Probe with the project's state dir first, so the tier comes from .toolbox/cache/sandbox.json
      // instead of trial runs in every process.
      await this.probe();
      const out = await this.callWithBackstop(tool, args, ctx, ac);
      stats.runMs = performance.now() - callStart;
      stats.tier = out.tier;
      const shaped = shapeOutput(c, out);
      const capped = await capResult(this.project, c, shaped.text, shaped.result);
      const warnings = [
        ...new Set([
          ...checkOutput(c, shaped.result),
          ...egressWarnings(egress),
          ...(await this.sandboxWarnings(out.tier)),
          ...(out.warnings ?? []),
        ]),
      ];
      const result: InvokeResult = {
        tool: c.id,
        ok: true,
        result: shaped.result,
        ...(shaped.content ? { content: shaped.content } : {}),
        text: capped.text,
        ...(capped.truncated ? { truncated: capped.truncated } : {}),
        durationMs: round(performance.now() - t0),
        loadMs: round(stats.loadMs),
        runMs: round(stats.runMs),
        cacheHit: stats.cacheHit,
        sandbox: out.tier,
        warnings,
        ...(out.logs ? { logs: out.logs } : {}),
      };
      // Not awaited with a store: it goes out before any later command on the same connection.
      if (this.shared) void this.shared.success(c.id);
      else this.breaker.success(c.id);
      this.log(c.id, req, { ok: true, outcome: 'ok', exitCode: 0, ...stats, durationMs: result.durationMs });
      if (req.session) recordSessionEvent(this.project, req.session, { kind: 'run', tools: [c.id] });
      return result;
    } catch (e) {
      if (callStart !== undefined && stats.runMs === 0) stats.runMs = performance.now() - callStart;
      const err =
        egressError(egress) ??
        mapCallError(e, c.id, { aborted: Boolean(req.signal?.aborted), limits, call: facts?.() });
      if (!stats.tier && e instanceof ToolRunError && e.tier) stats.tier = e.tier;
      if (toolPhase && countsAsFailure(err)) {
        if (this.shared) await this.shared.failure(c.id);
        else this.breaker.failure(c.id);
      }
      this.log(c.id, req, {
        ok: false,
        outcome: err.code,
        exitCode: err.exitCode,
        ...stats,
        durationMs: performance.now() - t0,
        ...(err.details?.rejected === true ? { rejected: true } : {}),
      });
      throw err;
    } finally {
      release?.();
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * What a loaded tool is kept under: its contract file, and in a long-running process (where a
   * loaded tool is a warm worker that imported the code once) a stat fingerprint of every file of
   * its code, so that the next call after an edit runs the edited code. A one-shot process loads
   * once anyway and skips the walk.
   */
  private loadKey(entry: ToolEntry): string {
    const key = fileKey(entry.file);
    return this.opts.longRunning ? `${key}|${codeVersion(this.project.root, entry.contract)}` : key;
  }

  /** Load every tool marked `warm: true` ahead of its first call. Failures are returned, not thrown. */
  async warm(): Promise<{ loaded: string[]; failed: { id: string; error: ToolboxError }[] }> {
    const { loadRegistry } = await import('../registry/registry.js');
    const reg = loadRegistry(this.project);
    const out = { loaded: [] as string[], failed: [] as { id: string; error: ToolboxError }[] };
    for (const entry of reg.entries.filter((e) => e.contract.warm === true)) {
      this.entries.set(entry.contract.id, { entry, key: fileKey(entry.file) });
      try {
        (await this.cache.get(entry, this.loadKey(entry), undefined, { warm: true })).done();
        out.loaded.push(entry.contract.id);
      } catch (e) {
        out.failed.push({ id: entry.contract.id, error: mapCallError(e, entry.contract.id, { aborted: false }) });
      }
    }
    return out;
  }

  /** Forget a session: its tools may be evicted from the cache again. */
  endSession(session: string): void {
    this.cache.unpin(session);
  }

  /** Release every loaded tool (workers, server connections). */
  async close(): Promise<void> {
    this.shared?.close();
    await this.cache.clear();
  }

  private async callContext(
    c: ToolContract,
    file: string,
    req: InvokeRequest,
    signal: AbortSignal,
  ): Promise<CallContext> {
    const { resolveLimits } = await import('../sandbox/index.js');
    const limits = resolveLimits(c.sandbox, c.timeout ?? this.project.config.runtime?.timeout, req.timeoutMs);
    const host = this.opts.env ?? process.env;
    // A credential goes to a tool with the network open only when the user granted it (policy/credentials.ts).
    assertEnvGranted(this.project.root, c, host);
    const env: Record<string, string> = {};
    // Variables the contract allows, plus those it declares it needs: values only from the host, never logged.
    for (const name of [...(c.sandbox?.env ?? []), ...(c.requires?.env ?? [])]) {
      const v = host[name];
      if (v !== undefined) env[name] = v;
    }
    const network = networkOpen(c.sandbox);
    // With the network open, the tool's way out: the egress proxy socket of its policy (sandbox/egress).
    const egress = network ? await this.egressFor(c, file) : undefined;
    // Inside the project only, unless the user's own grants.yaml names this tool (src/policy/grants.ts).
    const readOnlyPaths = sandboxPathsFor(this.project.root, c.id, c.sandbox?.paths ?? [], network);
    // Read only if a loader's own path would be refused without one (util/binds.ts).
    const granted = () => grantedPaths(this.project.root, c.id);
    return {
      signal,
      limits,
      network,
      env,
      readOnlyPaths,
      granted,
      ...(egress ? { egress } : {}),
      ...(req.client ? { client: req.client } : {}),
    };
  }

  /** The proxy listener for this tool's policy: its sandbox.network and the user's network grants. */
  private async egressFor(c: ToolContract, file: string): Promise<NonNullable<CallContext['egress']>> {
    const { egressProxy } = await import('../sandbox/index.js');
    const listener = await egressProxy().lease({
      tool: c.id,
      hosts: Array.isArray(c.sandbox?.network) ? c.sandbox.network : true,
      grants: grantedNetwork(this.project.root, c.id),
      contractFile: file,
      project: realOrUndefined(this.project.root) ?? this.project.root,
    });
    return { socket: listener.socket, listener, mark: listener.total };
  }

  private async callWithBackstop(
    tool: LoadedTool,
    args: Record<string, unknown>,
    ctx: CallContext,
    ac: AbortController,
  ): Promise<ToolOutput> {
    if (ac.signal.aborted) throw new Error('cancelled');
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new ToolRunError({ kind: 'limit', limit: 'timeout', message: 'wall-clock timeout' }));
        ac.abort();
      }, ctx.limits.timeoutMs + BACKSTOP_GRACE_MS);
      onAbort = () => reject(new Error('cancelled'));
      ac.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([tool.call(args, ctx), stop]);
    } finally {
      clearTimeout(timer);
      if (onAbort) ac.signal.removeEventListener('abort', onAbort);
    }
  }

  private probe() {
    this.sandboxInfo ??= import('../sandbox/index.js')
      .then((m) => m.probeSandbox({ stateDir: this.project.stateDir }))
      .catch(() => undefined);
    return this.sandboxInfo;
  }

  private async sandboxWarnings(tier: string): Promise<string[]> {
    const info = await this.probe();
    // Only when the call ran under the probed tier (an http call made in-process has no sandbox to warn about).
    return info && info.tier === tier ? info.warnings : [];
  }

  private log(
    tool: string,
    req: InvokeRequest,
    r: {
      ok: boolean;
      outcome: string;
      exitCode: number;
      loadMs: number;
      runMs: number;
      durationMs: number;
      cacheHit: boolean;
      tier?: string;
      rejected?: boolean;
    },
  ): void {
    const rec = {
      ts: new Date().toISOString(),
      tool,
      ok: r.ok,
      outcome: r.outcome,
      exitCode: r.exitCode,
      loadMs: round(r.loadMs),
      runMs: round(r.runMs),
      durationMs: round(r.durationMs),
      cacheHit: r.cacheHit,
      ...(r.tier ? { sandbox: r.tier } : {}),
      ...(req.session ? { session: req.session } : {}),
      via: this.opts.via ?? 'library',
      ...(r.rejected ? { rejected: true } : {}),
    };
    if (this.shared) this.shared.log(rec);
    else appendCall(this.project.stateDir, rec);
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
