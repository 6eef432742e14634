// The human report of `toolbox eval`: the metrics table, the first misses, and with --compare the
// queries whose first tool or R@5 changed.
import type { QueryChange } from '../select/compare.js';
import type { EvalReport } from '../select/evaluate.js';
import type { CommandContext } from './context.js';
import { renderTable } from './table.js';

/** Misses printed before "… and N more". */
const SHOW = 20;

/** The metrics and the first misses. */
export function printReport(ctx: CommandContext, report: EvalReport, top: number): void {
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
  if (!report.misses.length) return;
  ctx.io.stdout.write(`\n${report.misses.length} of ${report.queries} queries missed (first tool not relevant):\n`);
  for (const miss of report.misses.slice(0, SHOW)) {
    const where = miss.rank ? `relevant at #${miss.rank}` : `relevant not in the top ${top}`;
    const at = miss.file ? `${miss.file}:${miss.line}` : 'example';
    ctx.io.stdout.write(
      `  ${s.dim(at)} "${miss.query}"\n    want ${miss.relevant.join(', ')} (${where}); got ${miss.got.join(', ') || 'nothing'}\n`,
    );
  }
  if (report.misses.length > SHOW)
    ctx.io.stdout.write(s.dim(`  … and ${report.misses.length - SHOW} more (--json lists all)\n`));
}

/** What changed against the --compare reference. */
export function printChanges(ctx: CommandContext, changes: QueryChange[], base: { label: string }): void {
  const s = ctx.style;
  if (!changes.length) {
    ctx.io.stdout.write(`\nno query changed its first tool or R@5 against ${base.label}\n`);
    return;
  }
  const n = (v: QueryChange['verdict']) => changes.filter((c) => c.verdict === v).length;
  ctx.io.stdout.write(
    `\n${changes.length} queries changed against ${base.label}: ${n('worse')} worse, ${n('better')} better, ${n('moved')} moved\n`,
  );
  for (const c of changes) {
    const tag = c.verdict === 'worse' ? s.red('worse') : c.verdict === 'better' ? s.green('better') : 'moved';
    ctx.io.stdout.write(
      `  ${tag} "${c.query}"${c.source === 'example' ? s.dim(' (example)') : ''}: first ${c.before.top1 ?? 'nothing'} → ${c.after.top1 ?? 'nothing'}, R@5 ${c.before.r5.toFixed(2)} → ${c.after.r5.toFixed(2)}\n    ${c.causes.length ? `because ${c.causes.join('; ')}` : 'no contract among these tools changed (collection statistics or the ranker did)'}\n`,
    );
  }
}
