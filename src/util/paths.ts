// Where a path lies relative to a folder, by its name alone (no file system access): the one
// definition of "inside that folder" (links are resolved, where that matters, by the caller first),
// and how a file is shown to people.
import { isAbsolute, relative, sep } from 'node:path';

/**
 * `p` relative to `dir` when `p` is `dir` ('') or lies below it, else undefined. Both absolute, in
 * the same form. A name that merely starts with two dots (`..cache`) lies inside.
 */
export function insideRel(dir: string, p: string): string | undefined {
  const r = relative(dir, p);
  if (r === '..' || r.startsWith(`..${sep}`) || isAbsolute(r)) return undefined;
  return r;
}

/** Whether `p` is `dir` or lies below it (both absolute, same form). */
export const within = (dir: string, p: string): boolean => insideRel(dir, p) !== undefined;

/** Whether `p` lies strictly below `dir` (not `dir` itself). */
export const below = (dir: string, p: string): boolean => !!insideRel(dir, p);

/** `file` relative to `cwd` with forward slashes; absolute paths outside cwd stay absolute. */
export function displayPath(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file.split(sep).join('/');
  const rel = insideRel(cwd, file);
  return (rel || file).split(sep).join('/');
}
