// How a file is shown to people: relative to a base folder when it lies inside it, else as is.
import { isAbsolute, relative, sep } from 'node:path';

/** `file` relative to `cwd` with forward slashes; absolute paths outside cwd stay absolute. */
export function displayPath(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file.split(sep).join('/');
  const rel = relative(cwd, file);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return file.split(sep).join('/');
  return rel.split(sep).join('/');
}
