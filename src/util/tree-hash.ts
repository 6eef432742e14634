// One sha256 over everything in a folder: each entry's path, kind, executable bit and content (or a
// symlink's target), in sorted order, symlinks not followed. What toolbox records for a folder it
// filled itself (a managed server install) and checks before it trusts that folder again.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** `sha256-<base64>` of the folder's tree (see the file comment). Throws when the folder cannot be read. */
export function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const a = join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(a);
      if (st.isSymbolicLink()) h.update(`l\0${r}\0${readlinkSync(a)}\0`);
      else if (st.isDirectory()) {
        h.update(`d\0${r}\0`);
        walk(a, r);
      } else if (st.isFile()) {
        const data = readFileSync(a);
        h.update(`f\0${r}\0${st.mode & 0o111 ? 'x' : '-'}\0${data.length}\0`);
        h.update(data);
      } else h.update(`o\0${r}\0`); // a socket, fifo or device has no place in an install
    }
  };
  walk(dir, '');
  return `sha256-${h.digest('base64')}`;
}

const memo = new Map<string, { stamp: string; hash: string }>();

/**
 * Every entry's path, kind, size, mode, inode and change time (ctime: no utimes() can set it back),
 * as one string: the same stamp means no file was written, replaced or added since.
 */
function stamp(dir: string): string {
  const h = createHash('sha1');
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const a = join(abs, name);
      const st = lstatSync(a);
      h.update(`${rel}/${name}\0${st.mode}\0${st.size}\0${st.ino}\0${st.ctimeMs}\0${st.mtimeMs}\n`);
      if (st.isDirectory()) walk(a, `${rel}/${name}`);
    }
  };
  walk(dir, '');
  return h.digest('base64');
}

/**
 * treeHash(dir), reading the files again only when something in the folder changed since this
 * process last hashed it (a walk of lstat() calls decides): for checks made on every call.
 */
export function treeHashCached(dir: string): string {
  const s = stamp(dir);
  const hit = memo.get(dir);
  if (hit?.stamp === s) return hit.hash;
  const hash = treeHash(dir);
  // Stamped again after hashing: a change made while hashing is caught next time.
  memo.set(dir, { stamp: stamp(dir) === s ? s : '', hash });
  return hash;
}
