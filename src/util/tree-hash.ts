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
