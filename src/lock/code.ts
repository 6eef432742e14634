// What of the project a tool's code is, file by file, for toolbox.lock: every file Python or Node
// could load from the tool's own package or module folder, exactly the folders the sandbox shows the
// tool (sandbox/tool-paths.ts). A helper module edited next to the tool, a package folder that
// appears and shadows a module, a sourceless `.pyc`, a `package.json` whose `exports` now point
// elsewhere: each is a file added, removed or changed here, and `run --locked` names it.
//
// Installed packages are code the tool can load too (issue 34 item 2), pinned per package rather
// than per file so toolbox.lock stays readable: each package folder of a `node_modules` folder the
// walk reaches (`node_modules/yaml/`, `node_modules/@scope/name/`), and each entry of the
// site-packages of a project venv named by `loader_config.python` (a package, a `.dist-info`, a
// `.pth` file, a single module), is recorded as `package:sha256:<digest> <n> files`: one digest over
// every file under it (its path in the package and its content hash, a link as its target, folders
// too), so one byte edited in place inside `node_modules/yaml/dist/index.js` changes it. The files
// behind each digest are kept in `.toolbox/lock/packages/<digest>.json` when `toolbox lock` runs
// (the lock names a digest, that record names the files), so a drift names the file, not only the
// package. Content hashes are reused while a file's stat is the same (below), so a warm check is a
// walk of lstat calls; a cold one (a fresh `run --locked` process) reads every file once.
//
// The files of the contract's `sandbox.paths` inside the project are pinned file by file, as the
// tool's own code is: data a tool reads from a folder it is shown (a plugin folder, templates) is
// code it can load.
//
// Left out, each for a reason: `__pycache__/*.pyc` of a python_function tool, in its own package and
// in its venv (the runner compiles every module under the project root, a project venv included, from
// source and never reads them: loaders/runners/python_runner.py), credential names at any depth (the
// sandbox covers them and an unsalted hash of a secret is not committed), and `node_modules/.cache/`
// (where build tools write caches at will; nothing installs code there).
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, type Stats } from 'node:fs';
import { isSecretName, secretIn } from '../util/secret-names.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolEntry } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { ProjectFileError, readProjectText } from '../util/project-file.js';
import { nodeModulePaths, programPaths, pythonModulePaths } from '../sandbox/tool-paths.js';

/**
 * Path (relative to the project, `/`-separated) → `sha256:<hex>` (` x` after it when executable),
 * `link:<target>`, `dir` (folder paths end in `/`), `other`, or for an installed package (its folder
 * path, ending in `/`) `package:sha256:<hex> <n> files`.
 */
export type CodeFiles = Record<string, string>;

/**
 * A folder tree bigger than this is not a tool's own code, and toolbox cannot pin it: `lock` and
 * `run --locked` refuse the tool (`lock_tool_too_large`) rather than record a cap that would let
 * every file under it drift unnoticed.
 */
export const MAX_ENTRIES = 20_000;

/**
 * The installed packages one tool can load (every `node_modules` package its walk reaches, its venv's
 * site-packages) hold at most this many files and folders in all; past it the tool is refused
 * (`lock_tool_too_large`), as above: hashing them on every cold `run --locked` would cost seconds,
 * and a cap that stops hashing would let the rest drift.
 */
export const MAX_PACKAGE_ENTRIES = 50_000;

const PACKAGE = 'package:sha256:';

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
  /** The tool, for messages. */
  tool?: string;
  /** Files and folders of installed packages counted so far for this tool (MAX_PACKAGE_ENTRIES). */
  packages: number;
  /** The package trees walked (project-relative), for the message when they are too large. */
  trees: string[];
}

/** Thrown inside a walk past a limit; turned into lock_tool_too_large by the caller. */
class TooLarge extends Error {}

const relTo = (root: string, p: string) => {
  const r = relative(root, p);
  return r.startsWith('..') || isAbsolute(r) ? p : r.split(sep).join('/');
};

// The files of the packages this process hashed, by digest (what a drift names), and their project.
const packageFiles = new Map<string, { root: string; files: CodeFiles }>();
const PACKAGE_MEMO_MAX = 20_000;

/** The digest over a files map, in its (sorted walk) order. */
function filesDigest(files: CodeFiles): string {
  const h = createHash('sha256');
  for (const [k, v] of Object.entries(files)) h.update(`${k}\0${v}\n`);
  return h.digest('hex');
}

/**
 * One installed package (a folder), pinned by one digest over every file and folder under it, walked
 * without following links; `__pycache__/*.pyc` skipped as in the tool's own code when asked.
 */
