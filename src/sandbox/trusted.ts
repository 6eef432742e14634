// Where the sandbox's own programs (bwrap, unshare, setpriv, prlimit) may come from: fixed system
// folders only, never $PATH or the project, and only files that nobody but root can replace.
// A repository or another user must not be able to make toolbox run their program as "bwrap".
import { realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isExecutableFile } from '../util/which.js';

/** System folders searched for sandbox programs, in order. */
export const TRUSTED_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/local/sbin'];

/** Root-owned and writable by nobody else: the file and every folder above it (after symlinks). */
export function rootOwnedChain(file: string): boolean {
  let p: string;
  try {
    p = realpathSync(file);
  } catch {
    return false;
  }
  for (;;) {
    try {
      const st = statSync(p);
      if (st.uid !== 0 || (st.mode & 0o022) !== 0) return false;
    } catch {
      return false;
    }
    if (p === '/') return true;
    p = dirname(p);
  }
}

/** Absolute path of a sandbox program from a trusted system folder, or undefined. */
export function trustedBinary(name: string): string | undefined {
  for (const d of TRUSTED_DIRS) {
    const f = `${d}/${name}`;
    if (isExecutableFile(f) && rootOwnedChain(f)) return f;
  }
  return undefined;
}
