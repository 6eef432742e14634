// Finding the real program behind a command name, and the host folders it needs to run inside the
// sandbox. Shims (pyenv, asdf) live under a 0700 home and re-exec through a shell: after the uid
// drop they cannot even be read, so we resolve to the real executable and bind its prefix.
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { readRegularHead } from '../util/project-file.js';
import { within } from '../util/paths.js';
import { isElf } from '../util/host-process.js';
import { shimTarget } from './shims.js';
import { findOnPath as searchPath, isExecutableFile } from '../util/which.js';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import type { Env } from '../util/env.js';

/** A program ready to run in the sandbox: its absolute path and what to bind read-only for it. */
export interface ResolvedInterpreter {
  path: string;
  readOnlyPaths: string[];
}

// Folders the sandbox always shows read-only (util/binds.ts, which the project-path check shares).
import { underSystemDir } from '../util/binds.js';

/**
 * Absolute path of an executable named `cmd` on PATH (or `cmd` itself when it is an absolute
 * path). Relative PATH entries are skipped: the sandbox needs an absolute program path.
 */
export function findOnPath(cmd: string, pathVar: string = process.env.PATH ?? '/usr/bin:/bin'): string | undefined {
  if (cmd.includes('/')) return isAbsolute(cmd) && isExecutableFile(cmd) ? cmd : undefined;
  return searchPath(cmd, pathVar.split(delimiter).filter(isAbsolute).join(delimiter));
}

const cache = new Map<string, Promise<ResolvedInterpreter>>();

// What in an environment decides where a program name leads: PATH, and for a pyenv/asdf shim its
// version variables and the home folder holding `.tool-versions`.
const LOOKUP_VARS = ['PATH', 'PYENV_VERSION', 'ASDF_PYTHON_VERSION', 'HOME'] as const;
const lookupKey = (cmd: string, env: Env) => [cmd, ...LOOKUP_VARS.map((k) => env[k] ?? '\u0001')].join('\0');

/** Program names (not paths) resolved in this process so far: what a daemon compares for a caller. */
export function resolvedNames(): string[] {
  const names = new Set<string>();
  for (const key of cache.keys()) {
    const cmd = key.slice(0, key.indexOf('\0'));
    if (!cmd.includes('/')) names.add(cmd);
  }
  return [...names];
}

/**
 * Where `cmd` leads under `env`, as resolveInterpreter would resolve it (not cached): the program
 * and what it binds, or the error's code. Two environments that give the same answer run the same
 * program for `cmd`.
 */
export function describeProgram(cmd: string, env: Env): string {
  try {
    const r = resolveSync(cmd, env);
    // The folder's links resolved, not the file's: /bin/python3 is /usr/bin/python3 where /bin links
    // there, but a venv's bin/python3 (a link to the base binary) is a program of its own.
    return JSON.stringify([join(realOr(dirname(r.path)), basename(r.path)), r.readOnlyPaths]);
  } catch (e) {
    return e instanceof ToolboxError ? e.code : 'error';
  }
}

/**
 * Resolve `cmd` (a name on PATH or an absolute path) to the real executable and the host folders
 * to bind read-only: for Python, `sys.executable` (after going through any shim) with
 * `sys.prefix` and `sys.base_prefix`; for Node, the executable and its install prefix; for any
 * other program, its folder when it is outside /usr. Looked up with `env`'s PATH (and, for a
 * pyenv/asdf shim, its version variables): the caller's under the daemon. Cached per process and lookup.
 * Throws `interpreter_not_found` (exit 6) when the program does not exist.
 */
