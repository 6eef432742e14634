import type { IO } from './io.js';
import type { CommandContext } from './output/context.js';

/** What a command module's entry point may ask of commander's Command object. */
export interface CommandInfo {
  getOptionValueSource(key: string): string | undefined;
}

/** The signature every command module's entry point has. Returns the exit code. */
export type CommandFn = (
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
  cmd: CommandInfo,
) => Promise<number>;

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
  // @vite-ignore: vitest must not rewrite this into a glob of ./commands/*.js (the sources are .ts).
  const mod = (await import(/* @vite-ignore */ `./commands/${file}.js`)) as Record<string, CommandFn>;
  return mod[fn]!(ctx, args, o, cmd);
}
