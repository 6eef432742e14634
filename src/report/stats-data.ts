// What `stats --report` shows, from the one stats source (runtime/stats.ts statsSource): calls over
// time per tool, success, the latency distribution with p50/p95/p99, cold loads, when breakers
// opened (the call log replayed through the breaker's own rule), refusals and sandbox tiers.
import { afterFailure, type BreakerRecord } from '../runtime/breaker.js';
import type { CallRecord } from '../runtime/call-log.js';
import {
  breakerFailure,
  callKind,
  percentile,
  successRate,
  reachedTool,
  summarise,
  type StatsSource,
  type ToolStats,
} from '../runtime/stats.js';

/** Latency histogram bucket edges in ms (log-spaced); the last bucket is everything above. */
export const LATENCY_EDGES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000];
/** Time bucket sizes to choose from: the smallest that keeps the series at most MAX_BUCKETS long. */
const BUCKETS = [60e3, 300e3, 900e3, 3600e3, 6 * 3600e3, 86400e3, 7 * 86400e3, 30 * 86400e3];
const MAX_BUCKETS = 120;

/** One tool's figures in the stats report. */
export interface StatsTool extends Omit<ToolStats, 'p50Ms' | 'p95Ms'> {
  p50: number;
  p95: number;
  p99: number;
  /** Calls that loaded the tool (cache misses). */
  coldLoads: number;
  /** Breaker openings found by replaying the log. */
  openings: number;
  /** Calls turned away because the circuit was open. */
  circuitOpen: number;
  /** Calls per sandbox tier. */
  sandbox: Record<string, number>;
  /** Calls, and the tool's own failures (not refusals or caller errors), per time bucket. */
  series: number[];
  fails: number[];
  /** Latency histogram over LATENCY_EDGES. */
  hist: number[];
}

/** The data of a stats report page. */
export interface StatsReportData {
  kind: 'stats';
  generated: string;
  project: string;
  source: string;
  calls: number;
  from: string | null;
  to: string | null;
  /** Time buckets: start (epoch ms) and size (ms). */
  bucket: { start: number; ms: number; n: number };
  edges: number[];
  /** successRate: the tools' own successes over their own successes and failures (null when none ran). */
  overall: {
    p50: number;
    p95: number;
    p99: number;
    successRate: number | null;
    refused: number;
    rejected: number;
    hist: number[];
  };
  tools: StatsTool[];
  /** [epoch ms, tool] of every breaker opening found in the log. */
  openings: [number, string][];
  breaker: { failures: number; window: number; cooldown: number };
}

const histogram = (ms: number[]) => {
  const h = new Array<number>(LATENCY_EDGES.length + 1).fill(0);
  for (const x of ms) {
    let i = LATENCY_EDGES.findIndex((e) => x < e);
    if (i < 0) i = LATENCY_EDGES.length;
    h[i]!++;
  }
  return h;
};

/** Build the stats report's data from a stats source. */
export function buildStatsData(src: StatsSource, opts: { project: string; now?: Date }): StatsReportData {
  const records = src.records
    .filter((r) => Number.isFinite(Date.parse(r.ts)))
    .sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  const times = records.map((r) => Date.parse(r.ts));
  const t0 = times[0] ?? 0;
  const span = (times[times.length - 1] ?? 0) - t0;
  const ms = BUCKETS.find((b) => span / b < MAX_BUCKETS) ?? BUCKETS[BUCKETS.length - 1]!;
  const start = Math.floor(t0 / ms) * ms;
  const n = records.length ? Math.floor(((times[times.length - 1] ?? 0) - start) / ms) + 1 : 0;
  const byTool = new Map<string, CallRecord[]>();
  records.forEach((r) => {
    const l = byTool.get(r.tool) ?? [];
    l.push(r);
    byTool.set(r.tool, l);
  });
  const openings: [number, string][] = [];
  const summary = summarise(records, src.breaker);
  const tools: StatsTool[] = summary.map(({ p50Ms: _p50, p95Ms: _p95, ...s }) => {
    const rs = byTool.get(s.tool) ?? [];
    const series = new Array<number>(n).fill(0);
    const fails = new Array<number>(n).fill(0);
    const sandbox: Record<string, number> = {};
    let rec: BreakerRecord | undefined;
    let opened = 0;
    for (const r of rs) {
      const t = Date.parse(r.ts);
      const b = Math.floor((t - start) / ms);
      series[b]!++;
      if (callKind(r) === 'failed') fails[b]!++;
      if (r.sandbox) sandbox[r.sandbox] = (sandbox[r.sandbox] ?? 0) + 1;
      if (r.ok) rec = undefined;
      else if (breakerFailure(r)) {
        const next = afterFailure(rec, t, src.settings);
        if (next.openUntil !== undefined && next.openUntil !== rec?.openUntil) {
          opened++;
          openings.push([t, s.tool]);
        }
        rec = next;
      }
    }
    const durations = rs.filter(reachedTool).map((r) => r.durationMs);
    return {
      ...s,
      p50: percentile(durations, 50),
      p95: percentile(durations, 95),
      p99: percentile(durations, 99),
      coldLoads: rs.filter((r) => reachedTool(r) && !r.cacheHit && r.loadMs > 0).length,
      openings: opened,
      circuitOpen: rs.filter((r) => r.outcome === 'circuit_open').length,
      sandbox,
      series,
      fails,
      hist: histogram(durations),
    };
  });
  const ran = records.filter(reachedTool).map((r) => r.durationMs);
  return {
    kind: 'stats',
    generated: (opts.now ?? new Date()).toISOString(),
    project: opts.project,
    source: src.label,
    calls: records.length,
    from: records[0]?.ts ?? null,
    to: records[records.length - 1]?.ts ?? null,
    bucket: { start, ms, n },
    edges: LATENCY_EDGES,
    overall: {
      p50: percentile(ran, 50),
      p95: percentile(ran, 95),
      p99: percentile(ran, 99),
      successRate: successRate(records),
      refused: summary.reduce((n, t) => n + t.refused, 0),
      rejected: summary.reduce((n, t) => n + t.rejected, 0),
      hist: histogram(ran),
    },
    tools,
    openings: openings.sort((a, b) => a[0] - b[0]),
    breaker: {
      failures: src.settings.failures,
      window: src.settings.windowMs / 1000,
      cooldown: src.settings.cooldownMs / 1000,
    },
  };
}
