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

// Variables that toolbox reads from its own process environment rather than from the command's
// (interpreter lookup, the forced sandbox tier, the user's folders, telemetry): a client whose
// values differ from the daemon's would get a different answer here than on its direct path.
const PROCESS_VARS = [
  'PATH',
  'HOME',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_RUNTIME_DIR',
  'PYENV_VERSION',
  'PYENV_ROOT',
  'ASDF_PYTHON_VERSION',
  'TMPDIR',
];
const processVar = (k: string) =>
  PROCESS_VARS.includes(k) || ((k.startsWith('TOOLBOX_') || k.startsWith('OTEL_')) && !k.startsWith('TOOLBOX_DAEMON'));

const isTerm = (x: unknown): x is { tty: boolean; columns?: number } =>
  Boolean(x) &&
  typeof (x as { tty?: unknown }).tty === 'boolean' &&
  ((x as { columns?: unknown }).columns === undefined || typeof (x as { columns?: unknown }).columns === 'number');

/** Why the daemon must not serve `m`, or undefined when it may. */
export function checkRequest(
  m: Record<string, unknown>,
  own: { proto: number; version: string; env: NodeJS.ProcessEnv },
): string | undefined {
  if (m.op !== 'call') return 'unknown request';
  if (m.proto !== own.proto) return `protocol ${String(m.proto)} (the daemon speaks ${own.proto})`;
  if (m.version !== own.version) return `toolbox ${String(m.version)} (the daemon is ${own.version})`;
  const argv = m.argv;
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return 'malformed argv';
  if (argv[0] !== 'select' && argv[0] !== 'run') return 'only select and run go through the daemon';
  if (typeof m.cwd !== 'string' || !isAbsolute(m.cwd)) return 'malformed cwd';
  const env = m.env as Record<string, unknown> | undefined;
  if (!env || typeof env !== 'object' || !Object.values(env).every((v) => typeof v === 'string'))
    return 'malformed env';
  if (typeof m.stdinTTY !== 'boolean' || !isTerm(m.out) || !isTerm(m.err)) return 'malformed terminal facts';
  // A person at a terminal may be asked questions by the tool mid-call: only the direct path can.
  if (argv[0] === 'run' && m.stdinTTY && m.err.tty) return 'interactive run';
  const names = new Set([...Object.keys(env), ...Object.keys(own.env)].filter(processVar));
  for (const k of names) if (env[k] !== own.env[k]) return `${k} differs from the daemon's`;
  return undefined;
}
