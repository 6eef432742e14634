import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '../config.js';
import type { Diagnostic } from '../contract/diagnostic.js';
import type { ToolContract } from '../contract/types.js';
import { writeFileAtomic } from '../util/fs.js';

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
export interface IdIndexEntry {
  rel: string;
  mtimeMs: number;
  size: number;
  ctimeMs: number;
}
export interface RegistryCache {
  files: Record<string, CachedFile>;
  ids?: Record<string, IdIndexEntry>;
}

// Two files: the full parsed registry (for list/select/validate), and a small id -> file index
// that `run` reads so that calling one tool costs the same on 5 or 5,000 contracts.
const fullPath = (p: Project) => join(p.stateDir, 'cache', `registry-v${VERSION}.json`);
const idsPath = (p: Project) => join(p.stateDir, 'cache', `ids-v${VERSION}.json`);

interface OnDisk<T> {
  version: number;
  registryDir: string;
  data: T;
}

function readJson<T>(file: string, project: Project): T | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as OnDisk<T>;
    if (v.version !== VERSION || v.registryDir !== project.registryDir) return undefined;
    return v.data;
  } catch {
    return undefined;
  }
}

export function readCache(project: Project, opts: { idsOnly?: boolean } = {}): RegistryCache | undefined {
  if (opts.idsOnly) {
    const ids = readJson<Record<string, IdIndexEntry>>(idsPath(project), project);
    return ids ? { files: {}, ids } : undefined;
  }
  const files = readJson<Record<string, CachedFile>>(fullPath(project), project);
  return files ? { files } : undefined;
}

export function writeCache(project: Project, cache: RegistryCache): void {
  const ids: Record<string, IdIndexEntry> = {};
  for (const [rel, f] of Object.entries(cache.files)) {
    if (f.contract && !(f.contract.id in ids))
      ids[f.contract.id] = { rel, mtimeMs: f.mtimeMs, size: f.size, ctimeMs: f.ctimeMs };
  }
  try {
    writeFileAtomic(
      fullPath(project),
      JSON.stringify({ version: VERSION, registryDir: project.registryDir, data: cache.files }),
    );
    writeFileAtomic(
      idsPath(project),
      JSON.stringify({ version: VERSION, registryDir: project.registryDir, data: ids }),
    );
  } catch {
    // A read-only project still works, only slower.
  }
}
