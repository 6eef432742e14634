// A full build of the selection index: from a registry the caller has loaded, else from the
// contract files, read one at a time (scanRegistry). Either way each contract is analysed and
// folded into the index as it comes (build.ts) and not kept. Returns the encoded index file.
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Project } from '../config.js';
import type { Registry } from '../registry/registry.js';
import { IndexBuilder, type StatsCache } from './build.js';
import { encodeIndex, type FileList } from './store-format.js';

export interface FullBuildOptions {
  tokens: boolean;
  estimate: boolean;
  useCache: boolean;
  /** The statistics cache file (read when `useCache`; written when `useCache` and `store`). */
  statsFile: string | undefined;
  /** Write the statistics cache (not for a registry the caller loaded: see store.ts `rebuild`). */
  store: boolean;
  /** Write the registry cache while reading when there is none (false: the background verifier writes it). */
  registryCache: boolean;
}

function readStats(file: string, registryDir: string): StatsCache | undefined {
  try {
    const old = JSON.parse(readFileSync(file, 'utf8')) as StatsCache;
    return old.registryDir === registryDir ? old : undefined;
  } catch {
    return undefined;
  }
}

export async function buildFull(
  project: Project,
  files: FileList,
  reg: Registry | undefined,
  o: FullBuildOptions,
): Promise<{ buf: Uint8Array; rebuilt: number }> {
  const dir = project.registryDir;
  const old = o.useCache && o.statsFile ? readStats(o.statsFile, dir) : undefined;
  const b = new IndexBuilder({
    registryDir: dir,
    files,
    tokens: o.tokens,
    estimate: o.estimate,
    old,
    statsFile: o.useCache && o.store ? o.statsFile : undefined,
  });
  const broken: string[] = [];
  try {
    if (reg) {
      const relOf = (file: string) => relative(dir, file).split(sep).join('/');
      for (const e of reg.entries) b.add(relOf(e.file), e.line, e.contract, JSON.stringify(e.contract));
      for (const x of reg.broken) broken.push(relOf(x.file));
    } else {
      const { Assembler, scanRegistry } = await import('../registry/registry.js');
      const sort = new Assembler(dir);
      const listing = {
        rel: files.rel,
        stamp: (i: number) => ({ mtimeMs: files.mtime[i]!, size: files.size[i]!, ctimeMs: files.ctime[i]! }),
      };
      scanRegistry(project, { cache: o.useCache, listing, writeCache: o.registryCache }, (rel, f, json) => {
        const r = sort.add(rel, f);
        if ('diagnostics' in r) broken.push(rel);
        else b.add(rel, r.line, r.contract, json()!);
      });
    }
  } catch (e) {
    b.abort();
    throw e;
  }
  return { buf: encodeIndex(await b.finish(broken)), rebuilt: b.rebuilt };
}
