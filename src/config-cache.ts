// A validated toolbox.config.yaml remembered with its exact text, so that commands that read no
// other YAML (warm `select`, `run`) do not load the yaml parser (~20 ms) for an unchanged config. It
// lives in the user's cache folder (0700, outside the project: a cloned repository cannot plant an
// entry), one entry per config file and build of the code, and is used only when the file's whole text, this toolbox's
// version and the identity of the code that validated it are all the same as when it was stored.
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from './util/fs.js';
import { userCacheDir } from './util/user-dirs.js';
import { packageVersion } from './util/version.js';

const FORMAT = 1;
/** Entries kept (one per config file used); the least recently written go first. */
const MAX_ENTRIES = 64;

interface Entry<T> {
  file: string;
  code: string;
  text: string;
  config: T;
}

/** This toolbox and this module's file (src/, dist/ or the bundle): rebuilt code is other code. */
function codeStamp(): string {
  try {
    const st = statSync(fileURLToPath(import.meta.url));
    return `${FORMAT} ${packageVersion()} ${st.size} ${st.mtimeMs}`;
  } catch {
    return `${FORMAT} ${packageVersion()}`;
  }
}

/** FNV-1a, for a short entry name per config file (the entry records the full path too). */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Keep the folder small: drop the oldest entries past MAX_ENTRIES (only when one was written). */
function prune(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_ENTRIES) return;
  const aged = names.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - MAX_ENTRIES)) unlinkSync(join(dir, n));
}

/**
 * The validated config for exactly this text of `file`, if it was validated before, and `store`
 * to remember a config just validated.
 */
export function cachedConfig<T>(file: string, text: string): { config?: T; store(c: T): void } {
  const base = userCacheDir();
  if (!base) return { store() {} };
  const dir = join(base, 'config');
  const code = codeStamp();
  // One entry per config file and code: the daemon (dist/) and the CLI (the bundle) alternating on one
  // project must not keep replacing each other's entry (each miss loads yaml again).
  const path = join(dir, `${fnv(`${file}\0${code}`)}.json`);
  let config: T | undefined;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<Entry<T>>;
    if (v.file === file && v.code === code && v.text === text && v.config && typeof v.config === 'object')
      config = v.config;
  } catch {
    /* no entry, or an unreadable one: validate */
  }
  return {
    config,
    store(c) {
      try {
        // Only what JSON keeps exactly (YAML's .inf, for one, would come back as null).
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(c)), c)) return;
        writeFileAtomic(path, JSON.stringify({ file, code, text, config: c } satisfies Entry<T>), 0o600);
        prune(dir);
      } catch {
        /* a cache only */
      }
    },
  };
}
