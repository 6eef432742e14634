// Where a project's daemon lives and whether that place is safe: one implementation for the client
// (daemon/client/, bundled into the launcher's dist/launch.cjs) and the daemon itself. Node built-ins
// and util/ only: every `select` and `run` pays for what this file loads.
//
// Trust: only the user decides whether the daemon is used (TOOLBOX_DAEMON, or daemon.json in the
// user's own config folder): nothing in a project can turn it on or move its socket. A socket
// folder that is not a real folder owned by this user with no group/other access is never used.
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Protocol version: a daemon that speaks another one is not used (the request goes direct). */
export const PROTO = 1;

/** The files of one project's daemon, all in the user's 0700 socket folder. */
export interface DaemonPaths {
  dir: string;
  /** The config file or registry folder that names the project (realpath). */
  marker: string;
  socket: string;
  pid: string;
  log: string;
  hash: string;
}

/** The user's daemon settings (TOOLBOX_DAEMON, else daemon.json in the user's config folder). */
export interface DaemonSettings {
  mode: 'off' | 'auto' | 'on';
  idle?: string;
  source: string;
  /** TOOLBOX_DAEMON held something else than off/auto/on (the daemon is then not used). */
  invalid?: string;
}

/** The usage error for an unknown TOOLBOX_DAEMON value (message and hint). */
export function invalidModeText(value: string): { message: string; hint: string } {
  return {
    message: `TOOLBOX_DAEMON=${JSON.stringify(value)} is not a daemon mode`,
    hint: `Use one of: ${MODES.join(', ')} (off: never; auto: a daemon that runs; on: also start one), or unset it.`,
  };
}

const CONFIG_NAMES = ['toolbox.config.yaml', 'toolbox.config.yml'];
const MODES: readonly string[] = ['off', 'auto', 'on'] satisfies DaemonSettings['mode'][];
// sun_path holds 108 bytes including the terminating NUL.
const SUN_PATH_MAX = 107;

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** lstat, or undefined for anything that cannot be looked at (missing, not a folder on the way, no access). */
function lstatOf(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Why `dir` must not hold our socket, or undefined when it is safe (a real folder, ours, mode 0700). */
export function unsafeDir(dir: string): string | undefined {
  const st = lstatOf(dir);
  if (!st) return 'missing';
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `${dir} belongs to uid ${st.uid}, not to you`;
  if ((st.mode & 0o077) !== 0) return `${dir} is accessible to group or others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Why `file` (a socket or pid file in a safe folder) must not be used, or undefined. */
export function unsafeEntry(file: string, kind: 'socket' | 'file'): string | undefined {
  const st = lstatOf(file);
  if (!st) return 'missing';
  if (kind === 'socket' ? !st.isSocket() : !st.isFile()) return `${file} is not a ${kind}`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `${file} belongs to uid ${st.uid}, not to you`;
  return undefined;
}

/** Make the user's socket folder (0700) if it is missing; why it cannot be used, or undefined. */
export function prepareDir(dir: string): string | undefined {
  const before = unsafeDir(dir);
  if (before !== 'missing') return before;
  try {
    // Parents as the user's umask makes them; the folder itself 0700 (mkdir's mode is masked, never widened).
    mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot create ${dir}: ${(e as Error).message}`;
  }
  return unsafeDir(dir);
}

const abs = (v: string | undefined): string | undefined => (v && isAbsolute(v) ? v : undefined);
const home = (env: NodeJS.ProcessEnv): string => abs(env.HOME) ?? homedir();

/**
 * The folder for this user's daemon sockets: $XDG_RUNTIME_DIR/toolbox (a per-user tmpfs), else
 * $XDG_CACHE_HOME/toolbox/d (~/.cache/toolbox/d), else /tmp/toolbox-<uid> when the cache path is
 * too long for a socket name. Only the user's environment decides it, never a project file.
 */
export function socketDir(env: NodeJS.ProcessEnv): string {
  const run = abs(env.XDG_RUNTIME_DIR);
  if (run) return join(run, 'toolbox');
  const cache = join(abs(env.XDG_CACHE_HOME) ?? join(home(env), '.cache'), 'toolbox', 'd');
  if (cache.length + 1 + 16 + '.sock'.length <= SUN_PATH_MAX) return cache;
  return join('/tmp', `toolbox-${uid() ?? 'user'}`);
}

