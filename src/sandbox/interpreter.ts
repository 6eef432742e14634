// Finding the real program behind a command name, and the host folders it needs to run inside the
// sandbox. Shims (pyenv, asdf) live under a 0700 home and re-exec through a shell: after the uid
// drop they cannot even be read, so we resolve to the real executable and bind its prefix.
import { execFile } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../util/fs.js';
import { ownedBySelf, userCacheDir } from '../util/user-dirs.js';
import { findOnPath as searchPath, isExecutableFile } from '../util/which.js';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';

/** A program ready to run in the sandbox: its absolute path and what to bind read-only for it. */
export interface ResolvedInterpreter {
  path: string;
  readOnlyPaths: string[];
}

/** Folders the sandbox always shows read-only; nothing below them needs binding. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];

export function underSystemDir(p: string): boolean {
  return SYSTEM_DIRS.some((d) => p === d || p.startsWith(d + '/'));
}

/**
 * Absolute path of an executable named `cmd` on PATH (or `cmd` itself when it is an absolute
 * path). Relative PATH entries are skipped: the sandbox needs an absolute program path.
 */
export function findOnPath(cmd: string, pathVar: string = process.env.PATH ?? '/usr/bin:/bin'): string | undefined {
  if (cmd.includes('/')) return isAbsolute(cmd) && isExecutableFile(cmd) ? cmd : undefined;
  return searchPath(cmd, pathVar.split(delimiter).filter(isAbsolute).join(delimiter));
}

const cache = new Map<string, Promise<ResolvedInterpreter>>();

/**
 * Resolve `cmd` (a name on PATH or an absolute path) to the real executable and the host folders
 * to bind read-only: for Python, `sys.executable` (after going through any shim) with
 * `sys.prefix` and `sys.base_prefix`; for Node, the executable and its install prefix; for any
 * other program, its folder when it is outside /usr. Cached per process.
 * Throws `interpreter_not_found` (exit 6) when the program does not exist.
 */
export function resolveInterpreter(cmd: string): Promise<ResolvedInterpreter> {
  let p = cache.get(cmd);
  if (!p) {
    p = doResolve(cmd);
    cache.set(cmd, p);
    p.catch(() => cache.delete(cmd));
  }
  return p;
}

function notFound(cmd: string, why?: string): ToolboxError {
  return new ToolboxError('interpreter_not_found', `Program '${cmd}' not found${why ? `: ${why}` : ''}`, {
    exitCode: ExitCode.missingDeps,
    hint: `Install '${cmd}' or put it on PATH, then check with \`toolbox deps\`.`,
  });
}

function outsideSystem(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (!p || underSystemDir(p) || out.includes(p)) continue;
    out.push(p);
  }
  return out;
}

async function doResolve(cmd: string): Promise<ResolvedInterpreter> {
  const found = findOnPath(cmd);
  if (!found) throw notFound(cmd, 'not on PATH');
  const name = basename(cmd);
  if (/^(python|pypy)(\d+(\.\d+)?)?$/.test(name)) return resolvePython(cmd, found);
  const real = realpathSync(found);
  if (/^node(js)?$/.test(name)) {
    const exe = realpathSync(process.execPath) === real ? process.execPath : found;
    return { path: exe, readOnlyPaths: outsideSystem([dirname(dirname(real))]) };
  }
  return { path: found, readOnlyPaths: outsideSystem([dirname(found), dirname(real)]) };
}

