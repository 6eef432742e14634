// `select` and `run` are what agents call in a loop: their command line is parsed here, without
// loading commander (~11 ms). Anything this parser does not fully understand (help, an unknown
// option, a missing value) returns undefined and goes through the commander tree in cli.ts.

/** A command line this parser understood: the command module, its arguments and options. */
export interface FastCommand {
  file: 'select' | 'run';
  fn: 'selectCommand' | 'runCommand';
  args: unknown[];
  /** Options as commander's optsWithGlobals() would give them (defaults included). */
  opts: Record<string, unknown>;
  /** Options given on the command line (commander's getOptionValueSource() === 'cli'). */
  given: Set<string>;
}

const SELECT_VALUED: Record<string, string> = {
  '-k': 'top',
  '--top': 'top',
  '--session': 'session',
  '--user': 'user',
  '--role': 'role',
  '--format': 'format',
  '--registry': 'registry',
  '--config': 'config',
};
const SELECT_FLAGS: Record<string, [string, boolean]> = {
  '--json': ['json', true],
  '-v': ['verbose', true],
  '--verbose': ['verbose', true],
  '--no-color': ['color', false],
};
const FORMATS = ['human', 'json', 'openai', 'anthropic', 'mcp'];

/** The fast form of `argv`, or undefined when commander must handle it. */
export function fastCommand(argv: string[]): FastCommand | undefined {
  if (argv[0] === 'run' && argv.length >= 2 && !argv[1]!.startsWith('-')) {
    // run parses its own options (and the global ones) from everything after the id.
    return { file: 'run', fn: 'runCommand', args: [argv[1], argv.slice(2)], opts: { color: true }, given: new Set() };
  }
  if (argv[0] !== 'select') return undefined;
  const opts: Record<string, unknown> = { top: '5', format: 'human', color: true };
  const given = new Set<string>();
  const positional: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const tok = argv[i]!;
    if (!tok.startsWith('-') || tok === '-') {
      positional.push(tok);
      continue;
    }
    const eq = tok.startsWith('--') ? tok.indexOf('=') : -1;
    const name = eq > 0 ? tok.slice(0, eq) : tok;
    const key = SELECT_VALUED[name];
    if (key) {
      const value = eq > 0 ? tok.slice(eq + 1) : argv[++i];
      if (value === undefined || given.has(key)) return undefined;
      if (key === 'format' && !FORMATS.includes(value)) return undefined;
      opts[key] = value;
      given.add(key);
      continue;
    }
    const flag = eq < 0 ? SELECT_FLAGS[name] : undefined;
    if (!flag) return undefined; // --help, --, unknown options: commander explains
    opts[flag[0]] = flag[1];
  }
  if (positional.length !== 1) return undefined;
  return { file: 'select', fn: 'selectCommand', args: positional, opts, given };
}
