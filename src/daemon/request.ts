// What a client may ask of the daemon, and when the daemon must say no (the client then takes
// the direct path, so every refusal here is invisible to the user but for --verbose).
import { isAbsolute } from 'node:path';

/** One `select` or `run` from a client (daemon/client/call.ts). */
export interface CallRequest {
  op: 'call';
  /** Set by the client for a command that may run without waiting for its `go` (commitsUpFront). */
  go?: boolean;
  proto: number;
  version: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdinTTY: boolean;
  out: { tty: boolean; columns?: number };
  err: { tty: boolean; columns?: number };
}

const isTerm = (x: unknown): x is { tty: boolean; columns?: number } =>
  Boolean(x) &&
  typeof (x as { tty?: unknown }).tty === 'boolean' &&
  ((x as { columns?: unknown }).columns === undefined || typeof (x as { columns?: unknown }).columns === 'number');

/** Why the daemon turns a request away: a code (what `daemon status` counts) and words (what --verbose says). */
export interface Refusal {
  code: string;
  why: string;
}

const no = (code: string, why: string): Refusal => ({ code, why });

/**
 * Why the daemon must not serve `m` as a request, or undefined when it is well-formed and may be
 * served. Whether the caller's environment lets it be served is daemon/caller.ts's to say.
 */
export function checkRequest(m: Record<string, unknown>, own: { proto: number; version: string }): Refusal | undefined {
  if (m.op !== 'call') return no('malformed', 'unknown request');
  if (m.proto !== own.proto) return no('protocol', `protocol ${String(m.proto)} (the daemon speaks ${own.proto})`);
  if (m.version !== own.version) return no('version', `toolbox ${String(m.version)} (the daemon is ${own.version})`);
  const argv = m.argv;
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return no('malformed', 'malformed argv');
  if (argv[0] !== 'select' && argv[0] !== 'run') return no('malformed', 'only select and run go through the daemon');
  if (typeof m.cwd !== 'string' || !isAbsolute(m.cwd)) return no('malformed', 'malformed cwd');
  const env = m.env as Record<string, unknown> | undefined;
  if (!env || typeof env !== 'object' || !Object.values(env).every((v) => typeof v === 'string'))
    return no('malformed', 'malformed env');
  if (typeof m.stdinTTY !== 'boolean' || !isTerm(m.out) || !isTerm(m.err))
    return no('malformed', 'malformed terminal facts');
  // A person at a terminal may be asked questions by the tool mid-call: only the direct path can.
  if (argv[0] === 'run' && m.stdinTTY && m.err.tty) return no('interactive', 'interactive run');
  return undefined;
}
