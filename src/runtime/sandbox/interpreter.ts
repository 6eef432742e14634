// Finding the real program behind a command name, and the host folders it needs to run inside the
// sandbox. Shims (pyenv, asdf) live under a 0700 home and re-exec through a shell: after the uid
// drop they cannot even be read, so we resolve to the real executable and bind its prefix.
import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { ExitCode, ToolboxError } from '../../errors.js';

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

/** Absolute path of an executable named `cmd` on PATH (or `cmd` itself when it has a slash). */
export function findOnPath(cmd: string, pathVar: string = process.env.PATH ?? '/usr/bin:/bin'): string | undefined {
  const candidates = cmd.includes('/') ? [cmd] : pathVar.split(delimiter).filter(Boolean).map((d) => join(d, cmd));
  for (const c of candidates) {
    try {
      if (!isAbsolute(c)) continue;
      if (!statSync(c).isFile()) continue;
      accessSync(c, constants.X_OK);
      return c;
    } catch { /* next */ }
  }
  return undefined;
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

function resolvePython(cmd: string, found: string): Promise<ResolvedInterpreter> {
  const code = 'import sys, json; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix]))';
  return new Promise((res, rej) => {
    // Run with the caller's environment so shims (pyenv reads PYENV_VERSION, .python-version) pick
    // the same interpreter the user gets in their shell.
    execFile(found, ['-c', code], { timeout: 15_000 }, (err, stdout, stderr) => {
      if (err) return rej(notFound(cmd, `running it failed: ${String(stderr || err.message).trim().split('\n').pop()}`));
      try {
        const [exe, prefix, base] = JSON.parse(String(stdout).trim().split('\n').pop()!) as string[];
        if (!exe) throw new Error('empty sys.executable');
        const real = realpathSync(exe);
        res({ path: exe, readOnlyPaths: outsideSystem([prefix!, base!, dirname(exe), dirname(real)].map((p) => { try { return realpathSync(p); } catch { return p; } })) });
      } catch (e) {
        rej(notFound(cmd, `could not read sys.executable (${(e as Error).message})`));
      }
    });
  });
}
