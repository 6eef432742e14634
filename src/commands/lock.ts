import { relative } from 'node:path';
import { resolveProject } from '../config.js';
import { printJson, type CommandContext } from '../output/context.js';

/**
 * `toolbox lock`: write toolbox.lock for the whole registry and say what changed against the
 * previous lock (grants first). Exit 0; a broken registry still exits 3 (nothing is written).
 */
export async function lockCommand(ctx: CommandContext): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const { loadRegistry } = await import('../registry/registry.js');
  const { ExitCode, ToolboxError } = await import('../errors.js');
  const registry = loadRegistry(project);
  if (registry.broken.length)
    throw new ToolboxError('registry_broken', `${registry.broken.length} contract file(s) are broken; not locking`, {
      exitCode: ExitCode.registry,
      hint: 'Run `toolbox validate` and fix them first: a lock of a half-read registry would hide tools.',
    });
  const { writeProjectLock } = await import('../lock/index.js');
  const report = await writeProjectLock(project, registry.entries);
  if (ctx.opts.json) {
    printJson(ctx, report);
    return 0;
  }
  const s = ctx.style;
  for (const c of report.changes)
    ctx.io.stdout.write(`${c.kind === 'grant' ? s.red(s.bold('grant  ')) : s.yellow(c.kind.padEnd(7))} ${c.message}\n`);
  const name = relative(ctx.io.cwd, report.file) || report.file;
  const tools = `${report.tools} tool${report.tools === 1 ? '' : 's'}`;
  ctx.io.stderr.write(
    report.created
      ? `created ${name}: ${tools} locked (commit it; \`toolbox validate --locked\` checks against it)\n`
      : `${name}: ${tools}` +
          (report.changes.length ? `, ${report.changes.length} changes accepted\n` : ', no changes\n'),
  );
  return 0;
}
