import { writeSync } from 'node:fs';
import { ExitCode, ExitError, InternalError, ToolboxError } from './errors.js';
import { processIO, type IO } from './io.js';
import { fastCommand } from './fast-path.js';
import { colourPolicy } from './output/context.js';
import { inertSink, jsonText } from './output/inert.js';
import { shutdownTelemetry, takeTelemetryWarning } from './telemetry/state.js';
import { takeStateWarnings } from './util/state.js';

const VERSION_FLAGS = new Set(['--version', '-V', '--json', '--no-color', '--verbose', '-v']);

/** Write an error for humans (stderr text) or machines (one JSON object on stderr). */
export function reportError(io: Pick<IO, 'stderr'>, e: ToolboxError, opts: { json: boolean; verbose: boolean }): void {
  if (opts.json) {
    const error: Record<string, unknown> = { code: e.code, message: e.message };
    if (e.hint) error.hint = e.hint;
    if (e.location) error.location = e.location;
    if (e.details) Object.assign(error, { details: e.details });
    io.stderr.write(jsonText({ error }) + '\n');
  } else {
    io.stderr.write(`error: ${e.message}\n`);
    // A project file's own lines go to a person at a terminal only, never to a log or a program reading stderr.
    if (e.terminal && io.stderr.isTTY) io.stderr.write(`${e.terminal}\n`);
    if (e.hint) io.stderr.write(`hint: ${e.hint}\n`);
  }
  // --verbose: the stack of what went wrong underneath (a ToolboxError's own stack says little).
  if (opts.verbose && e.cause instanceof Error && e.cause.stack) io.stderr.write(`caused by: ${e.cause.stack}\n`);
}

/** `--json` (or `--format json`) and `--verbose` among toolbox's own arguments (those before `--`). */
function outputFlags(argv: string[]): { own: string[]; flags: { json: boolean; verbose: boolean } } {
  // Everything after `--` belongs to another program (e.g. the server command of `import mcp`).
  const end = argv.indexOf('--');
  const own = end < 0 ? argv : argv.slice(0, end);
  const json =
    own.includes('--json') || own.some((a, i) => a === '--format=json' || (a === '--format' && own[i + 1] === 'json'));
  return { own, flags: { json, verbose: own.includes('--verbose') || own.includes('-v') } };
}

/**
 * Run the CLI with `argv` (without node and script) against `io`; resolves to the exit code.
 * This is the only catch-all: every error becomes a message and a documented exit code.
 */
export async function run(argv: string[], given: IO): Promise<number> {
  const { own, flags } = outputFlags(argv);
  // Everything any command prints passes through here: made inert (no terminal control sequences
  // from contracts, tools or servers), toolbox's own colours kept when colour is on.
  const { colour } = colourPolicy(given, { color: !own.includes('--no-color'), json: flags.json });
  const io: IO = { ...given, stdout: inertSink(given.stdout, colour), stderr: inertSink(given.stderr, colour) };
  // `toolbox --version --json`: commander's version flag prints plain text.
  if (flags.json && own.some((a) => a === '--version' || a === '-V') && own.every((a) => VERSION_FLAGS.has(a))) {
    const { packageName, packageVersion } = await import('./util/version.js');
    io.stdout.write(JSON.stringify({ name: packageName(), version: packageVersion() }) + '\n');
    return 0;
  }
  const code = await runCommand(argv, io, flags);
  // A short-lived CLI exits right after: spans and metrics must be exported first.
  await shutdownTelemetry();
  const warnings = [takeTelemetryWarning(), ...takeStateWarnings()].filter(Boolean);
  // --json: a failed command's stderr is its one {"error": …} document, nothing after it.
  if (!(flags.json && code !== 0)) for (const w of warnings) io.stderr.write(`warning: ${w}\n`);
  return code;
}