function packageValue(root: string, dir: string, o: WalkOptions): { value: string; count: number } {
  // Tools of one registry pass share their packages (the project's node_modules): walked once.
  const shared = pass?.get(`${o.skipPycache}\0${dir}`);
  if (shared) {
    o.packages += shared.entries;
    if (o.packages > MAX_PACKAGE_ENTRIES) throw new TooLarge();
    return shared;
  }
  const before = o.packages;
  const files: CodeFiles = {};
  let count = 0;
  const walk = (p: string, prefix: string, pycache: boolean) => {
    for (const child of readdirSync(p).sort()) {
      if (isSecretName(child)) continue;
      if (++o.packages > MAX_PACKAGE_ENTRIES) throw new TooLarge();
      const c = join(p, child);
      const st = lstatSync(c);
      const k = prefix + child;
      if (st.isSymbolicLink()) files[k] = `link:${readlinkSync(c)}`;
      else if (st.isFile()) {
        if (pycache && child.endsWith('.pyc')) continue;
        files[k] = fileHash(c, st);
      } else if (st.isDirectory()) {
        const cache = o.skipPycache && child === '__pycache__';
        if (!cache) files[`${k}/`] = 'dir';
        walk(c, `${k}/`, cache);
        continue;
      } else files[k] = 'other';
      count++;
    }
  };
  walk(dir, '', o.skipPycache && basename(dir) === '__pycache__');
  const hex = filesDigest(files);
  packageFiles.delete(hex);
  if (packageFiles.size >= PACKAGE_MEMO_MAX) packageFiles.delete(packageFiles.keys().next().value!);
  packageFiles.set(hex, { root, files });
  const out = { value: `${PACKAGE}${hex} ${count} file${count === 1 ? '' : 's'}`, count };
  pass?.set(`${o.skipPycache}\0${dir}`, { ...out, entries: o.packages - before });
  return out;
}

let pass: Map<string, { value: string; count: number; entries: number }> | undefined;

/**
 * Run `fn` (the lock entries of a whole registry: `lock`, `validate --locked`) with each package
 * folder walked once for all its tools, as they are within that one pass; every call outside walks again.
 */
export function packagePass<T>(fn: () => T): T {
  if (pass) return fn();
  pass = new Map();
  try {
    return fn();
  } finally {
    pass = undefined;
  }
}

/**
 * A folder of installed packages (`node_modules`, a venv's site-packages): one entry per package.
 * Top-level files (npm's `.package-lock.json`, a `.pth` file, a single-file module) and links (npm's
 * `.bin/` links are inside `.bin`, a package; a linked workspace package is its link) are recorded
 * as the tool's own files are; `@scope` folders hold packages.
 */
function addPackageTree(root: string, dir: string, out: CodeFiles, o: WalkOptions): void {
  const rel = (p: string) => relTo(root, p);
  out[`${rel(dir)}/`] = 'dir';
  o.trees.push(`${rel(dir)}/`);
  const npm = basename(dir) === 'node_modules';
  const entry = (c: string, child: string, scoped: boolean) => {
    if (isSecretName(child)) return;
    if (++o.packages > MAX_PACKAGE_ENTRIES) throw new TooLarge();
    const st = lstatSync(c);
    if (st.isSymbolicLink()) out[rel(c)] = `link:${readlinkSync(c)}`;
    else if (st.isFile()) {
      if (!(o.skipPycache && child.endsWith('.pyc') && basename(dirname(c)) === '__pycache__'))
        out[rel(c)] = fileHash(c, st);
    } else if (!st.isDirectory()) out[rel(c)] = 'other';
    else if (npm && !scoped && child === '.cache') return;
    else if (npm && !scoped && child.startsWith('@')) {
      out[`${rel(c)}/`] = 'dir';
      for (const name of readdirSync(c).sort()) entry(join(c, name), name, true);
    } else {
      const { value, count } = packageValue(root, c, o);
      // A site-packages `__pycache__/` holding only bytecode comes and goes with Python runs.
      if (!(o.skipPycache && child === '__pycache__' && count === 0)) out[`${rel(c)}/`] = value;
    }
  };
  for (const child of readdirSync(dir).sort()) entry(join(dir, child), child, false);
}

