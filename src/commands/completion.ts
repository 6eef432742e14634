import type { Command } from 'commander';
import { resolveProject } from '../config.js';
import { usageError } from '../errors.js';
import { completionScript, SHELLS, type CompletionSpec, type Shell } from '../output/completion.js';
import type { CommandContext } from '../output/context.js';
import { loadRegistry } from '../registry/registry.js';
import { RUN_FLAGS } from '../runtime/run-argv.js';

const TAKES_TOOL_ID = new Set(['run', 'show', 'deps']);

/** `toolbox completion bash|zsh|fish` prints the script; `--ids` prints the tool ids (used by the scripts). */
export async function completionCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
  cmd: Command,
): Promise<number> {
  if (opts.ids) {
    // Completion must never print an error into the user's command line: no registry, no ids.
    try {
      const reg = loadRegistry(
        resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config }),
      );
      ctx.io.stdout.write([...reg.byId.keys()].sort().join('\n') + '\n');
    } catch {
      /* nothing to complete */
    }
    return 0;
  }
  const shell = String(args[0] ?? '');
  if (!(SHELLS as readonly string[]).includes(shell))
    throw usageError(
      'invalid_shell',
      shell ? `no completion for shell '${shell}'` : 'which shell?',
      `Use one of: ${SHELLS.join(', ')}. For example: source <(toolbox completion bash)`,
    );
  ctx.io.stdout.write(completionScript(shell as Shell, specOf(cmd.parent!)));
  return 0;
}

function flagsOf(c: Command): string[] {
  return c.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));
}

function specOf(program: Command): CompletionSpec {
  const commands: CompletionSpec['commands'] = [];
  for (const c of program.commands) {
    // `run` passes every flag to the tool, so commander knows none of its own: take them from run-argv.
    const own = c.name() === 'run' ? [...RUN_FLAGS] : flagsOf(c);
    const choices: Record<string, string[]> = {};
    for (const o of [...c.options, ...c.commands.flatMap((s) => s.options)])
      if (o.long && o.argChoices) choices[o.long] = o.argChoices;
    commands.push({
      name: c.name(),
      description: c.description(),
      flags: [...new Set([...own, ...c.commands.map((s) => s.name()), ...c.commands.flatMap(flagsOf), '--help'])],
      takesToolId: TAKES_TOOL_ID.has(c.name()),
      choices,
    });
  }
  return { global: flagsOf(program), commands };
}
