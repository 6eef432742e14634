// `eval` as a gate: compare against a git ref or a saved result, and check metric thresholds.
import type { Project } from '../config.js';
import { ExitCode, ToolboxError } from '../errors.js';
import type { Caller } from '../policy/permissions.js';
import { compareRuns, readSavedEval, registryAtRef, type QueryChange } from './compare.js';
import { evaluate, exampleCases, registryContracts, type EvalCase, type EvalReport } from './evaluate.js';
import type { Metrics } from './metrics.js';

export interface GateOptions {
  top?: number;
  env?: NodeJS.ProcessEnv;
  caller?: Caller;
  /** Count the contracts' routing examples as labelled queries (default true). */
  examples?: boolean;
  /** Explain the misses of the current registry (`eval --report`); the base's are not explained. */
  explain?: boolean;
}

/**
 * Evaluate `cases` (plus routing examples) on the project and on `against` (a file saved with
 * `eval --json`, or a git ref whose registry folder is checked out into a temp folder), and list
 * the queries whose first tool or R@5 changed. The examples of both registries are used on both.
 */
export async function evaluateAgainst(
  project: Project,
  cases: EvalCase[],
  against: string,
  opts: GateOptions = {},
): Promise<{ report: EvalReport; base: { metrics?: Metrics; label: string }; changes: QueryChange[] }> {
  const saved = readSavedEval(against);
  const withExamples = opts.examples !== false;
  if (saved) {
    const report = await evaluate(project, cases, { ...opts, examples: withExamples });
    return { report, base: { label: against, metrics: saved.metrics }, changes: compareRuns(saved, report) };
  }
  const at = await registryAtRef(project, against);
  try {
    const examples = withExamples
      ? dedupe([
          ...exampleCases(await registryContracts(project)),
          ...exampleCases(await registryContracts(at.project)),
        ])
      : [];
    const all = [...cases, ...examples];
    const report = await evaluate(project, all, opts);
    const base = await evaluate(at.project, all, { ...opts, explain: false });
    return { report, base: { label: against, metrics: base.metrics }, changes: compareRuns(base, report) };
  } finally {
    at.cleanup();
  }
}

const dedupe = (cases: EvalCase[]) => {
  const seen = new Set<string>();
  return cases.filter((c) => {
    const k = `${c.query}\n${c.relevant.join(',')}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/** `--min ndcg@10=0.8`: parse one threshold. */
export function parseThreshold(spec: string): { metric: keyof Metrics; min: number } {
  const m = /^\s*([a-z@0-9]+)\s*=\s*([0-9.]+)\s*$/i.exec(spec);
  const names = ['r@1', 'r@5', 'r@10', 'p@1', 'ndcg@10', 'mrr'];
  const metric = m?.[1]?.toLowerCase();
  const min = Number(m?.[2]);
  if (!m || !metric || !names.includes(metric) || !Number.isFinite(min) || min < 0 || min > 1)
    throw new ToolboxError('invalid_threshold', `--min '${spec}' is not <metric>=<number between 0 and 1>`, {
      exitCode: ExitCode.usage,
      hint: `For example --min ndcg@10=0.8; metrics: ${names.join(', ')}.`,
    });
  return { metric: metric as keyof Metrics, min };
}

/** The thresholds the metrics do not reach. */
export function failedThresholds(
  metrics: Metrics,
  thresholds: { metric: keyof Metrics; min: number }[],
): { metric: keyof Metrics; min: number; got: number }[] {
  return thresholds.filter((t) => metrics[t.metric] < t.min).map((t) => ({ ...t, got: metrics[t.metric] }));
}
