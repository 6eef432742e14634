// The files of a managed MCP server install (`toolbox import mcp` by package name), checked against
// the hash the contract recorded when toolbox installed them (`loader_config.package.files`).
import { join, relative } from 'node:path';
import type { Project } from '../config.js';
import { treeHashCached } from '../util/tree-hash.js';

/** The install folder's name: the package name without `@` and `/`, e.g. modelcontextprotocol-server-everything. */
export const serverDirName = (name: string) => name.replace(/^@/, '').replace(/\//g, '-').toLowerCase();

/** Where a managed server of `name` is installed. */
export const serverDir = (project: Project, name: string) => join(project.stateDir, 'servers', serverDirName(name));

/**
 * Why the install a contract names is not what toolbox installed, or undefined when every file is
 * as recorded. A contract without `files` (imported before toolbox recorded them) is reported too.
 */
export function serverFilesProblem(project: Project, pkg: { name: string; files?: unknown }): string | undefined {
  const dir = serverDir(project, pkg.name);
  const shown = relative(project.root, dir);
  if (typeof pkg.files !== 'string')
    return `the contract records no hash of the installed files of ${pkg.name} (import it again)`;
  let now: string;
  try {
    now = treeHashCached(dir);
  } catch {
    return `${shown} is missing (import the server again)`;
  }
  return now === pkg.files ? undefined : `the files of ${pkg.name} in ${shown} differ from what toolbox installed`;
}
