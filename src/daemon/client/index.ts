// `select` and `run` through a resident daemon, when the user runs one: the launcher's first stop for
// those two commands (src/launch/). Resolves to the exit code, or to undefined when the command must
// take the direct path: no daemon, a stale or unsafe socket, another version or protocol, busy.
// Everything up to the first socket check costs a few file-system calls; node:net and node:tty are
// loaded only when a daemon's socket is there (call.ts, wire.ts).
import { lstatSync } from 'node:fs';
import { packageVersion } from '../../util/version.js';
import {
  daemonPaths,
  invalidModeText,
  prepareDir,
  socketDir,
  unsafeDir,
  unsafeEntry,
  userSettings,
  type DaemonPaths,
} from '../paths.js';
import { errorText, note } from './relay.js';
import { ExitCode } from '../../errors.js';

const START_WAIT_MS = 5000;

/** A file's identity (dev:ino), to tell a new socket from the one a dead daemon left. */
function identity(file: string): string | undefined {
  try {
    const st = lstatSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Start a daemon for this project in the background (as `toolbox daemon start` does) and wait for its
 * socket: a new one, not `stale` (a dead daemon's socket, which the new daemon's rename replaces).
 */
async function startDaemon(paths: DaemonPaths, env: NodeJS.ProcessEnv, stale?: string): Promise<boolean> {
  if (prepareDir(paths.dir)) return false;
  const { spawnDaemon } = await import('../spawn.js');
  const child = spawnDaemon(paths, { env });
  // A daemon that exits with a non-zero code will not answer (it could not start, or something that
  // is no daemon of ours holds the project's lock): stop waiting. Code 0 means another one serves.
  for (const until = Date.now() + START_WAIT_MS; Date.now() < until && !child.exitCode();) {
    await sleep(25);
    if (!unsafeEntry(paths.socket, 'socket') && identity(paths.socket) !== stale) return true;
  }
  return false;
}

/**
 * Send `argv` to the project's daemon when the user's settings allow it. `opts.version` is the
 * package version (a daemon of another version is never used).
 */
export async function tryDaemon(argv: string[], opts: { version?: string } = {}): Promise<number | undefined> {
  const env = process.env;
  const settings = userSettings(env);
  if (settings.invalid !== undefined) {
    // A typo (TOOLBOX_DAEMON=yes) must not quietly mean "off": say so, as a usage error.
    const { message, hint } = invalidModeText(settings.invalid);
    process.stderr.write(errorText(argv, 'invalid_daemon_mode', message, hint));
    return ExitCode.usage;
  }
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  if (settings.mode === 'off') return note(verbose, `the daemon is off (${settings.source})`);
  const none = 'no daemon runs for this project (`toolbox daemon start` starts one; docs/daemon.md)';
  // No socket folder (no daemon ever ran for this user) costs one lstat.
  const bad = unsafeDir(socketDir(env));
  if (bad === 'missing' && settings.mode !== 'on') return note(verbose, none);
  if (bad && bad !== 'missing') return note(verbose, bad);
  const version = opts.version ?? packageVersion();
  const paths = daemonPaths(env, process.cwd(), argv, version);
  let sock = bad ? 'missing' : unsafeEntry(paths.socket, 'socket');
  if (sock === 'missing' && settings.mode !== 'on') return note(verbose, none);
  const [{ call }, { interactive }] = await Promise.all([import('./call.js'), import('./wire.js')]);
  // A person at a terminal may be asked questions by the tool mid-call (elicitation): direct.
  if (argv[0] === 'run' && interactive())
    return note(verbose, 'an interactive run (stdin and stderr are a terminal) runs directly');
  const notStarted = () => note(verbose, `the daemon did not start (see ${paths.log})`);
  if (sock === 'missing') {
    if (!(await startDaemon(paths, env))) return notStarted();
    sock = undefined;
  }
  if (sock) return note(verbose, sock);
  const o = { version, verbose };
  const answer = await call(paths, argv, { ...o, socketId: identity(paths.socket) });
  if (typeof answer !== 'object') return answer;
  // A dead daemon's socket. Nobody but a daemon ever touches the socket path (a client that removed
  // it could remove a fresh daemon's socket renamed into place meanwhile); `on` starts a new daemon,
  // whose socket replaces it, `auto` runs directly.
  if (settings.mode !== 'on')
    return note(verbose, 'the daemon that served this project is gone (`toolbox daemon start`)');
  if (!(await startDaemon(paths, env, answer.stale))) return notStarted();
  const again = await call(paths, argv, { ...o, socketId: identity(paths.socket) });
  return typeof again === 'object' ? undefined : again;
}
