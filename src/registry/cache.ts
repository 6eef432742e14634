import type { Project } from '../config.js';
import type { Diagnostic } from '../contract/diagnostic.js';
import type { ToolContract } from '../contract/types.js';
import { type AtomicWriter, sweepTemps } from '../util/fs.js';
import { cacheOp, noteUnsafeCache, readStateText, stateFolder, statState, stateWriter } from '../util/state.js';

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
// Paths relative to the state folder (.toolbox/), read and written through util/state.ts.
const FULL = `cache/registry-v${VERSION}.json`;
const ID_SHARDS = 64;
const IDS_VERSION = 2;
const idShard = (id: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % ID_SHARDS;
};
const SHARDS_DIR = `cache/ids-v${IDS_VERSION}`;
const shardPath = (n: number) => `${SHARDS_DIR}/${n}.json`;

interface OnDisk<T> {
  version: number;
  registryDir: string;
  data: T;
}

function readJson<T>(rel: string, project: Project, version = VERSION): T | undefined {
  try {
    const text = cacheOp(() => readStateText(project.stateDir, rel), undefined);
    if (text === undefined) return undefined;
    const v = JSON.parse(text) as OnDisk<T>;
    if (v.version !== version || v.registryDir !== project.registryDir) return undefined;
    return v.data;
  } catch {
    return undefined;
  }
}

const exists = (project: Project, rel: string) => cacheOp(() => statState(project.stateDir, rel) !== undefined, false);

/** The id index entry of `id`, if the index has one (it may be stale: compare the fingerprint). */
export function readIdEntry(project: Project, id: string): IdIndexEntry | undefined {
  const shard = readJson<Record<string, IdIndexEntry>>(shardPath(idShard(id)), project, IDS_VERSION);
  return shard && Object.prototype.hasOwnProperty.call(shard, id) ? shard[id] : undefined;
}

/** Whether the id index exists (a cache written by an older version has none). */
export function hasIdIndex(project: Project): boolean {
  return exists(project, shardPath(ID_SHARDS - 1));
}

/** Whether the registry cache and its id index exist (whatever their age: readers compare fingerprints). */
export function hasRegistryCache(project: Project): boolean {
  return exists(project, FULL) && hasIdIndex(project);
}

export function readCache(project: Project): RegistryCache | undefined {
  const files = readJson<Record<string, CachedFile>>(FULL, project);
  return files ? { files } : undefined;
}

/**
 * Writes the registry cache file by file as contracts are read, in pieces: at 50,000 contracts the
 * full cache is ~90 MB of text, which then never exists in memory at once. Each contract's JSON is
 * spliced into both the full cache and its id shard. A cache that cannot be written (read-only
 * project) is silently skipped: it is an optimisation.
 */
export class CacheWriter {
  private full: AtomicWriter | undefined;
  private shards: AtomicWriter[] = [];
  private readonly taken = new Set<string>();
  private readonly shardUsed = new Uint8Array(ID_SHARDS);
  private first = true;

  constructor(private readonly project: Project) {
    // A build interrupted before its commit (Ctrl+C, SIGKILL) left its temp files: a new full write is
    // the moment to remove them.
    try {
      for (const dir of ['cache', SHARDS_DIR]) sweepTemps(stateFolder(project.stateDir, dir, true)!);
      this.full = stateWriter(project.stateDir, FULL);
      this.full.write(open(VERSION, project));
      for (let n = 0; n < ID_SHARDS; n++) {
        // Small buffers: 64 shards are open at once.
        const w = stateWriter(project.stateDir, shardPath(n), 1 << 16);
        this.shards.push(w);
        w.write(open(IDS_VERSION, project));
      }
    } catch (e) {
      // Unsafe .toolbox/ entries: said once (util/state.ts); a read-only project: silently no cache.
      noteUnsafeCache(e);
      this.fail();
    }
  }

  /** One file's cache entry; `contractJson` is JSON.stringify(f.contract) when the caller has it already. */
  add(rel: string, f: CachedFile, contractJson?: string): void {
    if (!this.full) return;
    const { contract, ...rest } = f;
    const json = contract ? (contractJson ?? JSON.stringify(contract)) : undefined;
    this.addRaw(rel, JSON.stringify(rest), contract?.id, json, contract && idEntryJson(rel, f));
  }

  /**
   * One file's entry as text: `rest` is the JSON of the entry without its contract (fingerprint,
   * line, diagnostics); `id`, `json` and `idEntry` (idEntryJson) are set when it has a contract.
   */
  addRaw(rel: string, rest: string, id?: string, json?: string, idEntry?: string): void {
    if (!this.full) return;
    try {
      const head = rest.slice(0, -1);
      this.full.write(`${this.first ? '' : ','}${JSON.stringify(rel)}:${head}${json ? `,"contract":${json}` : ''}}`);
      this.first = false;
      if (id === undefined || json === undefined || idEntry === undefined) return;
      // The first file wins, as in the registry (a later duplicate is reported as broken).
      if (this.taken.has(id)) return;
      this.taken.add(id);
      const n = idShard(id);
      const sep = this.shardUsed[n] ? ',' : '';
      this.shardUsed[n] = 1;
      this.shards[n]!.write(`${sep}${JSON.stringify(id)}:${idEntry.slice(0, -1)},"contract":${json}}`);
    } catch {
      this.fail();
    }
  }

  commit(): void {
    if (!this.full) return;
    try {
      this.full.write('}}');
      this.full.commit();
      this.full = undefined;
      for (const w of this.shards) {
        w.write('}}');
        w.commit();
      }
      this.shards = [];
    } catch {
      this.fail();
    }
  }

  /** Write nothing after all. */
  abort(): void {
    this.fail();
  }

  private fail(): void {
    this.full?.abort();
    this.full = undefined;
    for (const w of this.shards) w.abort();
    this.shards = [];
  }
}

/** The id index entry of a file with a contract, as JSON without the contract. */
export function idEntryJson(rel: string, f: CachedFile): string {
  const entry: Omit<IdIndexEntry, 'contract'> = {
    rel,
    mtimeMs: f.mtimeMs,
    size: f.size,
    ctimeMs: f.ctimeMs,
    line: f.line,
  };
  return JSON.stringify(entry);
}

const open = (version: number, project: Project) =>
  `{"version":${version},"registryDir":${JSON.stringify(project.registryDir)},"data":{`;

export function writeCache(project: Project, cache: RegistryCache): void {
  const w = new CacheWriter(project);
  for (const [rel, f] of Object.entries(cache.files)) w.add(rel, f);
  w.commit();
}
