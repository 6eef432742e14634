// A validated toolbox.config.yaml remembered by content, so that commands that read no other YAML
// (warm `select`, `run`) do not load the yaml parser (~20 ms) for an unchanged config file. It lives
// in the user's cache folder (0700, outside the project: a cloned repository cannot plant an entry)
// and is keyed by a hash of the file's exact text, this toolbox's version and the identity of the
// code that validated it, so an edited file, another version or a rebuilt checker re-parses it.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { ToolboxConfig } from './config.js';
import { writeFileAtomic } from './util/fs.js';
import { userCacheDir } from './util/user-dirs.js';
import { packageVersion } from './util/version.js';

const FORMAT = 1;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** This module's file (src/, dist/ or the bundle): rebuilding the code that validates changes it. */
function codeStamp(): string {
  try {
    const st = statSync(fileURLToPath(import.meta.url));
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'unknown';
  }
}

/** The cache file for one config file and the key its content must match. */
function slot(file: string, text: string): { path: string; key: string } | undefined {
  const dir = userCacheDir();
  if (!dir) return undefined;
  const key = sha256(`${FORMAT}\0${packageVersion()}\0${codeStamp()}\0${text}`);
  return { path: join(dir, 'config', `${sha256(file).slice(0, 32)}.json`), key };
}

/** The validated config for exactly this text, if it was validated before; else undefined. */
export function cachedConfig(file: string, text: string): { config?: ToolboxConfig; store(c: ToolboxConfig): void } {
  const s = slot(file, text);
  if (!s) return { store() {} };
  let config: ToolboxConfig | undefined;
  try {
    const v = JSON.parse(readFileSync(s.path, 'utf8')) as { key?: string; config?: ToolboxConfig };
    if (v.key === s.key && v.config && typeof v.config === 'object') config = v.config;
  } catch {
    /* no entry, or an unreadable one: validate */
  }
  return {
    config,
    store(c) {
      try {
        // Only what JSON keeps exactly (YAML's .inf, for one, would come back as null).
        const json = JSON.stringify(c);
        if (!isDeepStrictEqual(JSON.parse(json), c)) return;
        writeFileAtomic(s.path, `{"key":${JSON.stringify(s.key)},"config":${json}}`, 0o600);
      } catch {
        /* a cache only */
      }
    },
  };
}
