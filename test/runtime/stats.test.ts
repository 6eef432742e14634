import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendCall, readCalls, type CallRecord } from '../../src/runtime/call-log.js';
import { percentile, summarise } from '../../src/runtime/stats.js';
import { tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const rec = (tool: string, ok: boolean, durationMs: number, extra: Partial<CallRecord> = {}): CallRecord => ({
  ts: '2025-01-01T00:00:00.000Z',
  tool,
  ok,
  outcome: ok ? 'ok' : 'tool_failed',
  exitCode: ok ? 0 : 4,
  loadMs: 10,
  runMs: durationMs - 10,
  durationMs,
  cacheHit: false,
  sandbox: 'bwrap',
  ...extra,
});

describe('percentile', () => {
  it('uses nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 95)).toBe(95);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});

describe('summarise', () => {
  it('computes calls, success rate, p50/p95, cold load and cache-hit rate per tool', () => {
    const records = [
      ...Array.from({ length: 19 }, (_, i) => rec('a', true, 100 + i, i === 0 ? {} : { cacheHit: true, loadMs: 0 })),
      rec('a', false, 1000, { cacheHit: true, loadMs: 0 }),
      rec('b', false, 5, { outcome: 'invalid_arguments', exitCode: 2, runMs: 0, loadMs: 0 }),
      rec('b', true, 50, { loadMs: 30 }),
    ];
    const [a, b] = summarise(records);
    expect(a).toMatchObject({
      tool: 'a',
      calls: 20,
      ok: 19,
      rejected: 0,
      successRate: 0.95,
      p50Ms: 109,
      p95Ms: 118,
      coldLoadMs: 10,
      cacheHitRate: 0.95,
      breaker: 'closed',
      errors: { tool_failed: 1 },
    });
    // A refused call (bad arguments) counts as a call but not in latency, cache or success numbers.
    expect(b).toMatchObject({
      tool: 'b',
      calls: 2,
      ok: 1,
      rejected: 1,
      successRate: 1,
      p50Ms: 50,
      coldLoadMs: 30,
      cacheHitRate: 0,
      errors: { invalid_arguments: 1 },
    });
  });
});

describe('call log', () => {
  it('appends one JSON line per call and skips torn lines when reading', () => {
    const p = tempProject();
    cleanup = p.cleanup;
    const state = join(p.dir, '.toolbox');
    appendCall(state, rec('a', true, 10));
    mkdirSync(state, { recursive: true });
    appendFileSync(join(state, 'calls.jsonl'), '{"tool": "torn\n');
    appendCall(state, rec('b', true, 10));
    expect(readFileSync(join(state, 'calls.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    expect(readCalls(state).map((r) => r.tool)).toEqual(['a', 'b']);
  });
});
