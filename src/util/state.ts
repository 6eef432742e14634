// Every read and write under a project's `.toolbox/` goes through here. The folder comes with the
// project, and a cloned repository ships whatever it likes in it (a `results` link to /etc/cron.d, a
// `calls.jsonl` link to ~/.bashrc, a `sessions` link to a folder whose old .json files would be
// pruned): toolbox uses `.toolbox/` and its entries only when they are real folders and files owned
// by the user and writable by nobody else, opens files with O_NOFOLLOW and creates them with O_EXCL.
//
// Checks are made on paths (Node has no openat): that is sound because only the owner can change a
// folder that nobody else can write, and the project folder above `.toolbox/` is checked the same
// way. A tool running on tier `unshare` or `none` can do anything the user can anyway.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { readSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { AtomicWriter, writeFileAtomic } from './fs.js';

const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;
const euid = () => process.geteuid?.();
const egid = () => process.getegid?.();

/** Why a folder or file may not be used as toolbox's own state, or undefined when it may. */
export function unsafeStat(st: Stats, kind: 'dir' | 'file', path: string): string | undefined {
  if (st.isSymbolicLink()) {
    let to = '';
    try {
      to = ` to ${readlinkSync(path)}`;
    } catch {
      /* gone meanwhile */
    }
    return `is a symbolic link${to}`;
  }
  if (kind === 'dir' && !st.isDirectory()) return 'is not a folder';
  if (kind === 'file' && !st.isFile()) return st.isDirectory() ? 'is a folder, not a file' : 'is not a regular file';
  const me = euid();
  if (me === undefined) return undefined; // no uids (Windows): nothing to compare with
  if (st.uid !== me) return `belongs to uid ${st.uid}, not to you (uid ${me})`;
  if (st.mode & 0o002) return 'is writable by every user';
  if (st.mode & 0o020 && st.gid !== egid()) return `is writable by group ${st.gid}`;
  if (kind === 'file' && st.nlink > 1) return 'has other hard links (writing it would change another file)';
  return undefined;
}

