import { resolve } from 'node:path';
import { resolveProject } from '../config.js';
import { printJson, type CommandContext } from '../output/context.js';
import { renderTable } from '../output/table.js';
import { statsSource, summarise } from '../runtime/stats.js';
import { openState } from './shared-state.js';

const pct = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)}%`);
const ms = (x: number | null) => (x === null ? '-' : x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);

/**
 * `toolbox stats [--state URL]`: per-tool numbers from the call log and the breaker state (this
 * project's, or a deployment's).
 */
export async function statsCommand(
  ctx: CommandContext,
  _args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const opened = await openState(ctx, opts.state, project.root);
  let source;
  try {
    source = await statsSource(project, { shared: opened?.state });
  } finally {
    await opened?.release();
  }
  const stats = summarise(source.records, source.breaker);
  if (opts.report !== undefined) {
    const { writeStatsReport } = await import('../report/index.js');
    const file = resolve(ctx.io.cwd, String(opts.report));
    const bytes = writeStatsReport(file, source, {
      project: project.root,
      cwd: ctx.io.cwd,
      env: ctx.io.env,
      force: Boolean(opts.force),
    });
    if (!ctx.opts.json) ctx.io.stderr.write(`report: ${String(opts.report)} (${Math.ceil(bytes / 1024)} KB)\n`);
  }
  if (ctx.opts.json) {
    printJson(ctx, { tools: stats });
    return 0;
  }
  if (stats.length === 0) {
    ctx.io.stderr.write(`No calls recorded yet (${source.label} is empty). Run a tool with \`toolbox run <id>\`.\n`);
    return 0;
  }
  const s = ctx.style;
  const breaker = (b: string, at?: string) =>
    b === 'open'
      ? s.red(`open until ${at?.slice(11, 19) ?? '?'}Z`)
      : b === 'half_open'
        ? s.yellow('half-open')
        : 'closed';
  const rows = stats.map((t) => [
    t.tool,
    String(t.calls),
    pct(t.successRate),
    t.refused ? s.yellow(String(t.refused)) : '0',
    String(t.rejected),
    ms(t.p50Ms),
    ms(t.p95Ms),
    ms(t.coldLoadMs),
    pct(t.cacheHitRate),
    breaker(t.breaker, t.reopensAt),
  ]);
  ctx.io.stdout.write(
    renderTable(
      ['tool', 'calls', 'success', 'refused', 'caller err', 'p50', 'p95', 'cold load', 'cache hits', 'breaker'],
      rows,
      {
        align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
        header: (h) => s.bold(h),
      },
    ),
  );
  // Success counts only calls that reached the tool's own code; say why a tool has none.
  const unjudged = stats.filter((t) => t.successRate === null && t.refused > 0).map((t) => t.tool);
  if (unjudged.length)
    ctx.io.stderr.write(
      `${unjudged.join(', ')}: every call was refused by the sandbox or a policy (exit 7) or was a caller error; \`toolbox run <id> --verbose\` shows why.\n`,
    );
  return 0;
}
