// The user's own folders, outside any project: where security-relevant state lives (a cloned
// repository ships its `.toolbox/`, so nothing in it may choose the sandbox or the interpreter).
import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

const uid = () => process.getuid?.();

function base(envName: 'XDG_CACHE_HOME' | 'XDG_CONFIG_HOME' | 'XDG_STATE_HOME', fallback: string): string | undefined {
  const v = process.env[envName];
  if (v && isAbsolute(v)) return v;
  const home = process.env.HOME && isAbsolute(process.env.HOME) ? process.env.HOME : homedir();
  return home ? join(home, fallback) : undefined;
}

/**
 * Whether a file or folder can be trusted as the user's own: owned by this user (or root), and
 * not writable by group or others; a symlink is followed only to check what it points at.
 */
export function ownedBySelf(p: string, { allowRoot = true } = {}): boolean {
  try {
    const st = statSync(p);
    const me = uid();
    if (me === undefined) return true; // no uids (Windows): nothing to check against
    if (st.uid !== me && !(allowRoot && st.uid === 0)) return false;
    return (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * `$XDG_CACHE_HOME/toolbox` (else `~/.cache/toolbox`), created mode 0700. Returns undefined when
 * it cannot be made safe (owned by someone else, group/other-accessible and not fixable, a
 * symlink): callers then keep no cache at all rather than trust one.
 */
export function userCacheDir(): string | undefined {
  const b = base('XDG_CACHE_HOME', '.cache');
  return b ? privateDir(join(b, 'toolbox')) : undefined;
}

/**
 * `$XDG_STATE_HOME/toolbox` (else `~/.local/state/toolbox`), created mode 0700, with the same
 * checks as the cache folder: state that must outlive a cache clean (the `serve --http` token).
 */
export function userStateDir(): string | undefined {
  const b = base('XDG_STATE_HOME', join('.local', 'state'));
  return b ? privateDir(join(b, 'toolbox')) : undefined;
}

/** `dir` made (mode 0700) and checked: a real folder of this user that nobody else can enter. */
function privateDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (uid() !== undefined && st.uid !== uid())) return undefined;
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return (statSync(dir).mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** `$XDG_CONFIG_HOME/toolbox` (else `~/.config/toolbox`): the user's own configuration, never created here. */
export function userConfigDir(): string | undefined {
  const b = base('XDG_CONFIG_HOME', '.config');
  return b ? join(b, 'toolbox') : undefined;
}
