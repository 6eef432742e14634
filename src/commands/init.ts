import { join, relative, resolve } from 'node:path';
import type { LoaderType } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { askInit, initDefaults, initProject } from '../scaffold/init.js';
import { printJson, type CommandContext } from '../output/context.js';
import { invocation } from '../output/invocation.js';
import { SAMPLE_ARGS } from '../scaffold/tool.js';

/**
 * `toolbox init [DIR] [--yes] [--force] [--registry-dir NAME] [--loader TYPE] [--tool ID]`.
 * Asks on a TTY (unless --yes/--json), then writes; never overwrites without --force and exits 2
 * naming the files it kept.
 */
export async function initCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const dir = resolve(ctx.io.cwd, String(args[0] ?? '.'));
  const defaults = initDefaults({
    registryDir: opts.registryDir as string | undefined,
    tool: opts.tool as string | undefined,
    loader: opts.loader as LoaderType | undefined,
  });
  const interactive = !opts.yes && !ctx.opts.json && Boolean(ctx.io.stdinIsTTY) && Boolean(ctx.io.stdout.isTTY);
  const answers = interactive ? await askInit(defaults, ctx.io) : defaults;
  const r = initProject(dir, answers, { force: Boolean(opts.force) });
  const rel = (p: string) => relative(ctx.io.cwd, p) || p;
  const list = (fs: typeof r.created) => fs.map((f) => ({ file: f.path, role: f.role }));
  const report = {
    dir,
    created: list(r.created),
    overwritten: list(r.overwritten),
    kept: list(r.kept),
    gitignore: r.gitignore,
  };
  // Under --json a run that kept files is an error: the report goes into the one error object.
  if (ctx.opts.json && !r.kept.length) {
    printJson(ctx, report);
  } else if (!ctx.opts.json) {
    const s = ctx.style;
    for (const f of r.created) ctx.io.stdout.write(`${s.green('created')}      ${rel(f.path)}  ${s.dim(f.role)}\n`);
    for (const f of r.overwritten)
      ctx.io.stdout.write(`${s.yellow('overwritten')}  ${rel(f.path)}  ${s.dim(f.role)}\n`);
    for (const f of r.kept)
      ctx.io.stdout.write(`${s.yellow('kept')}         ${rel(f.path)}  ${s.dim('exists, not overwritten')}\n`);
    if (r.gitignore === 'refused')
      ctx.io.stdout.write(
        `${s.yellow('refused'.padEnd(12))} ${rel(join(dir, '.gitignore'))}  ${s.dim('a link or not a regular file: not read; add .toolbox/ to it yourself')}\n`,
      );
    else if (r.gitignore !== 'unchanged')
      ctx.io.stdout.write(
        `${s.green(r.gitignore.padEnd(12))} ${rel(join(dir, '.gitignore'))}  ${s.dim('.toolbox/')}\n`,
      );
  }
  if (r.kept.length) {
    throw new ToolboxError(
      'file_exists',
      `kept ${r.kept.length} existing file(s): ${r.kept.map((f) => rel(f.path)).join(', ')}`,
      {
        exitCode: ExitCode.usage,
        hint: 'Your files were left as they were. Pass --force to overwrite them with the templates.',
        details: ctx.opts.json ? report : { kept: r.kept.map((f) => f.path) },
      },
    );
  }
  if (!ctx.opts.json) {
    const cd = dir === resolve(ctx.io.cwd) ? '' : `cd ${rel(dir)} && `;
    const tb = invocation(dir, ctx.io.env);
    ctx.io.stderr.write(`Next: ${cd}${tb} validate && ${tb} run ${answers.tool} ${SAMPLE_ARGS[answers.loader]}\n`);
  }
  return ExitCode.ok;
}
