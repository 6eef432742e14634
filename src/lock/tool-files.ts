// The files of a tool's own code, and a cheap fingerprint of them: what warm workers (serve, the
// daemon, a long-running library Runtime) compare before each call so that an edited tool is loaded
// again. toolbox.lock pins the same folders and more (lock/code.ts: each installed package's files,
// a project venv, sandbox.paths); a warm worker reloads on an edit of the tool's own code here.
import { readdirSync, statSync, type Stats } from 'node:fs';
import { isSecretName } from '../util/secret-names.js';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import type {
  CommandConfig,
  McpConfig,
  NodeModuleConfig,
  PythonFunctionConfig,
  ToolContract,
} from '../contract/types.js';
import { nodeModulePaths, programPaths, pythonModulePaths } from '../sandbox/tool-paths.js';

/** Folders never walked: what toolbox or an interpreter writes, and installed dependencies. */
const SKIP_DIRS = new Set(['node_modules', '__pycache__', '.git', '.toolbox']);

/**
 * At most this many files and folders are looked at per tool (a project cannot make every call walk
 * a huge tree); past it the set is marked incomplete.
 */
export const CODE_ENTRIES_LIMIT = 5000;

/** A tool's code as found on disk now. */
export interface ToolCode {
  /** Absolute paths of every file, sorted. */
  files: string[];
  /** stat-based fingerprint of those files (path, size, mtime, ctime, inode): changes when any changes. */
  fingerprint: string;
  /** False when the walk stopped at CODE_ENTRIES_LIMIT (the fingerprint then covers what was seen). */
  complete: boolean;
}

/**
 * Where a tool's code lives in the project: the folders and files its loader shows the sandbox
 * (src/sandbox/tool-paths.ts), without the node_modules folders on Node's walk (installed
 * dependencies, not the tool's code; npm's own record of an install, node_modules/.package-lock.json,
 * stands in for them). Empty for tools with no local code (http, an mcp server by url or on PATH).
 */
export function codeRoots(root: string, c: ToolContract): string[] {
  try {
    switch (c.loader) {
      case 'python_function':
        return pythonModulePaths(root, (c.loader_config as unknown as PythonFunctionConfig).module);
      case 'node_module':
        return nodeModulePaths(root, (c.loader_config as unknown as NodeModuleConfig).module).map((p) =>
          p.endsWith('/node_modules') ? join(p, '.package-lock.json') : p,
        );
      case 'command': {
        const program = (c.loader_config as unknown as CommandConfig).argv[0] ?? '';
        return program.includes('/') ? programPaths(root, resolve(root, program)) : [];
      }
      case 'mcp':
        return serverRoots(root, c.loader_config as unknown as McpConfig);
      default:
        return [];
    }
  } catch {
    return [];
  }
}

const NODE = /^(node|nodejs)$/;
const PYTHON = /^python(\d+(\.\d+)?)?$/;

/**
 * A stdio MCP server's code in the project: the program when given by path, or the script a `node`
 * or `python` command runs (its first argument that is not an option, `${PROJECT_ROOT}` expanded,
 * resolved against the project root as src/mcp/spawn.ts does), with Node's package.json walk.
 */
function serverRoots(root: string, cfg: McpConfig): string[] {
  const command = cfg.command ?? '';
  if (!command) return [];
  if (command.includes('/')) return programPaths(root, resolve(root, command));
  const node = NODE.test(command);
  if (!node && !PYTHON.test(command)) return [];
  const args = cfg.args ?? [];
  const i = args.findIndex((a) => !a.startsWith('-'));
  if (i < 0 || (i > 0 && args[i - 1] === '-m')) return [];
  const script = resolve(root, args[i]!.replaceAll('${PROJECT_ROOT}', root));
  const r = relative(root, script);
  if (!r || r.startsWith('..') || isAbsolute(r) || r.split(sep).includes('node_modules')) return [];
  if (!node) return programPaths(root, script);
  return nodeModulePaths(root, script).map((p) => (p.endsWith('/node_modules') ? join(p, '.package-lock.json') : p));
}

