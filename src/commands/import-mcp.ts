import { resolveProject } from '../config.js';
import { printJson, spinner, type CommandContext } from '../output/context.js';
import { renderTable } from '../output/table.js';
import type { ImportStatus } from '../mcp/import.js';

/** `toolbox import mcp [--prefix P] [--out DIR] [--force] -- <command …>` or `--url U`. */
export async function importMcpCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const command = (args[0] as string[] | undefined) ?? [];
  const { importMcp } = await import('../mcp/import.js');
  const spin = await spinner(ctx, `connecting to ${opts.url ?? command.join(' ')}`);
  let report;
  try {
    report = await importMcp(project, {
      command,
      url: opts.url as string | undefined,
      prefix: opts.prefix as string | undefined,
      out: opts.out as string | undefined,
      force: Boolean(opts.force),
      network: Boolean(opts.network),
      paths: (opts.path as string[] | undefined) ?? [],
      cwd: ctx.io.cwd,
      check: Boolean(opts.check),
      signal: ctx.io.signal,
    });
    spin.stop();
  } catch (e) {
    spin.fail();
    throw e;
  }
  if (report.upstream) {
    const changed = report.upstream.length > 0 ? 1 : 0;
    if (ctx.opts.json) printJson(ctx, { server: report.server, changes: report.upstream });
    else
      ctx.io.stdout.write(
        (await import('../lock/render.js')).upstreamCheckText(report.server, report.upstream, ctx.style),
      );
    return changed;
  }
  const failed = report.counts.conflict > 0 ? 1 : 0;
  if (ctx.opts.json) {
    printJson(ctx, report);
    return failed;
  }
  const s = ctx.style;
  const colour: Record<ImportStatus, (t: string) => string> = {
    written: s.green,
    updated: s.cyan,
    unchanged: s.dim,
    kept: s.yellow,
    overwritten: s.magenta,
    conflict: s.red,
  };
  const rel = (f: string) => (f.startsWith(project.root + '/') ? f.slice(project.root.length + 1) : f);
  ctx.io.stdout.write(
    renderTable(
      ['status', 'id', 'server tool', 'file'],
      report.tools.map((t) => [colour[t.status](t.status), t.id, t.tool, rel(t.file)]),
      { header: s.bold },
    ),
  );
  const summary = (Object.entries(report.counts) as [ImportStatus, number][])
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  ctx.io.stderr.write(
    `${report.tools.length} tools from MCP server '${report.server.name}' ${report.server.version}: ${summary}\n`,
  );
  for (const t of report.tools) if (t.note) ctx.io.stderr.write(`${colour[t.status](t.status)} ${t.id}: ${t.note}\n`);
  return failed;
}
