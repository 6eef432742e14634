import {
  mkdirSync,
  renameSync,
  writeFileSync,
  writeSync,
  rmSync,
  openSync,
  closeSync,
  constants,
  readdirSync,
  lstatSync,
  unlinkSync,
} from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { processRuns } from './proc.js';
import { nodeCrypto } from './builtins.js';

// Temp files are created, never reused: O_EXCL, and O_NOFOLLOW for a link planted under the name.
const EXCL_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Write a file so that readers see either the old or the new content, never half of it:
 * write a temp file beside it, then rename over. Used for every file toolbox writes.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode?: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(
    dirname(file),
    `.${basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    // A fresh name, never an existing file or a link someone placed there.
    const fd = openSync(tmp, EXCL_FLAGS, mode ?? 0o666);
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Create a file only if it does not exist yet (O_EXCL), atomically. Returns false when it exists.
 * Never overwrites: the guarantee `init` and `new` give the user.
 */
export function createFileExclusive(file: string, data: string | Uint8Array, mode?: number): boolean {
  mkdirSync(dirname(file), { recursive: true });
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode ?? 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  closeSync(fd);
  // Fill it through a rename so an interrupted write never leaves a half-written file.
  try {
    writeFileAtomic(file, data, mode);
  } catch (e) {
    rmSync(file, { force: true });
    throw e;
  }
  return true;
}

/**
 * A file written piece by piece that readers see only once it is complete: the pieces go to a
 * temp file beside it in ~1 MB writes (the whole content never exists in memory at once), and
 * `commit` renames it over the file. `abort` (or a failed write) removes the temp file.
 */
export class AtomicWriter {
  private readonly tmp: string;
  private fd: number | undefined;
  private text = '';

  constructor(
    private readonly file: string,
    private readonly chunk = 1 << 20,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.tmp = join(
      dirname(file),
      `.${basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`,
    );
    this.fd = openSync(this.tmp, EXCL_FLAGS, 0o666);
  }

  /** Append text (buffered) or bytes. */
  write(piece: string | Uint8Array): void {
    if (typeof piece === 'string') {
      this.text += piece;
      if (this.text.length >= this.chunk) this.flush();
      return;
    }
    this.flush();
    this.bytes(piece);
  }

  commit(): void {
    try {
      this.flush();
      closeSync(this.fd!);
      this.fd = undefined;
      renameSync(this.tmp, this.file);
    } catch (e) {
      this.abort();
      throw e;
    }
  }

  abort(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        /* already closed */
      }
      this.fd = undefined;
    }
    rmSync(this.tmp, { force: true });
  }

  private flush(): void {
    if (!this.text) return;
    const b = Buffer.from(this.text, 'utf8');
    this.text = '';
    this.bytes(b);
  }

  private bytes(b: Uint8Array): void {
    try {
      for (let off = 0; off < b.length;) off += writeSync(this.fd!, b, off);
    } catch (e) {
      this.abort();
      throw e;
    }
  }
}

/**
 * writeFileAtomic for a large content given in pieces: written in ~1 MB chunks, so that the whole
 * text never exists as one string (nor as one UTF-8 buffer) in memory.
 */
export function writeFileAtomicParts(file: string, parts: Iterable<string | Uint8Array>): void {
  const w = new AtomicWriter(file);
  try {
    for (const p of parts) w.write(p);
  } catch (e) {
    w.abort();
    throw e;
  }
  w.commit();
}

/**
 * Remove the temp files (`.<name>.<pid>.<hex>.tmp`, as writeFileAtomic and AtomicWriter name them)
 * that a process interrupted mid-write (Ctrl+C, SIGKILL, a timeout) left in `dir`: only those whose
 * process no longer runs. Best effort; only the folder itself, never below it.
 */
export function sweepTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
    if (!m || Number(m[1]) === process.pid || processRuns(Number(m[1]))) continue;
    try {
      rmSync(join(dir, name), { force: true });
    } catch {
      /* not ours to remove (a folder, no permission): leave it */
    }
  }
}

/** Remove a file if it is there; never throws (gone already, or not ours to remove). */
export function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* gone */
  }
}

/** A file's identity (device and inode, of the link itself), or undefined when it is missing. */
export function fileIdent(file: string): string | undefined {
  try {
    const st = lstatSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}
