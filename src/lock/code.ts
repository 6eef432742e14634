// What of the project a tool's code is, file by file, for toolbox.lock: every file Python or Node
// could load from the tool's own package or module folder, exactly the folders the sandbox shows the
// tool (sandbox/tool-paths.ts). A helper module edited next to the tool, a package folder that
// appears and shadows a module, a sourceless `.pyc`, a `package.json` whose `exports` now point
// elsewhere: each is a file added, removed or changed here, and `run --locked` names it.
//
// Left out, each for a reason: `__pycache__/*.pyc` of a python_function tool (the runner compiles
// the project's code from source and never reads them: loaders/runners/python_runner.py), the files
// inside a `node_modules` folder (its `.package-lock.json`, npm's record of every installed package
// and its integrity, stands for them: hashing every installed file on every run is not cheap).
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { isSecretName } from '../util/secret-names.js';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolEntry } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { nodeModulePaths, programPaths, pythonModulePaths } from '../sandbox/tool-paths.js';

/**
 * Path (relative to the project, `/`-separated) → `sha256:<hex>` (` x` after it when executable),
 * `link:<target>`, `dir` (folder paths end in `/`) or `other`.
 */
export type CodeFiles = Record<string, string>;

/**
 * A folder tree bigger than this is not a tool's own code, and toolbox cannot pin it: `lock` and
 * `run --locked` refuse the tool (`lock_tool_too_large`) rather than record a cap that would let
 * every file under it drift unnoticed.
 */
export const MAX_ENTRIES = 20_000;

// Content hashes per file, reused while size, mtime, ctime, inode and device are the same (ctime
// cannot be set back by utimes(): a file rewritten with its old mtime still changes it).
const memo = new Map<string, { key: string; hash: string }>();
const statKey = (st: Stats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}`;

function fileHash(abs: string, st: Stats): string {
  const key = statKey(st);
  const hit = memo.get(abs);
  if (hit?.key === key) return hit.hash;
  const hash = `sha256:${createHash('sha256').update(readFileSync(abs)).digest('hex')}${st.mode & 0o111 ? ' x' : ''}`;
  memo.set(abs, { key, hash });
  return hash;
}

/** `sha256:<hex>` of one file (reused while its stat is the same); undefined when it cannot be read. */
export function fileSha(abs: string): string | undefined {
  try {
    return fileHash(abs, lstatSync(abs)).replace(/ x$/, '');
  } catch {
    return undefined;
  }
}

interface WalkOptions {
  /** Skip `__pycache__/*.pyc` (the runner never loads them). */
  skipPycache: boolean;
}

