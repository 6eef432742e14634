import { mkdirSync, renameSync, writeFileSync, rmSync, openSync, closeSync, constants } from 'node:fs';
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
