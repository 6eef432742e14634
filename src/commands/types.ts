// The shape of every command module's entry point: commands implement it, dispatch.ts calls it.
import type { CommandContext } from '../output/context.js';

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
