import type { IO } from '../io.js';
import { inert, jsonText, rawSink } from './inert.js';
import { makeStyle, type Style } from './style.js';

/** Options every command accepts. */
export interface GlobalOptions {
  json: boolean;
  verbose: boolean;
  color: boolean;
  registry?: string;
  config?: string;
}

/** What a command gets: the outside world, the global options and a colour policy. */
export interface CommandContext {
  io: IO;
  opts: GlobalOptions;
  /** Colour functions; all identity when colour is off. */
  style: Style;
  /** True when the styles emit colour (a terminal, or FORCE_COLOR). */
  colour?: boolean;
  /** True when humans get colour, tables and spinners (stdout a TTY, no NO_COLOR/CI/--json/--no-color). */
  fancy: boolean;
}

/**
 * Colour and spinners only for a human at a terminal: never when stdout is not a TTY, under
 * NO_COLOR, CI, TERM=dumb, --no-color or --json. FORCE_COLOR forces colour (not spinners).
 */
export function colourPolicy(io: IO, opts: { color: boolean; json: boolean }): { fancy: boolean; colour: boolean } {
  const env = io.env;
  const noColor = 'NO_COLOR' in env && env.NO_COLOR !== '';
  const ci = Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
  const fancy = Boolean(io.stdout.isTTY) && !noColor && !ci && opts.color && !opts.json && env.TERM !== 'dumb';
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && !noColor && opts.color && !opts.json;
  return { fancy, colour: fancy || forced };
}

/** The context of one command: its IO, its options and the colour policy above. */
export function makeContext(io: IO, opts: GlobalOptions): CommandContext {
  const { fancy, colour } = colourPolicy(io, opts);
  return { io, opts, style: makeStyle(colour), fancy, colour };
}

/** Print one JSON document on stdout (exact: see jsonText). */
export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout.write(jsonText(value, 2) + '\n');
}

/** A spinner on stderr for humans; a no-op otherwise. ora is imported only when one is shown. */
export async function spinner(
  ctx: CommandContext,
  text: string,
): Promise<{ update(t: string): void; succeed(t?: string): void; fail(t?: string): void; stop(): void }> {
  const stderrTTY = Boolean(ctx.io.stderr.isTTY);
  // A terminal that reports 0 columns (some pseudo-terminals, `script`) makes ora's line count
  // wrong: it would erase lines forever. No width, no spinner.
  const width = ctx.io.stderr.columns ?? 0;
  if (!ctx.fancy || !stderrTTY || width <= 0) {
    return { update() {}, succeed() {}, fail() {}, stop() {} };
  }
  const { default: ora } = await import('ora');
  // discardStdin: false. ora's default puts stdin in raw mode to swallow keystrokes, and in raw mode
  // the terminal no longer turns Ctrl+C into SIGINT: the command would run on to the end.
  // ora draws with cursor controls, so it writes to the stream itself; its text is made inert here.
  const clean = (t: string | undefined) => (t === undefined ? undefined : inert(t));
  const s = ora({ text: inert(text), stream: rawSink(ctx.io.stderr) as NodeJS.WritableStream, discardStdin: false });
  s.start();
  return {
    update: (t) => {
      s.text = inert(t);
    },
    succeed: (t) => s.succeed(clean(t)),
    fail: (t) => s.fail(clean(t)),
    stop: () => s.stop(),
  };
}
