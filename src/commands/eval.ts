import { resolve } from 'node:path';
import { resolveProject } from '../config.js';
import { usageError } from '../errors.js';
import { printJson, type CommandContext } from '../output/context.js';
import { renderTable } from '../output/table.js';
import { evaluate, readCases, RANKERS, type Ranker } from '../select/evaluate.js';
import { parseTop } from './select.js';

const SHOW_MISSES = 20;

/** `toolbox eval <cases.jsonl>`: R@1, R@5, R@10, P@1, NDCG@10, MRR of the selector, and the misses. */
export async function evalCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const ranker = (opts.ranker ?? 'toolbox') as Ranker;
  if (!RANKERS.includes(ranker))
    throw usageError('invalid_ranker', `unknown ranker '${ranker}'`, `Use one of: ${RANKERS.join(', ')}.`);
  const top = parseTop(opts.top ?? 10);
  const file = resolve(ctx.io.cwd, String(args[0]));
  const cases = readCases(file);
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  if (opts.user && opts.role)
    throw usageError('conflicting_options', '--user and --role are mutually exclusive', 'Pass one of them.');
  const caller =
    opts.user || opts.role
      ? { user: opts.user as string | undefined, role: opts.role as string | undefined }
      : undefined;
  const report = await evaluate(project, cases, { top, ranker, env: ctx.io.env, caller });
  if (report.unknown.length) {
    ctx.io.stderr.write(
      `warning: ${report.unknown.length} relevant id(s) are not tools of the registry: ${report.unknown.slice(0, 5).join(', ')}${report.unknown.length > 5 ? ', …' : ''}\n`,
    );
  }
  if (ctx.opts.json) {
    printJson(ctx, {
      metrics: report.metrics,
      queries: report.queries,
      misses: report.misses,
      ranker: report.ranker,
      top,
      unknown: report.unknown,
    });
    return 0;
  }
  const s = ctx.style;
  const m = report.metrics;
  ctx.io.stdout.write(
    renderTable(
      ['R@1', 'R@5', 'R@10', 'P@1', 'NDCG@10', 'MRR', 'queries'],
      [
        [m['r@1'], m['r@5'], m['r@10'], m['p@1'], m['ndcg@10'], m.mrr]
          .map((x) => x.toFixed(3))
          .concat(String(report.queries)),
      ],
      { align: ['r', 'r', 'r', 'r', 'r', 'r', 'r'], header: s.dim },
    ),
  );
  if (!report.misses.length) return 0;
  ctx.io.stdout.write(`\n${report.misses.length} of ${report.queries} queries missed (first tool not relevant):\n`);
  for (const miss of report.misses.slice(0, SHOW_MISSES)) {
    const where = miss.rank ? `relevant at #${miss.rank}` : `relevant not in the top ${top}`;
    ctx.io.stdout.write(
      `  ${s.dim(`${file}:${miss.line}`)} "${miss.query}"\n    want ${miss.relevant.join(', ')} (${where}); got ${miss.got.join(', ') || 'nothing'}\n`,
    );
  }
  if (report.misses.length > SHOW_MISSES)
    ctx.io.stdout.write(s.dim(`  … and ${report.misses.length - SHOW_MISSES} more (--json lists all)\n`));
  return 0;
}
