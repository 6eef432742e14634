// The registry cache written from the selection index, by the background verifier. Select's first
// build of a large registry answers without writing the registry cache (the full cache and its 64 id
// shards are about as big as the index: ~15 MB at 10,000 contracts); the verifier that follows that
// build writes it from the index, which holds every valid contract as the JSON the cache stores.
// Only the broken files are read again, for their diagnostics. The result is the cache a full read
// of the registry writes, byte for byte (test/select/registry-cache.test.ts).
import { join } from 'node:path';
import type { Project } from '../config.js';
import { CacheWriter, hasRegistryCache, idEntryJson } from '../registry/cache.js';
import { parseOne } from '../registry/registry.js';
import type { StoredIndex } from './store-format.js';
import { storedIndex } from './store.js';

/**
 * Write the registry cache from the stored index when the project has none (or no id index).
 * Returns whether it wrote one. Never throws: the cache is an optimisation.
 */
export function completeRegistryCache(project: Project): boolean {
  try {
    if (hasRegistryCache(project)) return false;
    const s = storedIndex(project);
    if (!s) return false;
    return writeRegistryCacheFrom(project, s);
  } catch {
    return false;
  }
}

/** Write the registry cache of the files `s` was built from. */
export function writeRegistryCacheFrom(project: Project, s: StoredIndex): boolean {
  const docOf = new Map<string, number>();
  s.tools.forEach((t, i) => docOf.set(t.rel, i));
  const w = new CacheWriter(project);
  const { files } = s;
  for (let i = 0; i < files.rel.length; i++) {
    const rel = files.rel[i]!;
    const st = { mtimeMs: files.mtime[i]!, size: files.size[i]!, ctimeMs: files.ctime[i]! };
    const doc = docOf.get(rel);
    if (doc === undefined) {
      // A broken file (or a duplicate id): what reading it gives, as the full read wrote it.
      w.add(rel, parseOne(project.registryDir, join(project.registryDir, rel), st));
      continue;
    }
    const t = s.tools[doc]!;
    // The entry of a valid contract, in parseOne's key order (its diagnostics are empty).
    const entry = { ...st, line: t.line, diagnostics: [] };
    const b = s.blob(doc);
    const json = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
    w.addRaw(rel, JSON.stringify(entry), t.id, json, idEntryJson(rel, entry));
  }
  w.commit();
  return hasRegistryCache(project);
}