/** One path the sandbox binds: a file, or a folder walked without following links. */
function addPath(root: string, abs: string, out: CodeFiles, o: WalkOptions, tool?: string): void {
  const rel = (p: string) => {
    const r = relative(root, p);
    return r.startsWith('..') || isAbsolute(r) ? p : r.split(sep).join('/');
  };
  let count = 0;
  const visit = (p: string, st: Stats) => {
    if (++count > MAX_ENTRIES) throw new RangeError(`more than ${MAX_ENTRIES} files`);
    if (st.isSymbolicLink()) out[rel(p)] = `link:${readlinkSync(p)}`;
    else if (st.isFile()) out[rel(p)] = fileHash(p, st);
    else if (!st.isDirectory()) out[rel(p)] = 'other';
    else {
      const name = basename(p);
      // Installed packages: npm's own record of them (see the file comment).
      if (name === 'node_modules') {
        out[`${rel(p)}/`] = 'dir';
        const record = join(p, '.package-lock.json');
        const rst = lstatOrUndefined(record);
        if (rst?.isFile()) out[rel(record)] = fileHash(record, rst);
        return;
      }
      // A __pycache__ folder comes and goes with Python runs outside toolbox: only what else is in it counts.
      if (!(o.skipPycache && name === '__pycache__')) out[`${rel(p)}/`] = 'dir';
      for (const child of readdirSync(p).sort()) {
        // Credentials (`.env*`, `.git/`, `.npmrc`, … at any depth) are covered in the sandbox, so the
        // tool cannot load them, and never hashed: an unsalted hash of a secret is not committed.
        if (isSecretName(child)) continue;
        const c = join(p, child);
        const cst = lstatSync(c);
        if (o.skipPycache && name === '__pycache__' && cst.isFile() && child.endsWith('.pyc')) continue;
        visit(c, cst);
      }
    }
  };
  const st = lstatOrUndefined(abs);
  if (!st) return;
  try {
    visit(abs, st);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new ToolboxError(
      'lock_tool_too_large',
      `${tool ? `tool '${tool}': ` : ''}its code folder ${rel(abs)}/ holds more than ${MAX_ENTRIES} files: toolbox cannot pin it, so it cannot be locked`,
      {
        exitCode: ExitCode.registry,
        hint: 'Narrow what the tool loads: give it a package or module folder of its own (loader_config.module), and move data, virtual environments and build output out of that folder (or into node_modules, which is pinned by its record).',
        details: { path: rel(abs), limit: MAX_ENTRIES },
      },
    );
  }
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** The project paths that are the tool's code (what the sandbox binds for it), or none. */
export function codePaths(root: string, entry: ToolEntry): string[] {
  const c = entry.contract;
  const cfg = c.loader_config as Record<string, unknown>;
  if (c.loader === 'python_function' && typeof cfg.module === 'string') return pythonModulePaths(root, cfg.module);
  if (c.loader === 'node_module' && typeof cfg.module === 'string') return nodeModulePaths(root, cfg.module);
  // A program named by path, and a script an interpreter is given (`python3 server/main.py`,
  // `node srv/index.js`): each project file named on the command line, with its folder.
  const words =
    c.loader === 'command' && Array.isArray(cfg.argv)
      ? cfg.argv
      : c.loader === 'mcp' && typeof cfg.command === 'string'
        ? [cfg.command, ...(Array.isArray(cfg.args) ? cfg.args : [])]
        : [];
  const out: string[] = [];
  words.forEach((w, i) => {
    if (typeof w !== 'string' || w.startsWith('-') || w.includes('{{') || (i === 0 && !w.includes('/'))) return;
    const abs = resolve(root, w);
    const r = relative(root, abs);
    if (r === '' || r.startsWith('..') || isAbsolute(r) || !lstatOrUndefined(abs)?.isFile()) return;
    for (const p of programPaths(root, abs)) if (!out.includes(p)) out.push(p);
  });
  return out;
}

/** Every file of the tool's code, hashed (empty when the tool has no code in the project). */
export function codeFiles(root: string, entry: ToolEntry): CodeFiles {
  const out: CodeFiles = {};
  const o = { skipPycache: entry.contract.loader === 'python_function' };
  for (const p of codePaths(root, entry)) addPath(root, p, out, o, entry.contract.id);
  const sorted: CodeFiles = {};
  for (const k of Object.keys(out).sort()) sorted[k] = out[k]!;
  return sorted;
}

/** One digest over the files map (what `runs.implementation.sha256` records). */
export function codeDigest(files: CodeFiles): string {
  const h = createHash('sha256');
  for (const [k, v] of Object.entries(files)) h.update(`${k}\0${v}\n`);
  return h.digest('hex');
}

/** What changed between two files maps, in words: "my_tools/helper.py changed, my_tools/helper/ added". */
export function codeChanges(before: CodeFiles | undefined, after: CodeFiles | undefined): string[] {
  const b = before ?? {};
  const a = after ?? {};
  const out: string[] = [];
  for (const k of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()) {
    if (b[k] === a[k]) continue;
    out.push(`${k} ${b[k] === undefined ? 'added' : a[k] === undefined ? 'removed' : 'changed'}`);
  }
  return out;
}
