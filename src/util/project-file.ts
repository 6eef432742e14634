// The one module that reads files a project names (contracts, requirements files, lock inputs, the
// project's config, `.gitignore`), as util/host-process.ts is for processes; the linter keeps
// node:fs's read calls out of every other module but a short list that reads toolbox's own or the
// user's files (eslint.config.js). A cloned project chooses every such path and can make any of
// them a link to ~/.aws/credentials, /proc/self/environ, /dev/zero or a FIFO, so a read here:
//   - refuses a path whose real location (after every link) leaves `root` (the project, or the
//     registry for contracts), before opening anything;
//   - refuses every credential name at any depth (util/secret-names.ts), as written and as resolved;
//   - opens without following a last link and without blocking (O_NOFOLLOW | O_NONBLOCK | O_NOCTTY),
//     then checks what the descriptor really is (its path in /proc/self/fd, and a regular file by
//     fstat), so a swap between the check and the open reads nothing it should not, and a FIFO or
//     device never blocks or streams;
//   - reads at most `max` bytes, counting what it reads (a stat's size is never trusted).
// Errors name the file and the rule, never what it holds (callers must keep it that way: the text
// read is the caller's to show only to the user at a terminal).
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { insideRel } from './paths.js';
import { secretIn } from './secret-names.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
const FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (O_NOCTTY ?? 0);

/** Default cap on one file: 1 MiB (a contract's own limit; requirements files and configs are far smaller). */
export const MAX_PROJECT_FILE = 1024 * 1024;

/** Why a project file was not read. */
export type ProjectFileReason = 'missing' | 'outside' | 'secret' | 'not_regular' | 'too_large' | 'unreadable';

const WHY: Record<ProjectFileReason, string> = {
  missing: 'does not exist',
  outside: 'is outside the project',
  secret: 'is a credential file or folder',
  not_regular: 'is not a regular file',
  too_large: 'is too large',
  unreadable: 'cannot be read',
};

/** A project file that was not read: `reason` says which rule, the message never holds the file's content. */
export class ProjectFileError extends ToolboxError {
  readonly reason: ProjectFileReason;
  readonly file: string;
  /** too_large: the size the file claimed when opened (a hint for messages; the cap counts bytes read). */
  size?: number;

  constructor(reason: ProjectFileReason, file: string, detail?: string) {
    super(
      reason === 'missing' ? 'project_file_missing' : 'project_file_refused',
      `${file} ${WHY[reason]}${detail ? ` (${detail})` : ''}${reason === 'missing' || reason === 'unreadable' ? '' : ': not read'}`,
      {
        exitCode: ExitCode.registry,
        location: { file },
        details: { reason, file },
        hint:
          reason === 'outside' || reason === 'secret'
            ? 'toolbox reads only regular files inside the project that are not credentials; replace the link with the file itself.'
            : undefined,
      },
    );
    this.name = 'ProjectFileError';
    this.reason = reason;
    this.file = file;
  }
}

export interface ProjectReadOptions {
  /** The largest file read, in bytes (default MAX_PROJECT_FILE). */
  max?: number;
  /**
   * The caller listed `file` by walking real folders below `root` (discoverContractFiles follows no
   * linked folder): only a last component that is a link needs resolving, which an O_NOFOLLOW open
   * tells without a realpath per file (a cold registry build reads every contract).
   */
  listed?: boolean;
}

// The real path of each root, once per process: the root is the user's own choice (--registry, the
// folder they run in), and resolving it per file would cost a realpath per contract.
const realRoots = new Map<string, string>();
function realRoot(root: string): string {
  let r = realRoots.get(root);
  if (r === undefined) {
    r = realpathSync.native(root);
    if (realRoots.size > 64) realRoots.clear();
    realRoots.set(root, r);
  }
  return r;
}

const errno = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** The real path of `abs` checked against the rules, or a ProjectFileError. */
function checkedReal(rootReal: string, abs: string): string {
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch (e) {
    throw new ProjectFileError(errno(e) === 'ENOENT' ? 'missing' : 'unreadable', abs, errno(e));
  }
  const rel = insideRel(rootReal, real);
  if (rel === undefined)
    throw new ProjectFileError('outside', abs, real === abs ? undefined : `it resolves to ${real}`);
  if (secretIn(rel)) throw new ProjectFileError('secret', abs, real === abs ? undefined : `it resolves to ${real}`);
  return real;
}

function openError(e: unknown, shown: string): ProjectFileError {
  const code = errno(e);
  if (code === 'ENOENT') return new ProjectFileError('missing', shown);
  // ELOOP: a link appeared after the check; ENXIO: a socket.
  if (code === 'ELOOP') return new ProjectFileError('outside', shown, 'a link appeared while it was read');
  if (code === 'ENXIO') return new ProjectFileError('not_regular', shown);
  return new ProjectFileError('unreadable', shown, code);
}

