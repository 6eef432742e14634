// What an operator watches: counters for `GET /metrics` (Prometheus text format 0.0.4) and the
// context of one HTTP request for `--log-format json` (one line per request: request-log.ts). Kept in
// memory per replica (Prometheus adds the replicas up); label values are only tool ids of the
// registry and toolbox's own error codes, so no client can make new series.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallResult } from './results.js';
import { ERROR_META_KEY } from './results.js';

/** Seconds: from a warm call (a few ms) to a long one (minutes). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** What one HTTP request did, filled in by the calls it made (read by the request log). */
export interface RequestNote {
  /** The JSON-RPC method (`batch` for several). */
  method?: string;
  tool?: string;
  outcome?: string;
  /** A /metrics scrape: neither counted nor logged. */
  scrape?: boolean;
}

/** The request being answered, for the calls it makes (AsyncLocalStorage follows its promises). */
export const requestNote = new AsyncLocalStorage<RequestNote>();

const UNKNOWN = '_unknown';

/** A tool call's outcome: `ok`, or toolbox's stable error code (`tool_failed`, `circuit_open`, …). */
export function outcomeOf(r: CallResult | undefined): string {
  if (!r) return 'internal_error';
  if (!r.isError) return 'ok';
  const meta = r._meta as Record<string, { code?: unknown }> | undefined;
  const code = meta?.[ERROR_META_KEY]?.code;
  return typeof code === 'string' && /^[a-z0-9_]{1,64}$/.test(code) ? code : 'error';
}

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** Live figures of one replica; render() is the /metrics page. */
export class ServeMetrics {
  private readonly calls = new Map<string, number>(); // `${tool}\0${outcome}` → count
  private readonly latency = new Map<string, Histogram>(); // tool → histogram
  private readonly breakerOpen = new Map<string, 0 | 1>(); // tool → as this replica's calls saw it
  private readonly http = new Map<string, number>(); // status code → count
  private inFlight = 0;

  constructor(
    private readonly live: {
      sandbox: () => string | undefined;
      draining: () => boolean;
      /** The shared store's health, when there is one (connected / degraded / …). */
      shared: () => string | undefined;
    },
  ) {}

  /** A call begins; the returned function ends it with its result. */
  callStarted(id: string, known: () => boolean): (r: CallResult | undefined) => void {
    const began = process.hrtime.bigint();
    this.inFlight++;
    let ended = false;
    return (r) => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      const tool = known() ? id : UNKNOWN;
      const outcome = outcomeOf(r);
      const seconds = Number(process.hrtime.bigint() - began) / 1e9;
      const key = `${tool}\0${outcome}`;
      this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
      const h = this.latency.get(tool) ?? { counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      LATENCY_BUCKETS.forEach((b, i) => {
        if (seconds <= b) h.counts[i]!++;
      });
      h.sum += seconds;
      h.count++;
      this.latency.set(tool, h);
      if (tool !== UNKNOWN) {
        if (outcome === 'circuit_open') this.breakerOpen.set(tool, 1);
        else if (outcome === 'ok') this.breakerOpen.set(tool, 0);
      }
      const note = requestNote.getStore();
      if (note) {
        note.tool = id.length <= 128 ? id : `${id.slice(0, 128)}…`;
        note.outcome = outcome;
      }
    };
  }

  /** An HTTP request to /mcp was answered with `status`. */
  httpAnswered(status: number): void {
    const k = String(status);
    this.http.set(k, (this.http.get(k) ?? 0) + 1);
  }

  /** The exposition text (Prometheus 0.0.4). */
  render(): string {
    const out: string[] = [];
    const head = (name: string, type: string, help: string) =>
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    head(
      'toolbox_calls_total',
      'counter',
      'Tool calls answered by this replica, by tool and outcome (ok or an error code).',
    );
    for (const [k, v] of sorted(this.calls)) {
      const [tool, outcome] = k.split('\0') as [string, string];
      out.push(`toolbox_calls_total{tool="${esc(tool)}",outcome="${esc(outcome)}"} ${v}`);
    }
    head('toolbox_call_failures_total', 'counter', 'Tool calls that ended in an error, by tool and error code.');
    for (const [k, v] of sorted(this.calls)) {
      const [tool, outcome] = k.split('\0') as [string, string];
      if (outcome !== 'ok') out.push(`toolbox_call_failures_total{tool="${esc(tool)}",code="${esc(outcome)}"} ${v}`);
    }
    head('toolbox_call_duration_seconds', 'histogram', 'Time from a call reaching the runtime to its answer.');
    for (const [tool, h] of sorted(this.latency)) {
      const t = esc(tool);
      LATENCY_BUCKETS.forEach((b, i) =>
        out.push(`toolbox_call_duration_seconds_bucket{tool="${t}",le="${b}"} ${h.counts[i]}`),
      );
      out.push(`toolbox_call_duration_seconds_bucket{tool="${t}",le="+Inf"} ${h.count}`);
      out.push(`toolbox_call_duration_seconds_sum{tool="${t}"} ${h.sum}`);
      out.push(`toolbox_call_duration_seconds_count{tool="${t}"} ${h.count}`);
    }
    head('toolbox_calls_in_flight', 'gauge', 'Tool calls running or queued on this replica now.');
    out.push(`toolbox_calls_in_flight ${this.inFlight}`);
    head(
      'toolbox_breaker_open',
      'gauge',
      "1 while a tool's circuit breaker refuses its calls (as this replica's last call saw it).",
    );
    for (const [tool, v] of sorted(this.breakerOpen)) out.push(`toolbox_breaker_open{tool="${esc(tool)}"} ${v}`);
    head('toolbox_http_requests_total', 'counter', 'HTTP requests to /mcp, by status code.');
    for (const [code, v] of sorted(this.http)) out.push(`toolbox_http_requests_total{code="${code}"} ${v}`);
    head('toolbox_sandbox_tier', 'gauge', 'The sandbox tier calls run under (1 for the tier in force).');
    const tier = this.live.sandbox();
    for (const t of ['bwrap', 'unshare', 'none']) out.push(`toolbox_sandbox_tier{tier="${t}"} ${tier === t ? 1 : 0}`);
    head('toolbox_draining', 'gauge', '1 after SIGTERM, while calls in flight finish.');
    out.push(`toolbox_draining ${this.live.draining() ? 1 : 0}`);
    const shared = this.live.shared();
    if (shared !== undefined) {
      head(
        'toolbox_shared_state_up',
        'gauge',
        '1 while the shared store (Redis) answers; 0 while serving on local state.',
      );
      out.push(`toolbox_shared_state_up ${shared === 'connected' ? 1 : 0}`);
    }
    return out.join('\n') + '\n';
  }
}

const sorted = <V>(m: Map<string, V>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A label value: backslash, double quote and newline escaped (the format's rule). */
const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
