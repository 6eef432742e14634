import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/runtime/call-log.js';
import { Breaker } from '../../src/runtime/breaker.js';
import { buildStatsData } from '../../src/report/stats-data.js';

const T0 = Date.parse('2026-05-01T10:00:00Z');
const call = (s: number, tool: string, outcome: string, extra: Partial<CallRecord> = {}): CallRecord => ({
  ts: new Date(T0 + s * 1000).toISOString(),
  tool,
  ok: outcome === 'ok',
  outcome,
  exitCode: outcome === 'ok' ? 0 : outcome === 'invalid_arguments' ? 2 : outcome === 'tool_timeout' ? 5 : 4,
  loadMs: 0,
  runMs: outcome === 'ok' || outcome === 'tool_failed' ? 10 : 0,
  durationMs: 10,
  cacheHit: true,
  ...extra,
});
const settings = { failures: 3, windowMs: 60_000, cooldownMs: 30_000 };
const source = (records: CallRecord[]) => ({
  label: 'calls.jsonl',
  records,
  breaker: new Breaker('/nonexistent-toolbox-state', settings),
  settings,
});

describe('stats report data', () => {
  it('replays the log through the breaker rule: the threshold opens it, a failed trial opens it again', () => {
    const d = buildStatsData(
      source([
        call(0, 'flaky', 'tool_failed'),
        call(1, 'flaky', 'invalid_arguments'), // the caller's error: does not count
        call(2, 'flaky', 'tool_failed'),
        call(3, 'flaky', 'tool_timeout'), // 3rd failure within 60 s: opens
        call(10, 'flaky', 'circuit_open', { exitCode: 4 }), // refused: not a failure
        call(40, 'flaky', 'tool_failed'), // the half-open trial fails: opens again
        call(100, 'flaky', 'ok'), // closes
        call(101, 'flaky', 'tool_failed'),
        call(102, 'flaky', 'tool_failed'), // 2 < 3: stays closed
        call(500, 'other', 'tool_failed'),
        call(1000, 'other', 'tool_failed'),
        call(2000, 'other', 'tool_failed'), // 3 failures, but never 3 within the window
      ]),
      { project: '.' },
    );
    expect(d.openings).toEqual([
      [T0 + 3000, 'flaky'],
      [T0 + 40_000, 'flaky'],
    ]);
    const flaky = d.tools.find((t) => t.tool === 'flaky')!;
    // circuitOpen (was `refused`): `refused` now counts what the sandbox or a policy refused (issue 38)
    expect(flaky).toMatchObject({ openings: 2, circuitOpen: 1, refused: 0, rejected: 1, calls: 9 });
    expect(d.tools.find((t) => t.tool === 'other')!.openings).toBe(0);
  });

  it('buckets calls over time, counts sandbox tiers and cold loads, and gives p50/p95/p99', () => {
    const records = Array.from({ length: 100 }, (_, i) =>
      call(i * 60, 'a', 'ok', {
        durationMs: i + 1,
        sandbox: i < 90 ? 'bwrap' : 'none',
        cacheHit: i % 10 !== 0,
        loadMs: i % 10 === 0 ? 50 : 0,
      }),
    );
    const d = buildStatsData(source(records), { project: '.' });
    // 99 minutes of calls: one-minute buckets would be 100 > 120? no: 100 buckets of a minute fit.
    expect(d.bucket.ms).toBe(60_000);
    expect(d.bucket.n).toBe(100);
    const a = d.tools[0]!;
    expect(a.series.reduce((s, n) => s + n, 0)).toBe(100);
    expect(a.sandbox).toEqual({ bwrap: 90, none: 10 });
    expect(a.coldLoads).toBe(10);
    expect([a.p50, a.p95, a.p99]).toEqual([50, 95, 99]);
    expect(d.overall.p99).toBe(99);
    expect(a.hist.reduce((s, n) => s + n, 0)).toBe(100);
    expect(d.calls).toBe(100);
    // A longer span picks a coarser bucket, never more than 120 of them.
    const week = buildStatsData(source([call(0, 'a', 'ok'), call(7 * 86400, 'a', 'ok')]), { project: '.' });
    expect(week.bucket.n).toBeLessThanOrEqual(120);
    expect(week.tools[0]!.series.reduce((s, n) => s + n, 0)).toBe(2);
  });

  it("sandbox and policy refusals and caller errors are apart from the tool's own success (issue 38)", () => {
    const d = buildStatsData(
      source([
        call(0, 'walled', 'path_not_visible', { exitCode: 7 }),
        call(1, 'walled', 'network_closed', { exitCode: 7 }),
        call(2, 'walled', 'permission_denied', { exitCode: 7 }),
        call(3, 'mixed', 'ok'),
        call(4, 'mixed', 'tool_failed'),
        call(5, 'mixed', 'read_only_path', { exitCode: 7 }),
        call(6, 'mixed', 'invalid_arguments'),
        call(7, 'mixed', 'tool_failed', { rejected: true }), // the signature refused the arguments
      ]),
      { project: '.' },
    );
    const walled = d.tools.find((t) => t.tool === 'walled')!;
    expect(walled).toMatchObject({ calls: 3, ok: 0, failed: 0, refused: 3, rejected: 0, successRate: null });
    expect(walled.fails.reduce((s, n) => s + n, 0)).toBe(0);
    const mixed = d.tools.find((t) => t.tool === 'mixed')!;
    expect(mixed).toMatchObject({ calls: 5, ok: 1, failed: 1, refused: 1, rejected: 2, successRate: 0.5 });
    expect(d.overall).toMatchObject({ successRate: 0.5, refused: 4, rejected: 2 });
    // nothing reached any tool's own code: no success figure at all, not 100%
    const none = buildStatsData(source([call(0, 'walled', 'network_closed', { exitCode: 7 })]), { project: '.' });
    expect(none.overall.successRate).toBeNull();
  });

  it('an empty log is an empty report', () => {
    const d = buildStatsData(source([]), { project: '.' });
    expect(d).toMatchObject({ calls: 0, from: null, tools: [], openings: [], bucket: { n: 0 } });
  });
});
