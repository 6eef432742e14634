// The change journal of a large registry: one stat per folder instead of one per contract file.
// A folder's mtime changes when a file in it is created, deleted or renamed over (how editors,
// git and `toolbox new` save), so unchanged folders mean an unchanged file list. What a folder
// mtime misses, a file rewritten in place, is caught twice: the files of the top results are
// checked on every query (store.ts), and a background check re-stats every file at most every few
// seconds (a process, verify-main.ts; in the daemon, in-process after the answer, with the process
// started only when something changed) and updates the index when something changed.
import { constants, readFileSync, statSync, utimesSync, closeSync, openSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import type { Project } from '../config.js';
import { codePath } from '../util/assets.js';
import { SELF, spawnHost } from '../util/host-process.js';
import { writeFileAtomic } from '../util/fs.js';
import { cachePath } from '../util/state.js';

/** Registries with more contract files than this use the journal; smaller ones stat every file. */
export const JOURNAL_MIN_FILES = 2000;
/** A folder modified this recently may still change within the same timestamp: never trusted. */
const RACY_MS = 2000;
/** Re-stat every file in the background at most this often. */
const VERIFY_EVERY_MS = 3000;

interface Journal {
  /** Size and mtime of the index file these folders belong to. */
  index: [number, number];
  dirs: string[];
  mtime: number[];
}

// Checked paths (util/state.ts): undefined when .toolbox/ or the entry is refused (then no journal).
const journalPath = (p: Project, create = false) => cachePath(p.stateDir, 'cache/select-dirs.json', create);
const markerPath = (p: Project) => cachePath(p.stateDir, 'cache/select-verified', true);

function indexStamp(indexFile: string): [number, number] | undefined {
  const st = statSync(indexFile, { throwIfNoEntry: false });
  return st ? [st.size, st.mtimeMs] : undefined;
}

/**
 * Remember the folders (relative to the registry) the index at `indexFile` was built from. `asOf`: when
 * the files were looked at (a folder changed less than RACY_MS before it, or after it, is not trusted).
 */
export function writeJournal(project: Project, indexFile: string, dirs: string[], asOf = Date.now()): void {
  const stamp = indexStamp(indexFile);
  if (!stamp) return;
  const now = asOf;
  const mtime = dirs.map((d) => {
    const st = statSync(join(project.registryDir, d), { throwIfNoEntry: false });
    // A folder changed within RACY_MS may change again within the same mtime: record it as unknown.
    return st && now - st.mtimeMs > RACY_MS ? st.mtimeMs : -1;
  });
  try {
    const file = journalPath(project, true);
    if (file) writeFileAtomic(file, JSON.stringify({ index: stamp, dirs, mtime } satisfies Journal));
  } catch {
    /* read-only project: every open stats every file */
  }
}

/**
 * The folders of the journal and which of them changed (or cannot be trusted) since, when the
 * index file is the one the journal describes; undefined when it is not (or there is no journal).
 */
export function changedFolders(
  project: Project,
  indexFile: string,
): { dirs: string[]; changed: boolean[] } | undefined {
  let j: Journal;
  try {
    const file = journalPath(project);
    if (!file) return undefined;
    j = JSON.parse(readFileSync(file, 'utf8')) as Journal;
  } catch {
    return undefined;
  }
  const stamp = indexStamp(indexFile);
  if (!stamp || stamp[0] !== j.index[0] || stamp[1] !== j.index[1]) return undefined;
  const changed = j.dirs.map((d, i) => {
    const st = statSync(join(project.registryDir, d), { throwIfNoEntry: false });
    return !st || j.mtime[i]! < 0 || st.mtimeMs !== j.mtime[i];
  });
  return { dirs: j.dirs, changed };
}

/** How a resident process (the daemon) re-verifies a project's index instead of starting a process. */
export type ResidentVerifier = (project: Project) => void;
let resident: ResidentVerifier | undefined;

/**
 * Make this process re-verify in-process (a resident daemon: it already has the code loaded, and a
 * process per check would cost more than the check). undefined: back to the background process.
 */
export function setResidentVerifier(v: ResidentVerifier | undefined): void {
  resident = v;
}

/**
 * Start the background re-verification unless one ran in the last few seconds: in a resident process
 * its verifier, else a detached, low-priority process. Never throws and never waits: it is an
 * optimisation's safety net.
 */
export function verifyInBackground(project: Project): void {
  try {
    const marker = markerPath(project);
    if (!marker) return;
    const st = statSync(marker, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs < VERIFY_EVERY_MS) return;
    if (st) utimesSync(marker, new Date(), new Date());
    else closeSync(openSync(marker, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644));
  } catch {
    return; /* best effort */
  }
  if (resident) resident(project);
  else spawnVerifier(project);
}

/** Start the verifier process (verify-main.ts: a full open that updates the index), detached, at low priority. */
export function spawnVerifier(project: Project): void {
  try {
    const script = codePath('select', 'verify-main.js');
    const env = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    const child = spawnHost(SELF, [script, project.registryDir, project.stateDir], {
      detached: true,
      stdio: 'ignore',
      env,
      cwd: process.cwd(),
      path: 'exact',
    });
    child.on('error', () => {});
    if (child.pid) setPriority(child.pid, 10);
    child.unref();
  } catch {
    /* best effort */
  }
}
