import { mkdirSync, renameSync, writeFileSync, writeSync, rmSync, openSync, closeSync, constants } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { nodeCrypto } from './builtins.js';

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
    writeFileSync(tmp, data, mode === undefined ? undefined : { mode });
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
 * writeFileAtomic for a large text given in pieces: written in ~1 MB chunks, so that the whole
 * text never exists as one string (nor as one UTF-8 buffer) in memory.
 */
export function writeFileAtomicParts(file: string, parts: Iterable<string>): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(
    dirname(file),
    `.${basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = openSync(tmp, 'w');
  try {
    const flush = (text: string) => {
      const b = Buffer.from(text, 'utf8');
      for (let off = 0; off < b.length;) off += writeSync(fd, b, off);
    };
    let chunk = '';
    for (const p of parts) {
      chunk += p;
      if (chunk.length >= 1 << 20) {
        flush(chunk);
        chunk = '';
      }
    }
    if (chunk) flush(chunk);
    closeSync(fd);
    renameSync(tmp, file);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
    rmSync(tmp, { force: true });
    throw e;
  }
}