function open(path: string, shown: string): number {
  try {
    return openSync(path, FLAGS);
  } catch (e) {
    throw openError(e, shown);
  }
}

/** Read up to `max` bytes of an open regular file; more than that is refused (or, with `head`, left unread). */
function readBounded(fd: number, max: number, shown: string, head = false): Buffer {
  const st = fstatSync(fd);
  if (!st.isFile()) throw new ProjectFileError('not_regular', shown);
  // The size is only a first guess for the buffer: the file may grow or shrink while it is read.
  let buf = Buffer.allocUnsafe(Math.min(max, st.size) + 1);
  let n = 0;
  for (;;) {
    const r = readSync(fd, buf, n, buf.length - n, null);
    if (r === 0) break;
    n += r;
    if (n > max) {
      if (head) return buf.subarray(0, max);
      const e = new ProjectFileError('too_large', shown, `more than ${max} bytes`);
      if (st.size > max) e.size = st.size;
      throw e;
    }
    if (n === buf.length) {
      const b = Buffer.allocUnsafe(Math.min(max + 1, buf.length * 2));
      buf.copy(b, 0, 0, n);
      buf = b;
    }
  }
  return buf.subarray(0, n);
}

/**
 * Read a file the project names, inside `root` (the project folder, or the registry folder for
 * contracts). Throws ProjectFileError (code project_file_missing or project_file_refused).
 */
export function readProjectFile(root: string, file: string, opts: ProjectReadOptions = {}): Buffer {
  const abs = resolve(root, file);
  const max = opts.max ?? MAX_PROJECT_FILE;
  let rootReal: string;
  try {
    rootReal = realRoot(root);
  } catch (e) {
    throw new ProjectFileError(errno(e) === 'ENOENT' ? 'missing' : 'unreadable', abs, 'its project folder');
  }
  // By its name first (no system call): a path that climbs out, or names a credential, is not even resolved.
  const named = insideRel(root, abs) ?? insideRel(rootReal, abs);
  if (named === undefined) throw new ProjectFileError('outside', abs);
  if (secretIn(named)) throw new ProjectFileError('secret', abs);
  let fd: number;
  if (opts.listed) {
    try {
      fd = openSync(abs, FLAGS);
    } catch (e) {
      // A last component that is a link: resolved and checked like any other path.
      if (errno(e) !== 'ELOOP') throw openError(e, abs);
      fd = open(checkedReal(rootReal, abs), abs);
    }
  } else fd = open(checkedReal(rootReal, abs), abs);
  try {
    checkOpened(fd, rootReal, abs);
    return readBounded(fd, max, abs);
  } finally {
    closeSync(fd);
  }
}

/**
 * What was really opened, by the kernel's name for the descriptor (one readlink): inside the root and
 * no credential. This catches a folder on the way that is a link (a listing's folder swapped for one
 * after the walk, or a folder replaced between the realpath and the open).
 */
function checkOpened(fd: number, rootReal: string, shown: string): void {
  let opened: string;
  try {
    opened = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return; // no /proc: the realpath check (and, for listings, the walk) stands alone
  }
  const rel = insideRel(rootReal, opened);
  if (rel === undefined) throw new ProjectFileError('outside', shown, `it resolves to ${opened}`);
  if (secretIn(rel)) throw new ProjectFileError('secret', shown, `it resolves to ${opened}`);
}

/** readProjectFile as UTF-8 text. */
export function readProjectText(root: string, file: string, opts?: ProjectReadOptions): string {
  return readProjectFile(root, file, opts).toString('utf8');
}

/** The text, or undefined when the file is missing or refused (for optional files: a `.gitignore`, a package.json). */
export function readProjectTextIfAny(root: string, file: string, opts?: ProjectReadOptions): string | undefined {
  try {
    return readProjectText(root, file, opts);
  } catch (e) {
    if (e instanceof ProjectFileError) return undefined;
    throw e;
  }
}

/**
 * A file toolbox finds by walking up from the working folder (a `.python-version`, a program's first
 * line), whose content only chooses among the user's own things: it may lie anywhere and be a link,
 * but it must be a regular file (a planted FIFO or /dev/zero never blocks or streams), and only its
 * first `max` bytes are read. Undefined when it is missing or not a regular file.
 */
export function readRegularHead(file: string, max: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, O_RDONLY | O_NONBLOCK | (O_NOCTTY ?? 0));
  } catch {
    return undefined;
  }
  try {
    return readBounded(fd, max, file, true);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
