import { resolveProject } from '../config.js';
import { printJson, spinner, type CommandContext } from '../output/context.js';
import { renderTable } from '../output/table.js';
import type { ImportReport, ImportStatus } from '../mcp/import.js';

/** `toolbox import mcp [options] -- <command …>`, `--npm P`, `--pypi P`, `--url U` or `--from-config F`. */
export async function importMcpCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const command = (args[0] as string[] | undefined) ?? [];
  const { importMcp } = await import('../mcp/import.js');
  const what = opts.fromConfig ?? opts.url ?? opts.npm ?? opts.pypi ?? command.join(' ');
  const spin = await spinner(ctx, `importing ${String(what)}`);
  let result;
  try {
    result = await importMcp(project, {
      command,
      url: opts.url as string | undefined,
      headers: (opts.header as string[] | undefined) ?? [],
      npm: opts.npm as string | undefined,
      pypi: opts.pypi as string | undefined,
      fromConfig: opts.fromConfig as string | undefined,
      allowScripts: Boolean(opts.allowScripts),
      prefix: opts.prefix as string | undefined,
      out: opts.out as string | undefined,
      force: Boolean(opts.force),
      network: Boolean(opts.network),
      paths: (opts.path as string[] | undefined) ?? [],
      cwd: ctx.io.cwd,
      env: ctx.io.env,
      signal: ctx.io.signal,
    });
    spin.stop();
  } catch (e) {
    spin.fail();
    throw e;
  }
  const failed = result.counts.conflict > 0 ? 1 : 0;
  if (ctx.opts.json) {
    printJson(ctx, result.config ? result : result.servers[0]);
    return failed;
  }
  for (const r of result.servers) printReport(ctx, project.root, r);
  return failed;
}

function printReport(ctx: CommandContext, root: string, report: ImportReport): void {
  const s = ctx.style;
  const colour: Record<ImportStatus, (t: string) => string> = {
    written: s.green,
    updated: s.cyan,
    unchanged: s.dim,
    kept: s.yellow,
    overwritten: s.magenta,
    conflict: s.red,
    skipped: s.yellow,
    removed: s.magenta,
    vanished: s.yellow,
  };
  const rel = (f: string) => (f.startsWith(root + '/') ? f.slice(root.length + 1) : f);
  const err = (t: string) => ctx.io.stderr.write(`${t}\n`);
  const p = report.package;
  if (p)
    err(
      `${p.installed ? 'installed' : 'already installed'} ${p.name}@${p.version} (${p.registry}) in ${rel(p.dir)}${p.installed ? `, lifecycle scripts ${p.scripts}` : ''}`,
    );
  if (ctx.opts.verbose) for (const b of report.binds) err(`bound read-only: ${b.path} (${b.why})`);
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
  err(`${report.tools.length} tools from MCP server '${report.server.name}' ${report.server.version}: ${summary}`);
  for (const t of report.tools) if (t.note) err(`${colour[t.status](t.status)} ${t.id}: ${t.note}`);
}
