import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { packagePass, savePackageRecords } from './code.js';
import { depsVersions, lockEntry } from './compute.js';
import { diffLock } from './diff.js';
import { readLock, writeLock } from './file.js';
import type { Drift, LockEntry, LockFile } from './types.js';

/** Entries that declare dependencies get their resolved versions (one cached `deps` check for all). */
async function withDeps(project: Project, entries: ToolEntry[], out: Record<string, LockEntry>): Promise<void> {
  const needing = entries.filter((e) => {
    const r = e.contract.requires;
    return r && (r.python !== undefined || r.node !== undefined || (r.bins?.length ?? 0) > 0);
  });
  if (needing.length === 0) return;
  const { checkDeps } = await import('../deps/check.js');
  for (const d of await checkDeps(project, needing)) {
    const v = depsVersions(d);
    if (v && out[d.id]) out[d.id]!.deps = v;
  }
}

/** The lock entries of the registry as it is now; upstream records are carried over from `previous`. */
export async function currentEntries(
  project: Project,
  entries: ToolEntry[],
  previous?: LockFile,
  opts: { deps?: boolean } = {},
): Promise<Record<string, LockEntry>> {
  const out: Record<string, LockEntry> = {};
  packagePass(() => {
    for (const e of entries) {
      out[e.contract.id] = lockEntry(project, e);
      const up = previous?.tools[e.contract.id]?.upstream;
      if (up) out[e.contract.id]!.upstream = up;
    }
  });
  if (opts.deps !== false) await withDeps(project, entries, out);
  return out;
}

/** What `toolbox lock` did: the file, the tools, and what changed against the previous lock. */
export interface LockReport {
  file: string;
  tools: number;
  changes: Drift[];
  /** There was no lock before: this one is new. */
  created: boolean;
}

/** Write toolbox.lock for these entries (the whole registry). */
export async function writeProjectLock(project: Project, entries: ToolEntry[]): Promise<LockReport> {
  const previous = readLock(project);
  const tools = await currentEntries(project, entries, previous);
  const changes = previous ? diffLock(previous, tools, { withDeps: true }) : [];
  const file = writeLock(project, { version: 1, tools });
  // The files behind each installed package's digest, so a later drift names the file (lock/code.ts).
  savePackageRecords(
    project.root,
    Object.values(tools).map((t) => t.runs.files),
  );
  return { file, tools: Object.keys(tools).length, changes, created: previous === undefined };
}

/** Drift of the registry against toolbox.lock; undefined when there is no lock. */
export async function checkProjectLock(project: Project, entries: ToolEntry[]): Promise<Drift[] | undefined> {
  const lock = readLock(project);
  if (!lock) return undefined;
  return diffLock(lock, await currentEntries(project, entries, lock), { withDeps: true });
}

export type { Drift, LockEntry, LockFile } from './types.js';
export { diffEntry, diffLock } from './diff.js';
export { lockEntry } from './compute.js';
export { readLock, writeLock, lockPath, LOCK_NAME } from './file.js';