export function resolveInterpreter(cmd: string, env: Env = process.env): Promise<ResolvedInterpreter> {
  const key = lookupKey(cmd, env);
  let p = cache.get(key);
  if (!p) {
    p = (async () => resolveSync(cmd, env))();
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

// What to do instead of a Python toolbox will not run (a script, a shim it cannot follow, a path that is not there).
const PYTHON_FIX =
  'Use a system Python (leave loader_config.python unset for python3 on PATH, or name an installed interpreter such as /usr/bin/python3), or let toolbox make the tool its own environment from one: `toolbox deps --install`.';

function notFound(cmd: string, why?: string): ToolboxError {
  const python = /^(python|pypy)(\d+(\.\d+)?)?$/.test(basename(cmd));
  const hint =
    python && (cmd.includes('/') || why !== 'not on PATH')
      ? PYTHON_FIX
      : cmd.includes('/')
        ? `Point the contract at an executable file that exists, then check with \`toolbox deps\`.`
        : `Install '${cmd}' or put it on PATH, then check with \`toolbox deps\`.`;
  return new ToolboxError('interpreter_not_found', `Program '${cmd}' not found${why ? `: ${why}` : ''}`, {
    exitCode: ExitCode.missingDeps,
    hint,
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

function resolveSync(cmd: string, env: Env): ResolvedInterpreter {
  const found = findOnPath(cmd, env.PATH ?? '/usr/bin:/bin');
  if (!found) throw notFound(cmd, cmd.includes('/') ? 'no executable file there' : 'not on PATH');
  const name = basename(cmd);
  if (/^(python|pypy)(\d+(\.\d+)?)?$/.test(name)) return resolvePython(cmd, found, env);
  const real = realpathSync(found);
  if (/^node(js)?$/.test(name)) {
    const exe = realpathSync(process.execPath) === real ? process.execPath : found;
    return { path: exe, readOnlyPaths: outsideSystem([dirname(dirname(real))]) };
  }
  return { path: found, readOnlyPaths: outsideSystem([dirname(found), dirname(real)]) };
}

export { isElf };

const realOr = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * Where a Python binary comes from, read from its paths alone (nothing is run): `venv`, the folder
 * holding pyvenv.cfg when `found` (as named, before its links are followed) sits in a venv's bin/;
 * `base`, the install prefix of the real binary it links to. Undefined when that real file is not an
 * ELF executable (a script, a shim). pyvenv.cfg is a file of the project: its `home` is never what
 * gets bound (a planted `home = /root/.ssh/bin` must not bind /root/.ssh into the sandbox).
 */
export function pythonLayout(found: string): { venv?: string; base: string; real: string } | undefined {
  let real: string;
  try {
    real = realpathSync(found);
  } catch {
    return undefined;
  }
  if (!isElf(real)) return undefined;
  const venvRoot = dirname(dirname(found));
  return {
    ...(existsSync(join(venvRoot, 'pyvenv.cfg')) ? { venv: venvRoot } : {}),
    base: dirname(dirname(real)),
    real,
  };
}

/**
 * A real interpreter binary (not a shim script) is resolved without running anything: its prefix is
 * the folder above bin/, or, in a venv, the folder holding pyvenv.cfg plus the base install the
 * binary really lives in (pythonLayout). Run as `found`, a venv's Python finds its pyvenv.cfg, so
 * `sys.prefix` is the venv and its site-packages are on sys.path.
 */
function pythonWithoutRunning(found: string): ResolvedInterpreter | undefined {
  const l = pythonLayout(found);
  if (!l) return undefined;
  const prefix = l.venv ?? l.base;
  return { path: found, readOnlyPaths: outsideSystem([prefix, l.base, dirname(found), dirname(l.real)].map(realOr)) };
}

/** At most this many folders named by a venv's .pth files are bound (each is checked like any project path). */
const MAX_PTH_PATHS = 64;
/** .pth files read per site-packages folder, and bytes read of each. */
const MAX_PTH_FILES = 256;
const MAX_PTH_BYTES = 64 * 1024;

/**
 * The folders a venv's `.pth` files add to sys.path that lie outside the venv (an editable install's
 * `src/`, a folder of the project): what the venv's Python needs bound besides the venv itself. Read
 * the way site.py reads them (lines relative to site-packages, `#` comments and `import` lines
 * skipped, paths that do not exist ignored); system folders are left out (every sandbox shows them).
 * The files are the project's: what they name is bound only after the sandbox's project-path check.
 */
export function venvPthPaths(venv: string): { path: string; pth: string }[] {
  const sites = new Map<string, string>();
  for (const lib of ['lib', 'lib64']) {
    let names: string[];
    try {
      names = readdirSync(join(venv, lib));
    } catch {
      continue;
    }
    for (const n of names.sort()) {
      if (!/^(python|pypy)\d/.test(n)) continue;
      const site = join(venv, lib, n, 'site-packages');
      const real = realOr(site);
      if (existsSync(site) && ![...sites.values()].includes(real)) sites.set(site, real);
    }
  }
  const realVenv = realOr(venv);
  const out: { path: string; pth: string }[] = [];
  const seen = new Set<string>();
  for (const site of sites.keys()) {
    let pths: string[];
    try {
      pths = readdirSync(site)
        .filter((n) => n.endsWith('.pth'))
        .sort()
        .slice(0, MAX_PTH_FILES);
    } catch {
      continue;
    }
    for (const name of pths) {
      const text = readRegularHead(join(site, name), MAX_PTH_BYTES)?.toString('utf8');
      for (const raw of text?.split('\n') ?? []) {
        const line = raw.trimEnd();
        if (!line || line.startsWith('#') || /^import[ \t]/.test(line)) continue;
        const p = resolve(site, line);
        if (seen.has(p) || !existsSync(p)) continue;
        seen.add(p);
        const real = realOr(p);
        if (within(venv, p) || within(realVenv, real) || underSystemDir(real)) continue;
        out.push({ path: p, pth: join(site, name) });
        if (out.length >= MAX_PTH_PATHS) return out;
      }
    }
  }
  return out;
}

// A pyenv or asdf shim is a shell script that picks a version from variables and version files. It
// is never run here (a Python found from a project's PATH or folder could be anything): the choice
// is read the way pyenv/asdf make it, and only an installed version's real binary counts.
function resolvePython(cmd: string, found: string, env: Env): ResolvedInterpreter {
  const direct = pythonWithoutRunning(found);
  if (direct) return direct;
  const viaShim = shimTarget(found, basename(found), env);
  if (viaShim) {
    const r = pythonWithoutRunning(viaShim);
    if (r) return r;
  }
  throw notFound(
    cmd,
    `${found} is not a Python binary (a script or a shim toolbox cannot follow), and toolbox does not run it outside the sandbox to ask where Python is; point loader_config.python at the interpreter binary (or a venv made from one)`,
  );
}