/** The user's daemon settings: TOOLBOX_DAEMON wins, then daemon.json in the user's config folder. */
export function userSettings(env: NodeJS.ProcessEnv): DaemonSettings {
  const settings: DaemonSettings = { mode: 'auto', idle: undefined, source: 'default' };
  const dir = join(abs(env.XDG_CONFIG_HOME) ?? join(home(env), '.config'), 'toolbox');
  const file = join(dir, 'daemon.json');
  try {
    const text = readFileSync(file, 'utf8');
    // The user's own file only: owned by them, not writable by others (grants.yaml's rule).
    if (!ownedBySelf(file) || !ownedBySelf(dir)) throw new Error('not yours');
    const data = JSON.parse(text) as { mode?: unknown; idleTimeout?: unknown };
    if (typeof data.mode === 'string' && MODES.includes(data.mode))
      Object.assign(settings, { mode: data.mode, source: file });
    if (typeof data.idleTimeout === 'string') settings.idle = data.idleTimeout;
  } catch {
    /* no file, unreadable, foreign or not JSON: defaults */
  }
  const v = env.TOOLBOX_DAEMON;
  if (v !== undefined && v !== '') {
    settings.mode = MODES.includes(v) ? (v as DaemonSettings['mode']) : 'off';
    settings.source = 'TOOLBOX_DAEMON';
    if (!MODES.includes(v)) settings.invalid = v;
  }
  return settings;
}

function ownedBySelf(p: string): boolean {
  const st = statSync(p);
  const me = uid();
  return (me === undefined || st.uid === me || st.uid === 0) && (st.mode & 0o022) === 0;
}

/** The value of option `name` in `argv` (`--name v` or `--name=v`), if given. */
function optionValue(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i]!.startsWith(name + '=')) return argv[i]!.slice(name.length + 1);
  }
  return undefined;
}

/**
 * What identifies the project a command line is about, as config.ts's resolveProject finds it:
 * --config, else the nearest config file or tool_registry/ folder at or above --registry or cwd.
 * Only names the daemon: every request still resolves its own project inside the daemon.
 */
export function projectMarker(cwd: string, argv: string[]): string {
  const config = optionValue(argv, '--config');
  if (config) return resolve(cwd, config);
  const registry = optionValue(argv, '--registry');
  let dir = resolve(cwd, registry || '.');
  for (;;) {
    for (const n of CONFIG_NAMES) if (existsSync(join(dir, n))) return join(dir, n);
    const reg = join(dir, 'tool_registry');
    try {
      if (statSync(reg).isDirectory()) return reg;
    } catch {
      /* keep looking */
    }
    const up = dirname(dir);
    if (up === dir) return resolve(cwd, registry || 'tool_registry');
    dir = up;
  }
}

/** Where the daemon for this project (as `argv` and `cwd` name it), toolbox version and node binary lives. */
export function daemonPaths(env: NodeJS.ProcessEnv, cwd: string, argv: string[], version: string): DaemonPaths {
  let marker = projectMarker(cwd, argv);
  try {
    marker = realpathSync.native(marker); // one realpath(3), not an lstat per path component
  } catch {
    /* a missing registry: the name is still stable */
  }
  return pathsFor(env, marker, version);
}

/**
 * 16 hex digits of FNV-1a (two 32-bit lanes): a name, not a secret, and node:crypto would cost more
 * to load than the rest of the client. A collision would only let two projects share one daemon,
 * which still answers each request for the project that request names.
 */
function fnv64(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The files of the daemon named by `marker` (a realpath): a short hash keeps sun_path short. */
export function pathsFor(env: NodeJS.ProcessEnv, marker: string, version: string): DaemonPaths {
  const dir = socketDir(env);
  const hash = fnv64([marker, version, process.execPath, uid() ?? ''].join('\0'));
  const base = join(dir, hash);
  return { dir, marker, socket: base + '.sock', pid: base + '.pid', log: base + '.log', hash };
}

/**
 * Whether a command line may run without the client's `go`: a `select` without a session changes
 * nothing but caches, so running it here and (after a timed-out ack) directly as well is harmless.
 * A `run`, or a select that records a session turn, waits for `go` (never twice).
 */
export function commitsUpFront(argv: string[]): boolean {
  return argv[0] === 'select' && !argv.some((a) => a === '--session' || a.startsWith('--session='));
}
