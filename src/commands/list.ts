import { resolveProject } from '../config.js';
import { loadRegistry } from '../registry/registry.js';
import { brokenFilesWarning } from '../registry/broken.js';
import { definitionTokens } from '../select/tokens.js';
import { renderTable, truncate } from '../output/table.js';
import { printJson, type CommandContext } from '../output/context.js';

/**
 * `toolbox list [--tag T]`: id, loader, tags, token cost of the definition and description
 * (cut to the terminal width). Broken files are skipped with one warning line on stderr.
 */
export async function listCommand(
  ctx: CommandContext,
  _args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const reg = loadRegistry(project);
  const tag = opts.tag as string | undefined;
  const entries = reg.entries
    .filter((e) => !tag || (e.contract.tags ?? []).includes(tag))
    .sort((a, b) => a.contract.id.localeCompare(b.contract.id));
  const tools = [];
  for (const e of entries) {
    const c = e.contract;
    tools.push({
      id: c.id,
      name: c.name,
      ...(c.title ? { title: c.title } : {}),
      loader: c.loader,
      tags: c.tags ?? [],
      tokens: await definitionTokens(c),
      description: c.description,
      ...(c.annotations ? { annotations: c.annotations } : {}),
      ...(c.output_schema ? { output_schema: c.output_schema } : {}),
      ...(c.icons ? { icons: c.icons } : {}),
      file: e.file,
    });
  }
  const warning = brokenFilesWarning(
    reg.broken.map((b) => b.file),
    ctx.io.cwd,
  );
  if (warning) ctx.io.stderr.write(`warning: ${warning}\n`);
  if (ctx.opts.json) {
    printJson(ctx, { tools, broken: reg.broken.map((b) => ({ file: b.file, diagnostics: b.diagnostics })) });
    return 0;
  }
  if (tools.length === 0) {
    ctx.io.stderr.write(
      tag ? `No tools tagged '${tag}'.\n` : 'The registry has no valid tools. `toolbox new <id>` scaffolds one.\n',
    );
    return 0;
  }
  const width = ctx.io.stdout.columns ?? (Number(ctx.io.env.COLUMNS) || undefined);
  // Tags are capped so the description keeps most of the width.
  const rows = tools.map((t) => [
    t.id,
    t.loader,
    truncate(t.tags.join(','), 24),
    String(t.tokens),
    t.description.replace(/\s+/g, ' ').trim(),
  ]);
  ctx.io.stdout.write(
    renderTable(['ID', 'LOADER', 'TAGS', 'TOKENS', 'DESCRIPTION'], rows, {
      width,
      align: ['l', 'l', 'l', 'r', 'l'],
      header: (h) => ctx.style.bold(h),
    }),
  );
  const total = tools.reduce((n, t) => n + t.tokens, 0);
  ctx.io.stderr.write(`${tools.length} tool(s), ${total} tokens if all were bound at once.\n`);
  return 0;
}
