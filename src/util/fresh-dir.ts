// Building into a folder toolbox owns: whatever was at the path (a folder a cloned repository shipped,
// a symlink, an earlier install) is moved aside first and never reused or run; it is deleted once the
// build succeeded, and put back when it failed (so a failed re-install leaves the old one in place).
import { lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * Run `build(dir)` with `dir` absent (build creates it). `ok(result)` says whether it succeeded.
 * On failure `dir` is removed and the previous one restored.
 */
export async function buildFresh<T>(dir: string, build: () => Promise<T>, ok: (r: T) => boolean): Promise<T> {
  mkdirSync(dirname(dir), { recursive: true });
  let aside: string | undefined;
  if (exists(dir)) {
    aside = `${dir}.old-${process.pid}-${Date.now()}`;
    renameSync(dir, aside); // moves a symlink itself, never what it points at
  }
  let succeeded = false;
  try {
    const r = await build();
    succeeded = ok(r);
    return r;
  } finally {
    if (succeeded) {
      if (aside) rmSync(aside, { recursive: true, force: true });
    } else {
      rmSync(dir, { recursive: true, force: true });
      if (aside) renameSync(aside, dir);
    }
  }
}
