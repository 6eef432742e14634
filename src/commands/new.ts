import { relative } from 'node:path';
import { resolveProject } from '../config.js';
import type { LoaderType } from '../contract/types.js';
import { newTool } from '../scaffold/new-tool.js';
import { printJson, type CommandContext } from '../output/context.js';
import { invocation } from '../output/invocation.js';

/** `toolbox new <id> --loader <type> [--description …] [--name …] [--force]`. */
export async function newCommand(ctx: CommandContext, args: unknown[], opts: Record<string, unknown>): Promise<number> {
  const project = resolveProject(
    { cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config },
    { mustExist: false },
  );
  const r = await newTool(project, {
    id: String(args[0]),
    loader: (opts.loader as LoaderType | undefined) ?? 'python_function',
    name: opts.name as string | undefined,
    description: opts.description as string | undefined,
    force: Boolean(opts.force),
    cwd: ctx.io.cwd,
  });
  const rel = (p: string) => relative(ctx.io.cwd, p) || p;
  if (ctx.opts.json) {
    printJson(ctx, {
      created: r.created.map((f) => ({ file: f.path, role: f.role })),
      overwritten: r.overwritten.map((f) => ({ file: f.path, role: f.role })),
      diagnostics: r.diagnostics,
    });
    return 0;
  }
  const s = ctx.style;
  for (const f of r.created) ctx.io.stdout.write(`${s.green('created')}      ${rel(f.path)}  ${s.dim(f.role)}\n`);
  for (const f of r.overwritten) ctx.io.stdout.write(`${s.yellow('overwritten')}  ${rel(f.path)}  ${s.dim(f.role)}\n`);
  for (const d of r.diagnostics) {
    ctx.io.stderr.write(`${rel(d.file)}:${d.line}:${d.column}: ${d.severity}: ${d.message} (${d.rule})\n`);
  }
  const tb = invocation(ctx.io.cwd, ctx.io.env);
  const edit = [...r.created, ...r.overwritten].map((f) => rel(f.path)).join(' and ');
  if (opts.description === undefined)
    ctx.io.stderr.write(`No --description: write what ${String(args[0])} does and when to use it in the contract.\n`);
  // A stub: validate fails on its TODOs until the schema (and the code) are the tool's own.
  ctx.io.stderr.write(
    `Next: fill in the TODOs of ${edit} (the arguments, then the code), then: ${tb} validate && ${tb} run ${String(args[0])} --help\n`,
  );
  return 0;
}
