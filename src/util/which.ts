// Finding a program on PATH. Dependency-free: used by the sandbox, the MCP loader and `toolbox deps`.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `file` is a regular file this process may execute (what a shell's PATH search asks). */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first `<dir>/<name>` that is an executable file, over the folders of `pathVar` (a PATH
 * string; empty entries skipped), or undefined. `name` is a bare program name: what a name with a
 * slash means (relative to what) is the caller's decision.
 */
export function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}

/** Where a project installs programs: npm's node_modules/.bin, then a .venv's bin. */
export const PROJECT_BIN_DIRS = ['node_modules/.bin', '.venv/bin'];

/** A bare program name installed in the project (relative path, e.g. node_modules/.bin/x), or undefined. */
export function findInProject(root: string, name: string): string | undefined {
  for (const dir of PROJECT_BIN_DIRS) if (isExecutableFile(join(root, dir, name))) return `${dir}/${name}`;
  return undefined;
}
