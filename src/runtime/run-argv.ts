import { ExitCode, ToolboxError } from '../errors.js';

/** `run`'s own options, separated from the tool's flags. */
export interface RunOptions {
  timeout?: string;
  user?: string;
  role?: string;
  session?: string;
  args?: string;
  argsFile?: string;
  help: boolean;
  json: boolean;
  verbose: boolean;
  /** Refuse the tool if it differs from toolbox.lock. */
  locked?: boolean;
  registry?: string;
  config?: string;
  /** Folder where non-text result blocks (images, audio, resources) are saved. */
  out?: string;
  /** A shared state store (redis://…): the breaker and call log of a deployment. */
  state?: string;
  noColor: boolean;
  /** Everything else: the tool's own flags, in order. */
  toolFlags: string[];
}

const VALUED: Record<string, keyof RunOptions> = {
  '--timeout': 'timeout',
  '--user': 'user',
  '--role': 'role',
  '--session': 'session',
  '--args': 'args',
  '--args-file': 'argsFile',
  '--registry': 'registry',
  '--config': 'config',
  '--out': 'out',
  '--state': 'state',
};

/** run's own flags (for shell completion). */
export const RUN_FLAGS: readonly string[] = [...Object.keys(VALUED), '--help', '--json', '--verbose', '--no-color'];

/**
 * Split the raw arguments after `run <id>` into run's own options (and the global ones, which may
 * appear anywhere) and the tool's flags. A tool parameter whose name is one of run's options
 * (timeout, user, role, session, args, help, json, ...) is passed through --args instead.
 */
export function splitRunArgv(tokens: string[]): RunOptions {
  const o: RunOptions = { help: false, json: false, verbose: false, noColor: false, toolFlags: [] };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    const eq = tok.indexOf('=');
    const name = tok.startsWith('--') && eq > 0 ? tok.slice(0, eq) : tok;
    const key = VALUED[name];
    if (key) {
      const value: string | undefined = eq > 0 && name !== tok ? tok.slice(eq + 1) : tokens[++i];
      if (value === undefined)
        throw new ToolboxError('missing_value', `${name} needs a value.`, {
          exitCode: ExitCode.usage,
          hint: 'Run `toolbox run <id> --help`.',
        });
      (o as unknown as Record<string, unknown>)[key] = value;
      continue;
    }
    if (tok === '--help' || tok === '-h') o.help = true;
    else if (tok === '--json') o.json = true;
    else if (tok === '--verbose' || tok === '-v') o.verbose = true;
    else if (tok === '--no-color') o.noColor = true;
    else if (tok === '--locked') o.locked = true;
    else o.toolFlags.push(tok);
  }
  return o;
}

/** Where `run` reads the arguments document and the tool's flags from. */
export interface ArgSources {
  readFile(path: string): string;
  readStdin?: () => Promise<string | undefined>;
  stdinIsTTY?: boolean;
}

/**
 * The tool's arguments: a JSON document (--args, --args-file F, or stdin when it is not a TTY
 * and no tool flag was given) with the flags merged over it.
 */
export async function collectToolArgs(
  schema: import('../contract/types.js').JsonSchema,
  id: string,
  o: RunOptions,
  src: ArgSources,
): Promise<Record<string, unknown>> {
  const { argsFromFlags, deepMerge, parseArgsJson } = await import('./args.js');
  let base: Record<string, unknown> = {};
  if (o.args !== undefined) base = parseArgsJson(o.args, '--args');
  else if (o.argsFile === '-') base = parseArgsJson((await src.readStdin?.()) ?? '', 'stdin');
  else if (o.argsFile !== undefined) {
    let text: string;
    try {
      text = src.readFile(o.argsFile);
    } catch (e) {
      throw new ToolboxError(
        'args_file_unreadable',
        `--args-file: cannot read ${o.argsFile}: ${(e as Error).message}`,
        { exitCode: ExitCode.usage },
      );
    }
    base = parseArgsJson(text, o.argsFile);
  } else if (o.toolFlags.length === 0 && src.stdinIsTTY === false && src.readStdin) {
    base = parseArgsJson((await src.readStdin()) ?? '', 'stdin');
  }
  return deepMerge(base, argsFromFlags(schema, o.toolFlags, id));
}
