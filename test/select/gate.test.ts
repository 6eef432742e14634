// `eval --min` thresholds and cases files (src/select/gate.ts, evaluate.ts): what parses, what is a
// located usage error (exit 2), and which thresholds fail.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { ExitCode, ToolboxError } from '../../src/errors.js';
import { exampleCases, parseCases } from '../../src/select/evaluate.js';
import { failedThresholds, parseThreshold } from '../../src/select/gate.js';
import { meanMetrics } from '../../src/select/metrics.js';

/** The error `fn` throws: its code, exit code and location line. */
function thrown(fn: () => unknown): { code: string; exit: number; line?: number } {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof ToolboxError)) throw e;
    return { code: e.code, exit: e.exitCode, line: e.location?.line };
  }
  throw new Error('did not throw');
}

describe('parseThreshold', () => {
  it('reads <metric>=<0…1>, case and spaces aside', () => {
    expect(parseThreshold('ndcg@10=0.8')).toEqual({ metric: 'ndcg@10', min: 0.8 });
    expect(parseThreshold(' R@5 = 1 ')).toEqual({ metric: 'r@5', min: 1 });
    expect(parseThreshold('mrr=0')).toEqual({ metric: 'mrr', min: 0 });
    for (const m of ['r@1', 'r@10', 'p@1']) expect(parseThreshold(`${m}=.5`)).toEqual({ metric: m, min: 0.5 });
  });

  it('refuses an unknown metric, a value outside 0…1 or not a number, with exit 2', () => {
    for (const spec of [
      'ndcg=0.5',
      'ndcg@10=high',
      'ndcg@10=1.5',
      'ndcg@10=1.2.3',
      'ndcg@10',
      'x ndcg@10=0.5',
      '=0.5',
      'r@1=0.5x',
    ])
      expect(
        thrown(() => parseThreshold(spec)),
        spec,
      ).toEqual({ code: 'invalid_threshold', exit: ExitCode.usage });
  });
});

describe('failedThresholds', () => {
  it('lists the thresholds a metric is below (reaching one passes), with what it got', () => {
    const m = { ...meanMetrics([]), 'r@1': 0.5, 'ndcg@10': 0.8 };
    const t = [
      { metric: 'r@1' as const, min: 0.5 },
      { metric: 'ndcg@10' as const, min: 0.81 },
      { metric: 'mrr' as const, min: 0 },
    ];
    expect(failedThresholds(m, t)).toEqual([{ metric: 'ndcg@10', min: 0.81, got: 0.8 }]);
    expect(failedThresholds(m, [])).toEqual([]);
  });
});

describe('parseCases', () => {
  it('reads one JSON object per line, skipping blank lines, with each case’s line number', () => {
    const text =
      '{"query": "weather", "relevant": ["w"]}\r\n\n   \n{"query": "mail", "relevant": ["m", "n"], "x": 1}\n';
    expect(parseCases('c.jsonl', text)).toEqual([
      { query: 'weather', relevant: ['w'], line: 1 },
      { query: 'mail', relevant: ['m', 'n'], line: 4 },
    ]);
    expect(parseCases('c.jsonl', '')).toEqual([]);
  });

  it('refuses a bad line with its location and exit 2', () => {
    const bad = [
      'not json',
      '[1, 2]',
      'null',
      '"text"',
      '{"relevant": ["w"]}',
      '{"query": "  ", "relevant": ["w"]}',
      '{"query": 3, "relevant": ["w"]}',
      '{"query": "q"}',
      '{"query": "q", "relevant": []}',
      '{"query": "q", "relevant": "w"}',
      '{"query": "q", "relevant": ["w", 3]}',
    ];
    for (const line of bad)
      expect(
        thrown(() => parseCases('c.jsonl', `{"query": "ok", "relevant": ["w"]}\n\n${line}\n`)),
        line,
      ).toEqual({
        code: 'invalid_case',
        exit: ExitCode.usage,
        line: 3,
      });
  });
});

describe('exampleCases', () => {
  it('makes each non-empty example a case that wants its own tool', () => {
    const c = (id: string, examples: unknown) => ({ id, examples }) as unknown as ToolContract;
    expect(exampleCases([c('a', ['rain?', ' ', 7, '']), c('b', 'not a list'), c('d', ['mail'])])).toEqual([
      { query: 'rain?', relevant: ['a'], line: 0, source: 'example' },
      { query: 'mail', relevant: ['d'], line: 0, source: 'example' },
    ]);
  });
});
