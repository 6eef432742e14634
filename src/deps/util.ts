import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { findOnPath, isExecutableFile } from '../util/which.js';

/**
 * Files whose modification time decides whether a cached result still holds: a path mapped to
 * its mtime, or null when it did not exist (so that its appearance invalidates too).
 */
export type Watch = Map<string, number | null>;

export function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

export function watchFile(watch: Watch, path: string): void {
  if (!watch.has(path)) watch.set(path, mtimeOf(path));
}

/**
 * Where `cmd` is: an absolute path as is, a path with a slash relative to `base`, else looked up
 * on PATH as a shell would. The file found (or the path asked for) is watched; PATH candidates
 * before the hit are not, so a new executable earlier on PATH does not invalidate the cache.
 */
export function which(cmd: string, env: NodeJS.ProcessEnv, base: string, watch?: Watch): string | undefined {
  if (isAbsolute(cmd) || cmd.includes('/')) {
    const p = isAbsolute(cmd) ? cmd : resolve(base, cmd);
    if (watch) watchFile(watch, p);
    return isExecutableFile(p) ? p : undefined;
  }
  const p = findOnPath(cmd, env.PATH);
  if (p && watch) watchFile(watch, p);
  return p;
}

/** Quote one word for a POSIX shell, only when it needs it. */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