/** True when the file starts with the ELF magic (a real binary, not a shim script). */
export function isElf(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const b = Buffer.alloc(4);
    return readSync(fd, b, 0, 4, 0) === 4 && b.toString('latin1') === '\x7fELF';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A real interpreter binary (not a shim script) needs no child process: its prefix is the folder
 * above bin/, or, in a venv, the folder holding pyvenv.cfg plus the base install named by `home`.
 */
function pythonWithoutRunning(found: string): ResolvedInterpreter | undefined {
  const real = realpathSync(found);
  if (!isElf(real)) return undefined;
  const venvRoot = dirname(dirname(found));
  const cfg = join(venvRoot, 'pyvenv.cfg');
  let prefix = dirname(dirname(real));
  let base = prefix;
  if (existsSync(cfg)) {
    // pyvenv.cfg is a file of the project: its `home` is believed only where the venv's interpreter really
    // resolves to it, and the base install bound is the one the binary itself lives in. A planted
    // `home = /root/.ssh/bin` must not bind /root/.ssh into the sandbox.
    const home = /^home\s*=\s*(.+)$/m.exec(readFileSync(cfg, 'utf8'))?.[1]?.trim();
    if (!home || !existsSync(home) || realpathSync(home) !== dirname(real)) return undefined;
    prefix = venvRoot;
    base = dirname(dirname(real));
  }
  const rp = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return { path: found, readOnlyPaths: outsideSystem([prefix, base, dirname(found), dirname(real)].map(rp)) };
}

// Shims (pyenv, asdf) take ~300 ms to answer. Their answer is cached on disk, keyed by everything
// that makes them pick a version: the shim itself, PYENV_VERSION / ASDF_PYTHON_VERSION, and which
// version files exist (with their mtimes) between the current folder and /, plus the global one.
// Not the current folder itself: two folders under the same version files share one answer, so
// the first `run` from a new folder does not pay for the shim again.
function shimKey(found: string): string {
  const parts = [
    found,
    String(statSync(found).mtimeMs),
    process.env.PYENV_VERSION ?? '',
    process.env.ASDF_PYTHON_VERSION ?? '',
  ];
  const root = process.env.PYENV_ROOT ?? join(process.env.HOME ?? '/root', '.pyenv');
  const files = [join(root, 'version')];
  for (let d = process.cwd(); ; d = dirname(d)) {
    files.push(join(d, '.python-version'), join(d, '.tool-versions'));
    if (dirname(d) === d) break;
  }
  for (const f of files) {
    const st = statSync(f, { throwIfNoEntry: false });
    if (st) parts.push(`${f}:${st.mtimeMs}`);
  }
  return parts.join('|');
}
// In the user's own 0700 cache folder: a file in the shared temp folder could be planted by another user.
const shimCacheFile = () => {
  const dir = userCacheDir();
  return dir ? join(dir, 'interpreters.json') : undefined;
};

/** A cached answer is re-checked: a real interpreter binary owned by us or root that nobody else can replace. */
function stillTrusted(hit: ResolvedInterpreter | undefined): hit is ResolvedInterpreter {
  if (!hit || typeof hit.path !== 'string' || !isAbsolute(hit.path) || !Array.isArray(hit.readOnlyPaths)) return false;
  try {
    const real = realpathSync(hit.path);
    return isElf(real) && ownedBySelf(real) && ownedBySelf(dirname(real));
  } catch {
    return false;
  }
}

function readShimCache(key: string): ResolvedInterpreter | undefined {
  const file = shimCacheFile();
  if (!file) return undefined;
  try {
    const hit = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ResolvedInterpreter>)[key];
    return stillTrusted(hit) ? hit : undefined;
  } catch {
    return undefined;
  }
}

function writeShimCache(key: string, value: ResolvedInterpreter): void {
  const file = shimCacheFile();
  if (!file) return;
  try {
    let all: Record<string, ResolvedInterpreter> = {};
    try {
      all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ResolvedInterpreter>;
    } catch {
      /* new */
    }
    const keys = Object.keys(all);
    if (keys.length > 50) for (const k of keys.slice(0, keys.length - 50)) delete all[k];
    all[key] = value;
    writeFileAtomic(file, JSON.stringify(all), 0o600);
  } catch {
    /* an optimisation only */
  }
}

function resolvePython(cmd: string, found: string): Promise<ResolvedInterpreter> {
  const direct = pythonWithoutRunning(found);
  if (direct) return Promise.resolve(direct);
  const key = shimKey(found);
  const cached = readShimCache(key);
  if (cached) return Promise.resolve(cached);
  return runPython(cmd, found).then((r) => {
    writeShimCache(key, r);
    return r;
  });
}

function runPython(cmd: string, found: string): Promise<ResolvedInterpreter> {
  const code = 'import sys, json; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix]))';
  return new Promise((res, rej) => {
    // Run with the caller's environment so shims (pyenv reads PYENV_VERSION, .python-version) pick
    // the same interpreter the user gets in their shell.
    execFile(found, ['-c', code], { timeout: 15_000 }, (err, stdout, stderr) => {
      if (err)
        return rej(
          notFound(
            cmd,
            `running it failed: ${String(stderr || err.message)
              .trim()
              .split('\n')
              .pop()}`,
          ),
        );
      try {
        const [exe, prefix, base] = JSON.parse(String(stdout).trim().split('\n').pop()!) as string[];
        if (!exe) throw new Error('empty sys.executable');
        const real = realpathSync(exe);
        res({
          path: exe,
          readOnlyPaths: outsideSystem(
            [prefix!, base!, dirname(exe), dirname(real)].map((p) => {
              try {
                return realpathSync(p);
              } catch {
                return p;
              }
            }),
          ),
        });
      } catch (e) {
        rej(notFound(cmd, `could not read sys.executable (${(e as Error).message})`));
      }
    });
  });
}