async function runCommand(argv: string[], io: IO, flags: { json: boolean; verbose: boolean }): Promise<number> {
  let code = 0;
  try {
    // Test hook (set only by the test suite): behave as if toolbox had a bug. It does nothing but throw.
    if (io.env.TOOLBOX_TEST_INTERNAL_ERROR === '1') throw new Error('TOOLBOX_TEST_INTERNAL_ERROR is set');
    // select and run skip commander (see fast-path.ts); everything else goes through the tree.
    const fast = fastCommand(argv);
    if (fast) {
      const { dispatch } = await import('./dispatch.js');
      return await dispatch(io, fast.file, fast.fn, fast.args, fast.opts, {
        getOptionValueSource: (k) => (fast.given.has(k) ? 'cli' : 'default'),
      });
    }
    const { buildProgram } = await import('./cli.js');
    const program = buildProgram(
      io,
      (c) => {
        code = c;
      },
      { json: flags.json },
    );
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    return handleError(e, io, flags);
  }
}

function handleError(e: unknown, io: IO, flags: { json: boolean; verbose: boolean }): number {
  if (e instanceof ExitError) return e.exitCode;
  if (e instanceof ToolboxError) {
    reportError(io, e, flags);
    return e.exitCode;
  }
  const err = e as { name?: string; code?: string; exitCode?: number; message?: string };
  // commander: help/version printed, or a usage problem it already described.
  if (typeof err.code === 'string' && err.code.startsWith('commander.')) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
      return 0;
    if (flags.json)
      reportError(
        io,
        new ToolboxError('usage', String(err.message ?? '').replace(/^error: /, ''), { hint: 'Run `toolbox --help`.' }),
        flags,
      );
    return ExitCode.usage;
  }
  if (err.name === 'ExitPromptError' || err.name === 'AbortError' || err.name === 'AbortPromptError') {
    if (flags.json)
      reportError(io, new ToolboxError('cancelled', 'cancelled', { exitCode: ExitCode.cancelled }), flags);
    else io.stderr.write('cancelled\n');
    return ExitCode.cancelled;
  }
  const internal = e instanceof InternalError ? e : new InternalError(err.message ?? String(e), { cause: e });
  reportError(
    io,
    new ToolboxError('internal_error', `internal error: ${internal.message}`, {
      exitCode: ExitCode.internal,
      hint: 'This is a bug in toolbox. Re-run with --verbose for the stack and report it.',
    }),
    flags,
  );
  if (flags.verbose && e instanceof Error && e.stack) io.stderr.write(e.stack + '\n');
  return ExitCode.internal;
}

/** A write to stdout or stderr failed (not EPIPE, which is a reader that left). */
export function outputError(stream: 'stdout' | 'stderr', e: NodeJS.ErrnoException): ToolboxError {
  return new ToolboxError('output_failed', `cannot write the output to ${stream} (${e.code ?? e.message})`, {
    exitCode: ExitCode.output,
    hint: `Check where ${stream} goes: a full disk, or a file, pipe or terminal that was closed.`,
    cause: e,
  });
}

/** Entry point of bin/toolbox.js. Ctrl+C aborts the running command and exits 130. */
export async function main(argv: string[]): Promise<number> {
  const ac = new AbortController();
  let interrupted = false;
  // The signal's name is the abort reason: `serve --http` drains on SIGTERM and stops at once on SIGINT.
  const onSig = (name: NodeJS.Signals) => {
    if (interrupted) process.exit(ExitCode.cancelled);
    interrupted = true;
    ac.abort(name);
  };
  process.on('SIGINT', onSig);
  process.on('SIGTERM', onSig);
  // `toolbox list | head`: the reader went away; that is not an error. Any other write error
  // (`> /dev/full`: ENOSPC, EIO…) is said on the other stream, if it still works, and exits 74.
  for (const [fd, stream] of [[1, process.stdout] as const, [2, process.stderr] as const]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      if (fd === 1) {
        const err = outputError('stdout', e);
        const stderr = {
          write: (s: string) => {
            try {
              writeSync(2, s);
            } catch {
              /* stderr is gone too: the exit code says it */
            }
          },
        };
        reportError({ stderr }, err, {
          json: outputFlags(argv).flags.json,
          verbose: false,
        });
      }
      process.exit(ExitCode.output);
    });
  }
  let graceful = false;
  const io: IO = { ...processIO(ac.signal), stoppedGracefully: () => (graceful = true) };
  const code = await run(argv, io);
  return interrupted && !graceful ? ExitCode.cancelled : code;
}
