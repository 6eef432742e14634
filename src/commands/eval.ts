import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveProject } from '../config.js';
import { usageError } from '../errors.js';
import { printJson, type CommandContext } from '../output/context.js';
import { printChanges, printReport } from '../output/eval.js';
import type { QueryChange } from '../select/compare.js';
import { evaluate, readCases, RANKERS, type EvalCase, type EvalReport, type Ranker } from '../select/evaluate.js';
import { evaluateAgainst, failedThresholds, parseThreshold } from '../select/gate.js';
import { parseTop } from './select.js';

/**
 * `toolbox eval [cases.jsonl]`: R@1, R@5, R@10, P@1, NDCG@10, MRR of the selector over the labelled
 * queries (the cases file and the contracts' routing examples), the misses, and as a gate:
 * `--compare <ref|saved.json>` lists every query whose first tool or R@5 changed, `--fail-on-regression`
 * and `--min metric=x` exit 1.
 */
export async function evalCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const ranker = (opts.ranker ?? 'toolbox') as Ranker;
  if (!RANKERS.includes(ranker))
    throw usageError('invalid_ranker', `unknown ranker '${ranker}'`, `Use one of: ${RANKERS.join(', ')}.`);
  const top = parseTop(opts.top ?? 10);
  const thresholds = ((opts.min as string[] | undefined) ?? []).map(parseThreshold);
  const files = ((args[0] as string[] | undefined) ?? []).map(String);
  const cases: EvalCase[] = files.flatMap((f) => readCases(resolve(ctx.io.cwd, f), f));
  const examples = opts.examples !== false;
  if (!files.length && !examples)
    throw usageError('no_cases', 'nothing to evaluate: no cases file and --no-examples', 'Pass a cases file.');
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  if (opts.user && opts.role)
    throw usageError('conflicting_options', '--user and --role are mutually exclusive', 'Pass one of them.');
  const caller =
    opts.user || opts.role
      ? { user: opts.user as string | undefined, role: opts.role as string | undefined }
      : undefined;
  const reportFile = opts.report === undefined ? undefined : resolve(ctx.io.cwd, String(opts.report));
  const { checkReportPath, writeEvalReport } = reportFile ? await import('../report/index.js') : {};
  if (reportFile) checkReportPath!(reportFile, Boolean(opts.force)); // before the work, not after
  const common = { top, env: ctx.io.env, caller, examples, explain: Boolean(reportFile) };
  let report: EvalReport;
  let changes: QueryChange[] | undefined;
  let base: { label: string; metrics?: EvalReport['metrics'] } | undefined;
  if (opts.compare !== undefined) {
    if (ranker !== 'toolbox') throw usageError('conflicting_options', '--compare needs the toolbox ranker');
    const against = String(opts.compare);
    const saved = resolve(ctx.io.cwd, against);
    ({ report, changes, base } = await evaluateAgainst(project, cases, existsSync(saved) ? saved : against, common));
    base = { ...base, label: against };
  } else report = await evaluate(project, cases, { ...common, ranker });
  if (!report.queries)
    throw usageError(
      'no_cases',
      'nothing to evaluate: no cases file and no contract has examples',
      'Pass a cases file.',
    );
  if (report.unknown.length) {
    ctx.io.stderr.write(
      `warning: ${report.unknown.length} relevant id(s) are not tools of the registry: ${report.unknown.slice(0, 5).join(', ')}${report.unknown.length > 5 ? ', …' : ''}\n`,
    );
  }
  if (reportFile) {
    const bytes = await writeEvalReport!(reportFile, {
      project,
      report,
      top,
      caller,
      compare: changes ? { against: base!.label, before: base!.metrics, changes } : undefined,
      cwd: ctx.io.cwd,
      env: ctx.io.env,
      force: Boolean(opts.force),
    });
    if (!ctx.opts.json) ctx.io.stderr.write(`report: ${String(opts.report)} (${Math.ceil(bytes / 1024)} KB)\n`);
  }
  const failed = failedThresholds(report.metrics, thresholds);
  const worse = changes?.filter((c) => c.verdict === 'worse') ?? [];
  const code = failed.length || (opts.failOnRegression && worse.length) ? 1 : 0;
  if (ctx.opts.json) {
    const { metrics, queries, misses, unknown, results, tools } = report;
    printJson(ctx, {
      metrics,
      queries,
      misses: misses.map(({ detail: _, ...m }) => m),
      ranker,
      top,
      unknown,
      ...(changes ? { compare: { against: base!.label, metrics: base!.metrics, changes } } : {}),
      ...(thresholds.length ? { thresholds: { failed } } : {}),
      results,
      tools,
    });
    return code;
  }
  printReport(ctx, report, top);
  if (changes) printChanges(ctx, changes, base!);
  for (const f of failed)
    ctx.io.stdout.write(`${ctx.style.red('below threshold:')} ${f.metric} ${f.got.toFixed(3)} < ${f.min}\n`);
  return code;
}
