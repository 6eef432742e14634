import { InternalError } from './errors.js';
import type { CommandFn, CommandInfo } from './commands/types.js';
import type { IO } from './io.js';

/**
 * Import `commands/<file>.js` and run its `fn` with a context built from the global options in
 * `o`. Used by the commander tree and by the fast path alike, so both behave the same.
 */
export async function dispatch(
  io: IO,
  file: string,
  fn: string,
  args: unknown[],
  o: Record<string, unknown>,
  cmd: CommandInfo,
): Promise<number> {
  const { makeContext } = await import('./output/context.js');
  const ctx = makeContext(io, {
    json: Boolean(o.json) || o.format === 'json',
    verbose: Boolean(o.verbose),
    color: o.color !== false,
    registry: o.registry as string | undefined,
    config: o.config as string | undefined,
  });
  if (ctx.colour) ctx.style = await (await import('./output/style.js')).chalkStyle();
  const load = COMMANDS[file];
  if (!load) throw new InternalError(`no command module '${file}'`);
  const mod = (await load()) as unknown as Record<string, CommandFn>;
  return mod[fn]!(ctx, args, o, cmd);
}

/**
 * Every command module, each imported only when its command runs. An explicit map (not a template
 * import) so that a bundler sees each lazy import and keeps it lazy (one chunk per command).
 */
const COMMANDS: Record<string, () => Promise<unknown>> = {
  completion: () => import('./commands/completion.js'),
  daemon: () => import('./commands/daemon.js'),
  deps: () => import('./commands/deps.js'),
  doctor: () => import('./commands/doctor.js'),
  eval: () => import('./commands/eval.js'),
  'import-mcp': () => import('./commands/import-mcp.js'),
  init: () => import('./commands/init.js'),
  list: () => import('./commands/list.js'),
  lock: () => import('./commands/lock.js'),
  new: () => import('./commands/new.js'),
  run: () => import('./commands/run.js'),
  select: () => import('./commands/select.js'),
  serve: () => import('./commands/serve.js'),
  show: () => import('./commands/show.js'),
  stats: () => import('./commands/stats.js'),
  validate: () => import('./commands/validate.js'),
};
