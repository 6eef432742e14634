import { stringify } from 'yaml';
import { resolveProject } from '../config.js';
import { findTool } from '../registry/registry.js';
import { printJson, type CommandContext } from '../output/context.js';

/** `toolbox show <id>`: the whole contract, with its file path. */
export async function showCommand(ctx: CommandContext, args: unknown[]): Promise<number> {
  const id = String(args[0]);
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  // The same lookup as `run`: a tool whose contract is broken is named as such, not as unknown.
  const entry = findTool(project, id);
  if (ctx.opts.json) {
    printJson(ctx, { id, file: entry.file, line: entry.line, contract: entry.contract });
    return 0;
  }
  const s = ctx.style;
  ctx.io.stdout.write(`${s.bold(entry.contract.id)}  ${s.dim(`${entry.file}:${entry.line ?? 1}`)}\n`);
  ctx.io.stdout.write(stringify(entry.contract, { lineWidth: 0 }));
  return 0;
}
