import type { Command } from 'commander';
import { resolveProject } from '../config.js';
import { usageError } from '../errors.js';
import { completionScript, SHELLS, type CompletionSpec, type Shell } from '../output/completion.js';
import type { CommandContext } from '../output/context.js';
import { loadRegistry } from '../registry/registry.js';
import { flagNames } from '../runtime/args.js';
import { RUN_FLAGS } from '../runtime/run-argv.js';

const TAKES_TOOL_ID = new Set(['run', 'show', 'deps']);

/** `toolbox completion bash|zsh|fish` prints the script; `--ids` prints the tool ids (used by the scripts). */
export async function completionCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
  cmd: Command,
): Promise<number> {
  if (opts.ids || typeof opts.flags === 'string') {
    // Completion must never print an error into the user's command line: no registry, no ids.
    try {
      const reg = loadRegistry(
        resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config }),
      );
      if (opts.ids) ctx.io.stdout.write([...reg.byId.keys()].sort().join('\n') + '\n');
      else {
        // A tool's own flags, as `run` takes them (nested objects as --a.b).
        const schema = reg.byId.get(String(opts.flags))?.contract.schema;
        const names = schema ? flagNames(schema) : [];
        if (names.length) ctx.io.stdout.write(names.map((n) => `--${n}`).join('\n') + '\n');
      }
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
  const global = flagsOf(program);
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
      // The global flags are offered once, after every command's own (run-argv lists them too).
      flags: [
        ...new Set([...own, ...c.commands.map((s) => s.name()), ...c.commands.flatMap(flagsOf), '--help']),
      ].filter((f) => !global.includes(f)),
      takesToolId: TAKES_TOOL_ID.has(c.name()),
      choices,
    });
  }
  return { global, commands };
}