// Folder listings of this process, kept while the folder's own stat is unchanged (adding, removing
// or renaming an entry changes a folder's mtime), so a walk re-reads only folders that changed.
interface Entry {
  path: string;
  /** A folder to walk into (links to folders are not followed: no cycles). */
  dir: boolean;
}
const listings = new Map<string, { mtime: number; ctime: number; ino: number; entries: Entry[] }>();
const LISTINGS_MAX = 4096;

function listing(dir: string, st: Stats): Entry[] {
  const hit = listings.get(dir);
  if (hit && hit.mtime === st.mtimeMs && hit.ctime === st.ctimeMs && hit.ino === st.ino) return hit.entries;
  const entries: Entry[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory() && SKIP_DIRS.has(e.name)) continue;
    // Credentials are covered in the sandbox and never hashed (lock/code.ts).
    if (isSecretName(e.name)) continue;
    entries.push({ path: join(dir, e.name), dir: e.isDirectory() });
  }
  if (listings.size >= LISTINGS_MAX) listings.delete(listings.keys().next().value!);
  listings.set(dir, { mtime: st.mtimeMs, ctime: st.ctimeMs, ino: st.ino, entries });
  return entries;
}

/**
 * Visit every file and folder of the tool's code: one stat each, a folder read again only when it
 * changed since this process last read it. `seen(path, stat)` gets each (stat undefined: missing).
 * Returns false when the walk stopped at CODE_ENTRIES_LIMIT files and folders.
 */
function walk(roots: string[], seen: (path: string, st: Stats | undefined, file: boolean) => void): boolean {
  let count = 0;
  const visit = (path: string, isDir: boolean | undefined, depth: number): boolean => {
    if (++count > CODE_ENTRIES_LIMIT) return false;
    let st: Stats | undefined;
    try {
      st = statSync(path, { throwIfNoEntry: false });
    } catch {
      st = undefined; // unreadable (a loop of links, no permission): seen as missing
    }
    if (!st) {
      seen(path, undefined, true);
      return true;
    }
    if (!st.isDirectory()) {
      seen(path, st, true);
      return true;
    }
    seen(path, st, false);
    // A link to a folder (listed as not a folder) is recorded, not entered; deep trees stop.
    if (isDir === false || depth > 32) return true;
    let entries: Entry[];
    try {
      entries = listing(path, st);
    } catch {
      return true;
    }
    for (const e of entries) if (!visit(e.path, e.dir, depth + 1)) return false;
    return true;
  };
  for (const r of roots) if (!visit(r, undefined, 0)) return false;
  return true;
}

/**
 * The tool's code files and a fingerprint of their stats (path, size, mtime, ctime, inode), the
 * same in every process for the same files. Reads no file's contents. A missing root counts (as
 * missing), so creating it is a change.
 */
export function toolCode(root: string, c: ToolContract): ToolCode {
  const files: string[] = [];
  const h = createHash('sha1');
  const complete = walk(codeRoots(root, c), (path, st, file) => {
    if (!st) h.update(`${path}\0missing\n`);
    else {
      if (file) files.push(path);
      h.update(`${path}${file ? '' : '/'}\0${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}\n`);
    }
  });
  files.sort();
  return { files, fingerprint: h.digest('hex'), complete };
}

// Per set of roots: the stats seen by the last walk of this process, and the token naming them.
const versions = new Map<string, { stats: number[]; token: string }>();
let changes = 0;

/**
 * What a warm-worker cache compares before each call: a token that changes whenever a file or
 * folder of the tool's code changes (one stat each; no hashing, no file read). Only meaningful
 * within this process (toolCode's fingerprint is the portable one).
 */
export function codeVersion(root: string, c: ToolContract): string {
  const roots = codeRoots(root, c);
  if (roots.length === 0) return '';
  const key = roots.join('\0');
  const stats: number[] = [];
  const complete = walk(roots, (_path, st) => {
    if (st) stats.push(st.mtimeMs, st.ctimeMs, st.size, st.ino);
    else stats.push(-1);
  });
  const had = versions.get(key);
  if (had && had.stats.length === stats.length && had.stats.every((v, i) => v === stats[i])) return had.token;
  if (versions.size >= LISTINGS_MAX) versions.delete(versions.keys().next().value!);
  const token = `v${++changes}${complete ? '' : '+'}`;
  versions.set(key, { stats, token });
  return token;
}
