// The client side of the resident daemon (`toolbox daemon`), in CommonJS and on node: built-ins
// only, so that `select` and `run` reach a running daemon for little more than node's own start.
// Also the one place that decides where a daemon's socket lives and whether that place is safe:
// src/daemon/ loads this file for the same answers (no second copy to drift).
//
// Trust: only the user decides whether the daemon is used (TOOLBOX_DAEMON, or daemon.json in the
// user's own config folder): nothing in a project can turn it on or move its socket. A socket
// folder that is not a real folder owned by this user with no group/other access is never used.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** Protocol version: a daemon that speaks another one is not used (the request goes direct). */
const PROTO = 1;
/** Exit code when the daemon vanished after it accepted the request (the call is not retried). */
const DAEMON_LOST_EXIT = 75;
const CONFIG_NAMES = ['toolbox.config.yaml', 'toolbox.config.yml'];
const MODES = ['off', 'auto', 'on'];
// sun_path holds 108 bytes including the terminating NUL.
const SUN_PATH_MAX = 107;

const uid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Why `dir` must not hold our socket, or undefined when it is safe (a real folder, ours, mode 0700). */
function unsafeDir(dir) {
  let st;
  try {
    st = fs.lstatSync(dir);
  } catch {
    return 'missing';
  }
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `${dir} belongs to uid ${st.uid}, not to you`;
  if ((st.mode & 0o077) !== 0) return `${dir} is accessible to group or others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Why `file` (a socket or pid file in a safe folder) must not be used, or undefined. */
function unsafeEntry(file, kind) {
  let st;
  try {
    st = fs.lstatSync(file);
  } catch {
    return 'missing';
  }
  if (kind === 'socket' ? !st.isSocket() : !st.isFile()) return `${file} is not a ${kind}`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `${file} belongs to uid ${st.uid}, not to you`;
  return undefined;
}

const abs = (v) => (v && path.isAbsolute(v) ? v : undefined);
const home = (env) => abs(env.HOME) || require('node:os').homedir();

/**
 * The folder for this user's daemon sockets: $XDG_RUNTIME_DIR/toolbox (a per-user tmpfs), else
 * $XDG_CACHE_HOME/toolbox/d (~/.cache/toolbox/d), else /tmp/toolbox-<uid> when the cache path is
 * too long for a socket name. Only the user's environment decides it, never a project file.
 */
function socketDir(env) {
  const run = abs(env.XDG_RUNTIME_DIR);
  if (run) return path.join(run, 'toolbox');
  const cache = path.join(abs(env.XDG_CACHE_HOME) || path.join(home(env), '.cache'), 'toolbox', 'd');
  if (cache.length + 1 + 16 + '.sock'.length <= SUN_PATH_MAX) return cache;
  return path.join('/tmp', `toolbox-${uid() ?? 'user'}`);
}

/** The user's daemon settings: TOOLBOX_DAEMON wins, then daemon.json in the user's config folder. */
function userSettings(env) {
  const settings = { mode: 'auto', idle: undefined, source: 'default' };
  const dir = path.join(abs(env.XDG_CONFIG_HOME) || path.join(home(env), '.config'), 'toolbox');
  const file = path.join(dir, 'daemon.json');
  try {
    const text = fs.readFileSync(file, 'utf8');
    // The user's own file only: owned by them, not writable by others (grants.yaml's rule).
    if (!ownedBySelf(file) || !ownedBySelf(dir)) throw new Error('not yours');
    const data = JSON.parse(text);
    if (MODES.includes(data.mode)) Object.assign(settings, { mode: data.mode, source: file });
    if (typeof data.idleTimeout === 'string') settings.idle = data.idleTimeout;
  } catch {
    /* no file, unreadable, foreign or not JSON: defaults */
  }
  const v = env.TOOLBOX_DAEMON;
  if (v !== undefined && v !== '') {
    settings.mode = MODES.includes(v) ? v : 'off';
    settings.source = 'TOOLBOX_DAEMON';
  }
  return settings;
}

function ownedBySelf(p) {
  const st = fs.statSync(p);
  const me = uid();
  return (me === undefined || st.uid === me || st.uid === 0) && (st.mode & 0o022) === 0;
}

/** The value of option `name` in `argv` (`--name v` or `--name=v`), if given. */
function optionValue(argv, name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(name + '=')) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

/**
 * What identifies the project a command line is about, as config.ts's resolveProject finds it:
 * --config, else the nearest config file or tool_registry/ folder at or above --registry or cwd.
 * Only names the daemon: every request still resolves its own project inside the daemon.
 */
function projectMarker(cwd, argv) {
  const config = optionValue(argv, '--config');
  if (config) return path.resolve(cwd, config);
  const registry = optionValue(argv, '--registry');
  let dir = path.resolve(cwd, registry || '.');
  for (;;) {
    for (const n of CONFIG_NAMES) if (fs.existsSync(path.join(dir, n))) return path.join(dir, n);
    const reg = path.join(dir, 'tool_registry');
    try {
      if (fs.statSync(reg).isDirectory()) return reg;
    } catch {
      /* keep looking */
    }
    const up = path.dirname(dir);
    if (up === dir) return path.resolve(cwd, registry || 'tool_registry');
    dir = up;
  }
}

/** Where the daemon for this project, toolbox version and node binary lives. */
function daemonPaths(env, cwd, argv, version) {
  let marker = projectMarker(cwd, argv);
  try {
    marker = fs.realpathSync.native(marker); // one realpath(3), not an lstat per path component
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
function fnv64(s) {
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
function pathsFor(env, marker, version) {
  const dir = socketDir(env);
  const hash = fnv64([marker, version, process.execPath, uid() ?? ''].join('\0'));
  const base = path.join(dir, hash);
  return { dir, marker, socket: base + '.sock', pid: base + '.pid', log: base + '.log', hash };
}

/**
 * Whether a command line may run without the client's `go`: a `select` without a session changes
 * nothing but caches, so running it here and (after a timed-out ack) directly as well is harmless.
 * A `run`, or a select that records a session turn, waits for `go` (never twice).
 */
function commitsUpFront(argv) {
  return argv[0] === 'select' && !argv.some((a) => a === '--session' || a.startsWith('--session='));
}

function packageVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version;
  } catch {
    return '0.0.0';
  }
}

module.exports = {
  PROTO,
  DAEMON_LOST_EXIT,
  unsafeDir,
  unsafeEntry,
  socketDir,
  userSettings,
  projectMarker,
  daemonPaths,
  pathsFor,
  packageVersion,
  commitsUpFront,
  tryDaemon: (...a) => require('./daemon-call.js').tryDaemon(...a),
};