/** The error for a refused entry: code `state_unsafe`, exit 3, and what to do. */
export function stateError(stateDir: string, path: string, why: string): ToolboxError {
  const root = dirname(stateDir);
  const shown = relative(root, path) || basename(path);
  const foreign = /belongs to uid/.test(why);
  return new ToolboxError(
    'state_unsafe',
    `${shown} in ${root} ${why}: toolbox keeps its state only in a .toolbox/ folder it owns`,
    {
      exitCode: ExitCode.registry,
      hint: foreign
        ? `Run toolbox as the user who owns ${path}, or remove it (toolbox creates what it needs).`
        : `Remove it (\`rm -r '${path}'\`): toolbox creates what it needs. A repository should not ship .toolbox/ (\`toolbox init\` adds it to .gitignore).`,
      details: { path, reason: why },
    },
  );
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The project folder above .toolbox/: another user who can write it could swap .toolbox/ for a link. */
function checkParent(stateDir: string): void {
  const root = dirname(stateDir);
  const st = lstatOrUndefined(root);
  const me = euid();
  if (!st || me === undefined) return;
  const writableByOthers = (st.mode & 0o002 && !(st.mode & 0o1000)) || (st.mode & 0o020 && st.gid !== egid());
  if ((st.uid !== me && st.uid !== 0) || writableByOthers)
    throw new ToolboxError(
      'state_unsafe',
      `the project folder ${root} ${st.uid !== me && st.uid !== 0 ? `belongs to uid ${st.uid}` : 'is writable by other users'}, who could replace .toolbox/ with a link while toolbox writes in it`,
      {
        exitCode: ExitCode.registry,
        hint:
          st.uid !== me
            ? `Run toolbox as the user who owns ${root}.`
            : `Make ${root} writable only by you (chmod go-w '${root}').`,
        details: { path: root, reason: 'project folder writable by others' },
      },
    );
}

/** Check one folder of the chain, creating it (mode 0755 before umask) when `create` is set. */
function checkDir(stateDir: string, dir: string, create: boolean): boolean {
  let st = lstatOrUndefined(dir);
  if (!st) {
    if (!create) return false;
    try {
      mkdirSync(dir, { mode: 0o755 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    st = lstatSync(dir);
  }
  const why = unsafeStat(st, 'dir', dir);
  if (why) throw stateError(stateDir, dir, why);
  return true;
}

/** The relative parts of `rel` (posix or native separators); no empty, `.` or `..` parts. */
function parts(rel: string): string[] {
  const out = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (out.length === 0 || out.includes('..')) throw new Error(`bad state path '${rel}'`);
  return out;
}

/** Check `.toolbox/` and the folders of `ps` but the last; the last one's parent, or undefined when missing. */
function parentOf(stateDir: string, ps: string[], create: boolean): string | undefined {
  checkParent(stateDir);
  if (!checkDir(stateDir, stateDir, create)) return undefined;
  let dir = stateDir;
  for (const p of ps.slice(0, -1)) {
    dir = join(dir, p);
    if (!checkDir(stateDir, dir, create)) return undefined;
  }
  return dir;
}

/**
 * The absolute path of `rel` under `stateDir` (`.toolbox/`), after checking `.toolbox/` and every
 * folder down to the entry's parent: real folders, owned by the user, writable by nobody else.
 * With `create`, missing folders are made. An existing entry must be a real file owned by the user
 * (`kind: 'file'`, the default) or such a folder (`kind: 'dir'`). Throws `state_unsafe` (exit 3).
 * Returns undefined when a folder on the way is missing and `create` is not set.
 */
export function statePath(
  stateDir: string,
  rel: string,
  opts: { create?: boolean; kind?: 'file' | 'dir' } = {},
): string | undefined {
  const create = opts.create === true;
  const ps = parts(rel);
  const dir = parentOf(stateDir, ps, create);
  if (dir === undefined) return undefined;
  const leaf = join(dir, ps[ps.length - 1]!);
  if ((opts.kind ?? 'file') === 'dir') return checkDir(stateDir, leaf, create) ? leaf : undefined;
  const st = lstatOrUndefined(leaf);
  const why = st && unsafeStat(st, 'file', leaf);
  if (why) throw stateError(stateDir, leaf, why);
  return leaf;
}

/** The state folder itself, checked (and created with `create`); undefined when missing. */
export function stateFolder(stateDir: string, rel: string, create = false): string | undefined {
  if (rel === '' || rel === '.') {
    checkParent(stateDir);
    return checkDir(stateDir, stateDir, create) ? stateDir : undefined;
  }
  return statePath(stateDir, rel, { create, kind: 'dir' });
}

/**
 * Check state entries a command will write later (files, and folders given with a trailing `/`),
 * so that a refused one stops it before anything runs instead of after. Missing is fine.
 */
export function checkState(stateDir: string, entries: readonly string[]): void {
  for (const e of entries) statePath(stateDir, e, e.endsWith('/') ? { kind: 'dir' } : {});
}

/** Write a state file atomically (temp file made with O_EXCL|O_NOFOLLOW, then renamed over the entry). */
export function writeState(stateDir: string, rel: string, data: string | Uint8Array, mode?: number): string {
  const file = statePath(stateDir, rel, { create: true })!;
  writeFileAtomic(file, data, mode);
  return file;
}

/** A state file written piece by piece, seen only once complete (see AtomicWriter). */
export function stateWriter(stateDir: string, rel: string, chunk?: number): AtomicWriter {
  return new AtomicWriter(statePath(stateDir, rel, { create: true })!, chunk);
}

/** Append text to a state file (one write, O_APPEND|O_NOFOLLOW; the open file is checked again). */
export function appendState(stateDir: string, rel: string, text: string): void {
  const file = statePath(stateDir, rel, { create: true })!;
  const fd = openFile(stateDir, file, O_WRONLY | O_APPEND | O_CREAT);
  try {
    const b = Buffer.from(text, 'utf8');
    for (let off = 0; off < b.length;) off += writeSync(fd, b, off);
  } finally {
    closeSync(fd);
  }
}

/** Open with O_NOFOLLOW|O_NONBLOCK (a planted FIFO never blocks), then check what was opened. */
function openFile(stateDir: string, file: string, flags: number): number {
  let fd: number;
  try {
    fd = openSync(file, flags | O_NOFOLLOW | O_NONBLOCK, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw stateError(stateDir, file, 'is a symbolic link');
    throw e;
  }
  const why = unsafeStat(fstatSync(fd), 'file', file);
  if (why) {
    closeSync(fd);
    throw stateError(stateDir, file, why);
  }
  return fd;
}

/**
 * A state file's bytes, or undefined when it (or a folder on the way) does not exist or cannot be
 * read, or holds more than `max` bytes. Throws `state_unsafe` for a refused entry.
 */
export function readState(stateDir: string, rel: string, max = Infinity): Buffer | undefined {
  const file = statePath(stateDir, rel);
  if (!file) return undefined;
  let fd: number;
  try {
    fd = openFile(stateDir, file, O_RDONLY);
  } catch (e) {
    if (isStateUnsafe(e)) throw e;
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > max) return undefined;
    let buf = Buffer.allocUnsafe(size + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      // A file that grows while read is cut off past the bound, not read on.
      if (n > max) return undefined;
      if (n === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
    }
    return buf.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A state file as UTF-8 text, or undefined (see readState). */
export function readStateText(stateDir: string, rel: string): string | undefined {
  return readState(stateDir, rel)?.toString('utf8');
}

/** Remove a state file (never what a link points at); missing is fine. */
export function removeState(stateDir: string, rel: string): void {
  const ps = parts(rel);
  const dir = parentOf(stateDir, ps, false);
  if (dir === undefined) return;
  try {
    unlinkSync(join(dir, ps[ps.length - 1]!));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Rename one state file to another name in the same state folder (rotation). */
export function renameState(stateDir: string, from: string, to: string): void {
  const a = statePath(stateDir, from);
  const b = statePath(stateDir, to, { create: true });
  if (a && b) renameSync(a, b);
}

/** Names in a state folder (empty when it does not exist). */
export function listState(stateDir: string, rel: string): string[] {
  const dir = stateFolder(stateDir, rel);
  return dir ? readdirSync(dir) : [];
}

/** lstat of a state entry (never followed), or undefined when missing. */
export function statState(stateDir: string, rel: string): Stats | undefined {
  const p = statePath(stateDir, rel);
  return p ? lstatOrUndefined(p) : undefined;
}

// Caches are hints: an unsafe one is ignored (not read, not written) and said once per command.
const pending = new Set<string>();

/** Whether `e` is a refused state entry. */
export const isStateUnsafe = (e: unknown): e is ToolboxError => e instanceof ToolboxError && e.code === 'state_unsafe';

/**
 * A refused state entry met by a cache: leave one warning for the CLI to print (takeStateWarnings)
 * and return true; any other error returns false (the caller's to handle).
 */
export function noteUnsafeCache(e: unknown): boolean {
  if (!isStateUnsafe(e)) return false;
  const msg = `${e.message}; the cache there is ignored. ${e.hint ?? ''}`.trim();
  pending.add(msg);
  return true;
}

/** Run a cache operation; a refused state entry makes it return `fallback` (and warn once). */
export function cacheOp<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch (e) {
    if (!noteUnsafeCache(e)) throw e;
    return fallback;
  }
}

/**
 * A cache file's checked absolute path (its folders made when `create`), or undefined when a folder
 * is missing or an entry is refused (said once per command). The entry itself is never a link (checked).
 */
export function cachePath(stateDir: string, rel: string, create = false): string | undefined {
  return cacheOp(() => statePath(stateDir, rel, { create }), undefined);
}

/** Warnings about ignored caches since the last call, each once (the CLI prints them after a command). */
export function takeStateWarnings(): string[] {
  const out = [...pending];
  pending.clear();
  return out;
}
