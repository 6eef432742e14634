import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '../config.js';
import type { Diagnostic } from '../contract/diagnostic.js';
import type { ToolContract } from '../contract/types.js';
import { writeFileAtomic, writeFileAtomicParts } from '../util/fs.js';

const VERSION = 1;

/** What the cache remembers of one contract file. */
export interface CachedFile {
  mtimeMs: number;
  size: number;
  ctimeMs: number;
  contract?: ToolContract;
  line?: number;
  diagnostics: Diagnostic[];
}
/** What `run` needs of one tool: its file, that file's fingerprint, and the validated contract. */
export interface IdIndexEntry {
  rel: string;
  mtimeMs: number;
  size: number;
  ctimeMs: number;
  line?: number;
  contract: ToolContract;
}
export interface RegistryCache {
  files: Record<string, CachedFile>;
}

// The full parsed registry (for list/select/validate) in one file, and an id -> contract index
// for `run` in ID_SHARDS files by a hash of the id: calling one tool reads 1/64 of the index and
// parses no YAML, so it costs about the same on 5 or 50,000 contracts.
const fullPath = (p: Project) => join(p.stateDir, 'cache', `registry-v${VERSION}.json`);
const ID_SHARDS = 64;
const IDS_VERSION = 2;
const idShard = (id: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % ID_SHARDS;
};
const shardPath = (p: Project, n: number) => join(p.stateDir, 'cache', `ids-v${IDS_VERSION}`, `${n}.json`);

interface OnDisk<T> {
  version: number;
  registryDir: string;
  data: T;
}

function readJson<T>(file: string, project: Project, version = VERSION): T | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as OnDisk<T>;
    if (v.version !== version || v.registryDir !== project.registryDir) return undefined;
    return v.data;
  } catch {
    return undefined;
  }
}

/** The id index entry of `id`, if the index has one (it may be stale: compare the fingerprint). */
export function readIdEntry(project: Project, id: string): IdIndexEntry | undefined {
  const shard = readJson<Record<string, IdIndexEntry>>(shardPath(project, idShard(id)), project, IDS_VERSION);
  return shard && Object.prototype.hasOwnProperty.call(shard, id) ? shard[id] : undefined;
}

/** Whether the id index exists (a cache written by an older version has none). */
export function hasIdIndex(project: Project): boolean {
  return existsSync(shardPath(project, ID_SHARDS - 1));
}

export function readCache(project: Project): RegistryCache | undefined {
  const files = readJson<Record<string, CachedFile>>(fullPath(project), project);
  return files ? { files } : undefined;
}

export function writeCache(project: Project, cache: RegistryCache): void {
  // Each contract is turned into JSON once and that text spliced into both the full cache and its
  // id shard (a second JSON.stringify of 10,000 contracts cost ~0.1 s of a cold build).
  const shards: string[][] = Array.from({ length: ID_SHARDS }, () => []);
  const taken: Set<string>[] = Array.from({ length: ID_SHARDS }, () => new Set());
  const full: string[] = [];
  let first = true;
  for (const [rel, f] of Object.entries(cache.files)) {
    const { contract, ...rest } = f;
    const head = JSON.stringify(rest).slice(0, -1);
    const contractJson = contract ? JSON.stringify(contract) : undefined;
    full.push(`${first ? '' : ','}${JSON.stringify(rel)}:${head}${contractJson ? `,"contract":${contractJson}` : ''}}`);
    first = false;
    if (!contract) continue;
    const n = idShard(contract.id);
    // The first file wins, as in the registry (a later duplicate is reported as broken).
    if (taken[n]!.has(contract.id)) continue;
    taken[n]!.add(contract.id);
    const entry: Omit<IdIndexEntry, 'contract'> = {
      rel,
      mtimeMs: f.mtimeMs,
      size: f.size,
      ctimeMs: f.ctimeMs,
      line: f.line,
    };
    shards[n]!.push(`${JSON.stringify(contract.id)}:${JSON.stringify(entry).slice(0, -1)},"contract":${contractJson}}`);
  }
  const open = (version: number) =>
    `{"version":${version},"registryDir":${JSON.stringify(project.registryDir)},"data":{`;
  const doc = (version: number, data: string[]) => `${open(version)}${data.join(',')}}}`;
  try {
    // Written in pieces: at 50,000 contracts the whole text is ~90 MB.
    writeFileAtomicParts(fullPath(project), [open(VERSION), ...full, '}}']);
    shards.forEach((data, n) => writeFileAtomic(shardPath(project, n), doc(IDS_VERSION, data)));
  } catch {
    // A read-only project still works, only slower.
  }
}
