/**
 * .toolbox/cache/deps.json: each tool's last result with a fingerprint of what it depended on
 * (the contract file, PATH, which of the relevant env vars are set, and the mtimes of the files
 * that decide the answer: interpreters, sys.path folders, node_modules package.json files,
 * executables, requirements files, the venv marker). Still valid only when all of those match.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { writeFileAtomic } from '../util/fs.js';
import { cachePath as checkedCachePath } from '../util/state.js';
import type { ToolDeps } from './types.js';
import { mtimeOf, type Watch } from './util.js';

const VERSION = 1;

/** What a cached result depended on. Env vars appear by name with a presence flag, never a value. */
export interface Fingerprint {
  contract: { file: string; mtimeMs: number; size: number };
  path: string;
  env: Record<string, boolean>;
  files: Record<string, number | null>;
}

interface CacheFile {
  version: number;
  tools: Record<string, { fp: Fingerprint; result: ToolDeps }>;
}

// Checked by util/state.ts: undefined when .toolbox/ or the entry is refused (then no cache).
const cachePath = (p: Project, create = false) => checkedCachePath(p.stateDir, 'cache/deps.json', create);

export const envSet = (env: NodeJS.ProcessEnv, name: string): boolean => env[name] !== undefined && env[name] !== '';

export function contractStamp(entry: ToolEntry): Fingerprint['contract'] | undefined {
  try {
    const st = statSync(entry.file);
    return { file: entry.file, mtimeMs: st.mtimeMs, size: st.size };
  } catch {
    return undefined;
  }
}

export function makeFingerprint(
  entry: ToolEntry,
  env: NodeJS.ProcessEnv,
  envNames: string[],
  watch: Watch,
): Fingerprint | undefined {
  const contract = contractStamp(entry);
  if (!contract) return undefined;
  return {
    contract,
    path: env.PATH ?? '',
    env: Object.fromEntries(envNames.map((n) => [n, envSet(env, n)])),
    files: Object.fromEntries(watch),
  };
}

function fresh(fp: Fingerprint, entry: ToolEntry, env: NodeJS.ProcessEnv): boolean {
  const now = contractStamp(entry);
  if (!now || now.file !== fp.contract.file || now.mtimeMs !== fp.contract.mtimeMs || now.size !== fp.contract.size)
    return false;
  if ((env.PATH ?? '') !== fp.path) return false;
  for (const [n, set] of Object.entries(fp.env)) if (envSet(env, n) !== set) return false;
  for (const [f, m] of Object.entries(fp.files)) if (mtimeOf(f) !== m) return false;
  return true;
}

/** Read the cache once per check. */
export function readDepsCache(project: Project): CacheFile {
  try {
    const file = cachePath(project);
    const v = (file ? JSON.parse(readFileSync(file, 'utf8')) : undefined) as CacheFile | undefined;
    if (!v) return { version: VERSION, tools: {} };
    if (v.version === VERSION && v.tools && typeof v.tools === 'object') return v;
  } catch {
    /* missing or corrupt: start over */
  }
  return { version: VERSION, tools: {} };
}

/** The cached result for `entry` when nothing it depended on changed. */
export function cachedResult(cache: CacheFile, entry: ToolEntry, env: NodeJS.ProcessEnv): ToolDeps | undefined {
  const hit = cache.tools[entry.contract.id];
  if (!hit || !fresh(hit.fp, entry, env)) return undefined;
  return { ...hit.result, cached: true };
}

/** Merge new results into the file (re-read first, so concurrent checks lose less). Never throws. */
export function writeDepsCache(project: Project, updates: { fp: Fingerprint; result: ToolDeps }[]): void {
  if (updates.length === 0) return;
  const cur = readDepsCache(project);
  for (const u of updates) cur.tools[u.result.id] = { fp: u.fp, result: { ...u.result, cached: undefined } };
  try {
    const file = cachePath(project, true);
    if (file) writeFileAtomic(file, JSON.stringify(cur));
  } catch {
    // A read-only project still works, only slower.
  }
}