/** One path the sandbox binds: a file, or a folder walked without following links. */
function addPath(root: string, abs: string, out: CodeFiles, o: WalkOptions, what = 'code folder'): void {
  const rel = (p: string) => relTo(root, p);
  let count = 0;
  const visit = (p: string, st: Stats) => {
    if (++count > MAX_ENTRIES) throw new RangeError(`more than ${MAX_ENTRIES} files`);
    if (st.isSymbolicLink()) out[rel(p)] = `link:${readlinkSync(p)}`;
    else if (st.isFile()) out[rel(p)] = fileHash(p, st);
    else if (!st.isDirectory()) out[rel(p)] = 'other';
    else {
      const name = basename(p);
      // Installed packages: pinned per package (see the file comment).
      if (name === 'node_modules') return addPackageTree(root, p, out, o);
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
      `${o.tool ? `tool '${o.tool}': ` : ''}its ${what} ${rel(abs)}/ holds more than ${MAX_ENTRIES} files: toolbox cannot pin it, so it cannot be locked`,
      {
        exitCode: ExitCode.registry,
        hint:
          what === 'code folder'
            ? 'Narrow what the tool loads: give it a package or module folder of its own (loader_config.module), and move data, virtual environments and build output out of that folder (node_modules and a venv named by loader_config.python are pinned per package).'
            : 'Narrow what the tool is shown: list only the folders or files it reads in sandbox.paths, not a whole tree.',
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

const inside = (root: string, p: string) => {
  const r = relative(root, p);
  return r !== '' && !r.startsWith('..') && !isAbsolute(r);
};

/**
 * The project venv of `loader_config.python` (as loaders/python_function.ts finds it: a folder, or
 * `<venv>/bin/python…` beside a `pyvenv.cfg`), when it is inside the project; else undefined.
 */
export function projectVenv(root: string, python: unknown): string | undefined {
  if (typeof python !== 'string' || !python) return undefined;
  const abs = resolve(root, python);
  if (!inside(root, abs)) return undefined;
  const st = lstatOrUndefined(abs);
  // A link to a venv: followed here as the loader does (codeFiles records the link too).
  if (st?.isDirectory() || (st?.isSymbolicLink() && existsSync(join(abs, 'pyvenv.cfg')))) return abs;
  if (python.includes('/') && basename(dirname(abs)) === 'bin' && existsSync(join(dirname(dirname(abs)), 'pyvenv.cfg')))
    return dirname(dirname(abs));
  return undefined;
}

/**
 * What of a venv the tool loads: `pyvenv.cfg` (its interpreter home and whether the system's
 * site-packages count), the `bin/python…` it runs, and each `lib…/python3.x/site-packages` folder,
 * pinned per entry (addPackageTree). Links (`lib64 -> lib`) are recorded, not followed.
 */
function addVenv(root: string, venv: string, out: CodeFiles, o: WalkOptions): void {
  const rel = (p: string) => relTo(root, p);
  const names = (d: string) => {
    try {
      return readdirSync(d).sort();
    } catch {
      return [];
    }
  };
  const cfg = join(venv, 'pyvenv.cfg');
  const cst = lstatOrUndefined(cfg);
  out[rel(cfg)] = cst?.isFile() ? fileHash(cfg, cst) : cst ? 'other' : 'missing';
  for (const n of names(join(venv, 'bin')).filter((n) => /^python/.test(n))) {
    const b = join(venv, 'bin', n);
    const st = lstatSync(b);
    out[rel(b)] = st.isSymbolicLink() ? `link:${readlinkSync(b)}` : st.isFile() ? fileHash(b, st) : 'other';
  }
  for (const lib of names(venv).filter((n) => /^lib(64)?$/.test(n))) {
    const l = join(venv, lib);
    const st = lstatSync(l);
    if (st.isSymbolicLink()) {
      out[rel(l)] = `link:${readlinkSync(l)}`;
      continue;
    }
    if (!st.isDirectory()) continue;
    for (const py of names(l).filter((n) => /^python\d/.test(n))) {
      const site = join(l, py, 'site-packages');
      if (lstatOrUndefined(site)?.isDirectory()) addPackageTree(root, site, out, o);
    }
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

/**
 * The contract's `sandbox.paths` inside the project (absolute): pinned like the tool's code. A
 * credential named there (`.env.local`, shown only by the user's own grant) is never hashed.
 */
export function sandboxPathsInProject(root: string, entry: ToolEntry): string[] {
  const out: string[] = [];
  for (const p of entry.contract.sandbox?.paths ?? []) {
    if (typeof p !== 'string' || p.includes('{{')) continue;
    const abs = resolve(root, p);
    if (inside(root, abs) && !secretIn(relative(root, abs)) && !out.includes(abs)) out.push(abs);
  }
  return out;
}

/**
 * Every file of the tool's code, hashed (empty when the tool has no code in the project): its own
 * folders, the installed packages they reach, a project venv, and its `sandbox.paths` in the project.
 */
export function codeFiles(root: string, entry: ToolEntry): CodeFiles {
  const out: CodeFiles = {};
  const c = entry.contract;
  const o: WalkOptions = { skipPycache: c.loader === 'python_function', tool: c.id, packages: 0, trees: [] };
  try {
    for (const p of codePaths(root, entry)) addPath(root, p, out, o);
    const venv =
      c.loader === 'python_function'
        ? projectVenv(root, (c.loader_config as Record<string, unknown>).python)
        : undefined;
    if (venv) {
      const vst = lstatSync(venv);
      if (vst.isSymbolicLink()) out[relTo(root, venv)] = `link:${readlinkSync(venv)}`;
      addVenv(root, venv, out, o);
    }
    for (const p of sandboxPathsInProject(root, entry)) addPath(root, p, out, o, 'sandbox path');
  } catch (e) {
    if (!(e instanceof TooLarge)) throw e;
    throw new ToolboxError(
      'lock_tool_too_large',
      `tool '${c.id}': the installed packages it can load (${o.trees.join(', ')}) hold more than ${MAX_PACKAGE_ENTRIES} files: toolbox cannot pin them, so it cannot be locked`,
      {
        exitCode: ExitCode.registry,
        hint: 'Narrow what the tool can load: give it a package folder of its own with only the dependencies it needs (its own package.json and node_modules, installed with `npm install --omit=dev`), or a venv of its own (loader_config.python) with only its requirements.',
        details: { path: o.trees[o.trees.length - 1]?.replace(/\/$/, ''), limit: MAX_PACKAGE_ENTRIES },
      },
    );
  }
  const sorted: CodeFiles = {};
  for (const k of Object.keys(out).sort()) sorted[k] = out[k]!;
  return sorted;
}

/** One digest over the files map (what `runs.implementation.sha256` records). */
export function codeDigest(files: CodeFiles): string {
  return filesDigest(files);
}

// The record of each package's files, written by `toolbox lock`, read to name a drifted file.
const recordDir = (root: string) => join(root, '.toolbox', 'lock', 'packages');
const digestOf = (value: string | undefined) =>
  value?.startsWith(PACKAGE) ? value.slice(PACKAGE.length).split(' ')[0] : undefined;

/**
 * Keep, under `.toolbox/lock/packages/`, the files of every package these files maps name (those
 * hashed by this process), and drop records no map names any more. Called by `toolbox lock`.
 */
export function savePackageRecords(root: string, maps: (CodeFiles | undefined)[]): void {
  const dir = recordDir(root);
  const keep = new Set<string>();
  for (const m of maps)
    for (const v of Object.values(m ?? {})) {
      const hex = digestOf(v);
      if (!hex) continue;
      keep.add(`${hex}.json`);
      const had = packageFiles.get(hex);
      if (had && !existsSync(join(dir, `${hex}.json`)))
        // Pairs, not an object: JSON.parse would put integer-like names ("0") first and break the digest.
        writeFileAtomic(join(dir, `${hex}.json`), JSON.stringify(Object.entries(had.files)));
    }
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (/^[0-9a-f]{64}\.json$/.test(n) && !keep.has(n)) rmSync(join(dir, n), { force: true });
}

/**
 * The recorded files of a package digest: what this process hashed, else `toolbox lock`'s record
 * (checked against the digest: a record edited by hand names nothing).
 */
function filesOf(root: string, hex: string): CodeFiles | undefined {
  const had = packageFiles.get(hex);
  if (had) return had.files;
  try {
    const pairs = JSON.parse(
      readProjectText(root, join(recordDir(root), `${hex}.json`), { max: 64 * 1024 * 1024 }),
    ) as [string, string][];
    const files: CodeFiles = {};
    for (const [k, v] of pairs) files[k] = v;
    return filesDigest(files) === hex ? files : undefined;
  } catch (e) {
    if (e instanceof ProjectFileError || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

const NAMED_MAX = 10;

/**
 * What changed inside one package, by file ("node_modules/yaml/dist/index.js changed"), or a note
 * that the files it was locked with are not known here (locked on another machine).
 */
function packageChanges(key: string, before: string, after: string): string[] {
  const now = packageFiles.get(digestOf(after) ?? '');
  const was = now && filesOf(now.root, digestOf(before)!);
  if (!now || !was)
    return [`${key} changed (no record on this machine of the files it was locked with, to name which)`];
  const out = codeChanges(was, now.files).map((c) => key + c);
  return out.length > NAMED_MAX ? [...out.slice(0, NAMED_MAX), `${key}: ${out.length - NAMED_MAX} more`] : out;
}

/** What changed between two files maps, in words: "my_tools/helper.py changed, my_tools/helper/ added". */
export function codeChanges(before: CodeFiles | undefined, after: CodeFiles | undefined): string[] {
  const b = before ?? {};
  const a = after ?? {};
  const out: string[] = [];
  for (const k of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()) {
    if (b[k] === a[k]) continue;
    if (digestOf(b[k]) && digestOf(a[k])) out.push(...packageChanges(k, b[k]!, a[k]!));
    else out.push(`${k} ${b[k] === undefined ? 'added' : a[k] === undefined ? 'removed' : 'changed'}`);
  }
  return out;
}
