/**
 * Which `.toolbox/envs/<id>/` folders toolbox itself made. A cloned repository can ship a folder
 * there, marker file and all, so the marker alone proves nothing: the proof is a record in the
 * user's own cache (util/owned-dirs.ts, store `envs.json`) holding the folder's device and inode and
 * a random nonce that is also in the folder's marker. A folder that is not recorded, or whose nonce
 * or inode differs (deleted and made again, copied, planted), is not toolbox's and is ignored.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs.js';
import { ownedRecord, recordOwned } from '../util/owned-dirs.js';

/** Marker written into a tool's venv once `deps --install` has finished. */
export const ENV_MARKER = 'toolbox-env.json';
const STORE = 'envs.json';

/**
 * Write the marker into `dir` (which toolbox just made and filled) and record it as toolbox's in the
 * user's cache. Returns false when there is no safe cache folder (the env then does not count).
 */
export function recordEnv(dir: string, marker: Record<string, unknown>): boolean {
  const nonce = randomBytes(16).toString('hex');
  writeFileAtomic(join(dir, ENV_MARKER), JSON.stringify({ ...marker, nonce }, null, 2) + '\n');
  return recordOwned(STORE, dir, { nonce });
}

/** Whether `dir` is a venv toolbox made (see the file comment). Cheap: a few stats and two small reads. */
export function envIsOurs(dir: string): boolean {
  const rec = ownedRecord(STORE, dir);
  if (typeof rec?.nonce !== 'string') return false;
  try {
    const m = join(dir, ENV_MARKER);
    if (!lstatSync(m).isFile()) return false;
    return (JSON.parse(readFileSync(m, 'utf8')) as { nonce?: unknown }).nonce === rec.nonce;
  } catch {
    return false;
  }
}
