// Folders toolbox made inside a project (`.toolbox/envs/<id>/`, `.toolbox/servers/<name>/`), recorded
// in the user's own cache folder, since a cloned repository can ship such a folder with any marker
// file in it. A record is keyed by the folder's real path and holds its device and inode, so a folder
// deleted and made again, copied or planted at that path does not match. Files: `<user cache>/<name>`,
// mode 0600 in the 0700 cache folder.
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './fs.js';
import { userCacheDir } from './user-dirs.js';

/** What every record holds; callers add their own fields. */
export interface OwnedRecord {
  dev: number;
  ino: number;
  [k: string]: unknown;
}

const storeFile = (name: string) => {
  const dir = userCacheDir();
  return dir ? join(dir, name) : undefined;
};

function readStore(file: string): Record<string, OwnedRecord> {
  try {
    const all = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return all && typeof all === 'object' && !Array.isArray(all) ? (all as Record<string, OwnedRecord>) : {};
  } catch {
    return {};
  }
}

/** The folder's identity, when it is a real folder (not a symlink to one). */
export function folderIdentity(dir: string): { real: string; dev: number; ino: number } | undefined {
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) return undefined;
    return { real: realpathSync(dir), dev: st.dev, ino: st.ino };
  } catch {
    return undefined;
  }
}

/** Record `dir` (just made and filled by toolbox) in store `name`. False when there is no safe cache folder. */
export function recordOwned(name: string, dir: string, data: Record<string, unknown>): boolean {
  const file = storeFile(name);
  const id = folderIdentity(dir);
  if (!file || !id) return false;
  const all = readStore(file);
  // Records of folders that are gone are dropped, so the file stays small.
  for (const k of Object.keys(all)) if (!folderIdentity(k)) delete all[k];
  all[id.real] = { ...data, dev: id.dev, ino: id.ino };
  writeFileAtomic(file, JSON.stringify(all), 0o600);
  return true;
}

/** The record of `dir` in store `name`, when it is that very folder; else undefined. */
export function ownedRecord(name: string, dir: string): OwnedRecord | undefined {
  const file = storeFile(name);
  const id = folderIdentity(dir);
  if (!file || !id) return undefined;
  const rec = readStore(file)[id.real];
  return rec && rec.dev === id.dev && rec.ino === id.ino ? rec : undefined;
}
