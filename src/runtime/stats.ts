import type { Project } from '../config.js';
import { join } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import {
  Breaker,
  breakerSettings,
  type BreakerRecord,
  type BreakerSettings,
  type BreakerState,
  type BreakerStatus,
} from './breaker.js';
import { readCalls, type CallRecord } from './call-log.js';
import type { SharedState } from '../state/shared.js';
import { readShared } from './shared.js';

/** Per-tool summary of the call log, as `toolbox stats` shows it. Times in ms. */
export interface ToolStats {
  tool: string;
  calls: number;
  ok: number;
  /** The tool's own failures: it crashed, reported an error, timed out or hit a limit (and circuit-open calls). */
  failed: number;
  /**
   * Calls the sandbox or a policy refused (exit 7): a write or read the sandbox withholds, a network
   * the contract keeps closed, a role or grant that does not allow the call. Not the tool's code
   * failing, and not a success either: the tool did not do its work.
   */
  refused: number;
  /**
   * Caller errors: arguments that fail the schema (exit 2) or that the tool's signature rejected.
   * They say nothing about the tool's health.
   */
  rejected: number;
  /** ok / (ok + failed), 0..1; null when no call got as far as the tool's own code (all refused or rejected). */
  successRate: number | null;
  p50Ms: number;
  p95Ms: number;
  /** Median load time of calls that loaded the tool (cache misses); null when none did. */
  coldLoadMs: number | null;
  /** Share of calls that found the tool already loaded, 0..1. */
  cacheHitRate: number;
  breaker: BreakerState;
  /** When the breaker is open: when it lets a call through again. */
  reopensAt?: string;
  /** Error codes and how often each happened. */
  errors: Record<string, number>;
  lastCall: string;
}

/** Nearest-rank percentile of a list of numbers (0 when empty). */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))]!;
}

/**
 * What one call says about its tool: it worked (`ok`), the tool's own code failed (`failed`), the
 * sandbox or a policy refused it (`refused`, exit 7), the caller got it wrong (`caller`: exit 2, or
 * arguments the tool's signature rejected), or it was cancelled. Only `ok` and `failed` judge the tool.
 */
export type CallKind = 'ok' | 'failed' | 'refused' | 'caller' | 'cancelled';

/** The kind of one logged call (see CallKind). */
export function callKind(r: CallRecord): CallKind {
  if (r.ok) return 'ok';
  if (r.exitCode === 7) return 'refused';
  if (r.exitCode === 2 || r.rejected === true) return 'caller';
  if (r.outcome === 'cancelled' || r.exitCode === 130) return 'cancelled';
  return 'failed';
}

/** ok / (ok + failed) of some calls; null when none of them judged the tool. */
export function successRate(records: CallRecord[]): number | null {
  let ok = 0;
  let judged = 0;
  for (const r of records) {
    const k = callKind(r);
    if (k === 'ok') ok++;
    if (k === 'ok' || k === 'failed') judged++;
  }
  return judged ? ok / judged : null;
}

/** Whether a call reached the tool (its latency says something about the tool; refusals do not). */
export function reachedTool(r: CallRecord): boolean {
  return (
    r.ok || r.runMs > 0 || r.outcome === 'tool_failed' || r.outcome === 'tool_timeout' || r.outcome === 'tool_limit'
  );
}

/** Whether a call counts against the tool's circuit breaker (as the runtime counted it: countsAsFailure). */
export function breakerFailure(r: CallRecord): boolean {
  return !r.ok && (r.exitCode === 4 || r.exitCode === 5) && r.outcome !== 'circuit_open' && r.outcome !== 'cancelled';
}

/** The breakers' states now, per tool (the project's breaker file, or the records of a shared store). */
export interface BreakerView {
  all(): Record<string, BreakerStatus>;
}

/** Summarise call records per tool (sorted by tool id). */
export function summarise(records: CallRecord[], breaker?: BreakerView): ToolStats[] {
  const byTool = new Map<string, CallRecord[]>();
  for (const r of records) {
    const list = byTool.get(r.tool) ?? [];
    list.push(r);
    byTool.set(r.tool, list);
  }
  const states = breaker?.all() ?? {};
  return [...byTool.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tool, rs]) => {
      const kinds = rs.map(callKind);
      const count = (k: CallKind) => kinds.filter((x) => x === k).length;
      // Latency is measured on calls that reached the tool; refusals (bad args, open circuit) say nothing about it.
      const ran = rs.filter(reachedTool);
      const durations = ran.map((r) => r.durationMs);
      const loads = ran.filter((r) => !r.cacheHit && r.loadMs > 0).map((r) => r.loadMs);
      const errors: Record<string, number> = {};
      for (const r of rs) if (!r.ok) errors[r.outcome] = (errors[r.outcome] ?? 0) + 1;
      const b = states[tool];
      return {
        tool,
        calls: rs.length,
        ok: count('ok'),
        failed: count('failed'),
        refused: count('refused'),
        rejected: count('caller'),
        successRate: successRate(rs),
        p50Ms: percentile(durations, 50),
        p95Ms: percentile(durations, 95),
        coldLoadMs: loads.length ? percentile(loads, 50) : null,
        cacheHitRate: ran.length ? ran.filter((r) => r.cacheHit).length / ran.length : 0,
        breaker: b?.state ?? 'closed',
        ...(b?.state === 'open' && b.reopensAt ? { reopensAt: b.reopensAt } : {}),
        errors,
        lastCall: rs[rs.length - 1]!.ts,
      };
    });
}

/** Where a project's call statistics come from, and what they hold. */
export interface StatsSource {
  /** For people: where the records were read. */
  label: string;
  records: CallRecord[];
  breaker: BreakerView;
  settings: BreakerSettings;
}

/** The project's own source: .toolbox/calls.jsonl (and its rotated generation) and .toolbox/breaker.json. */
function localSource(project: Project): StatsSource {
  const settings = breakerSettings(project.config);
  return {
    label: join(project.stateDir, 'calls.jsonl'),
    records: readCalls(project.stateDir),
    breaker: new Breaker(project.stateDir, settings),
    settings,
  };
}

/**
 * The one place `stats` and `stats --report` read a project's calls: with a shared store
 * (`--state`), the call log and breakers of every process that shares it; else .toolbox/calls.jsonl
 * (and its rotated generation) and .toolbox/breaker.json. Throws state_unreachable when the store
 * cannot be read (a figure from one machine would pass for the deployment's).
 */
export async function statsSource(project: Project, opts: { shared?: SharedState } = {}): Promise<StatsSource> {
  if (!opts.shared) return localSource(project);
  const settings = breakerSettings(project.config);
  const got = await readShared(opts.shared, settings);
  if (!got) {
    const s = opts.shared.status();
    throw new ToolboxError(
      'state_unreachable',
      `cannot read the shared state at ${s.url}${s.lastError ? `: ${s.lastError}` : ''}`,
      {
        exitCode: ExitCode.registry,
        hint: "Check that Redis is running and reachable, or run without --state for this machine's .toolbox/ only.",
      },
    );
  }
  const view = new Breaker(project.stateDir, settings);
  const breakers: Record<string, BreakerRecord> = got.breakers;
  return {
    label: `${opts.shared.url.shown} (shared)`,
    records: got.records,
    breaker: { all: () => Object.fromEntries(Object.entries(breakers).map(([id, r]) => [id, view.status(id, r)])) },
    settings,
  };
}

/** Stats of a project from .toolbox/calls.jsonl and .toolbox/breaker.json. */
export function projectStats(project: Project): ToolStats[] {
  const src = localSource(project);
  return summarise(src.records, src.breaker);
}
