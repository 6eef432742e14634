import type { ImportReport, ImportStatus } from '../mcp/import.js';
import type { CommandContext } from './context.js';
import { renderTable } from './table.js';

/** One server's import for people: install line, binds (--verbose), a table on stdout, summary and notes on stderr. */
export function printImportReport(ctx: CommandContext, root: string, report: ImportReport): void {
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
