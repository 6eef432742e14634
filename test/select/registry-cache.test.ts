// Select's first build of a large registry leaves the registry cache to the background verifier,
// which writes it from the index (src/select/registry-cache.ts): the same bytes as a full read of the
// registry writes, the full cache and every id shard, broken files and a duplicate id included.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { hasRegistryCache, readIdEntry } from '../../src/registry/cache.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { completeRegistryCache } from '../../src/select/registry-cache.js';
import { openIndex } from '../../src/select/store.js';
import { tempProject } from '../helpers.js';
import { genContracts } from './build-oracle.js';

const N = 60;
const LARGE = 20;
let p: ReturnType<typeof tempProject>;
const project = () => resolveProject({ cwd: p.dir });
const cacheDir = () => join(p.dir, '.toolbox', 'cache');

/** Every file of the registry cache (the full cache and the id shards), by name. */
function cacheFiles(): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  out.set('registry-v1.json', readFileSync(join(cacheDir(), 'registry-v1.json')));
  for (const f of readdirSync(join(cacheDir(), 'ids-v2'))) out.set(f, readFileSync(join(cacheDir(), 'ids-v2', f)));
  return out;
}
const dropRegistryCache = () => {
  rmSync(join(cacheDir(), 'registry-v1.json'), { force: true });
  rmSync(join(cacheDir(), 'ids-v2'), { recursive: true, force: true });
};

beforeAll(() => {
  p = tempProject();
  genContracts(N, 9).forEach((c, i) => {
    // Block YAML and one-line JSON (the line of the id differs), in folders.
    const text = i % 3 === 0 ? JSON.stringify(c) : stringify(c);
    p.write(`tool_registry/g${i % 3}/t${String(i).padStart(3, '0')}.yaml`, text);
  });
  p.write('tool_registry/g1/broken_yaml.yaml', 'id: broken_yaml\nname: [unclosed\n');
  p.write('tool_registry/g2/broken_schema.yaml', 'id: broken_schema\ndescription: x\nloader: nope\n');
  p.write('tool_registry/g2/zz_dup.yaml', stringify(genContracts(1, 9)[0]));
});
afterAll(() => p?.cleanup());

describe('the registry cache after select on a large registry', () => {
  it('is not written by the first build, which answers all the same', async () => {
    const ix = await openIndex(project(), { tokens: true, largeAbove: LARGE });
    expect(ix.tools).toHaveLength(N);
    expect(ix.broken).toHaveLength(3);
    expect(existsSync(join(cacheDir(), 'select-index.bin'))).toBe(true);
    expect(hasRegistryCache(project())).toBe(false);
    expect(existsSync(join(cacheDir(), 'registry-v1.json'))).toBe(false);
  });

  it('is written from the index as a full read writes it, byte for byte', () => {
    expect(completeRegistryCache(project())).toBe(true);
    const fromIndex = cacheFiles();
    expect(fromIndex.size).toBe(65);
    dropRegistryCache();
    const reg = loadRegistry(project()); // a full read: writes the cache as it reads
    expect(reg.parsed).toBe(N + 3);
    const fromRead = cacheFiles();
    expect([...fromIndex.keys()].sort()).toEqual([...fromRead.keys()].sort());
    for (const [name, bytes] of fromRead) expect(fromIndex.get(name)!.equals(bytes), name).toBe(true);
    // The duplicate's id points at the first file that has it.
    expect(readIdEntry(project(), genContracts(1, 9)[0]!.id)!.rel).toBe('g0/t000.yaml');
  });

  it('serves the next read without parsing, and is left alone once it exists', () => {
    dropRegistryCache();
    expect(completeRegistryCache(project())).toBe(true);
    const reg = loadRegistry(project());
    expect(reg.parsed).toBe(0);
    expect(reg.entries).toHaveLength(N);
    expect(reg.broken.map((b) => b.diagnostics[0]!.rule).sort()).toEqual([
      'contract-schema',
      'duplicate-id',
      'yaml-syntax',
    ]);
    const before = readFileSync(join(cacheDir(), 'registry-v1.json'));
    expect(completeRegistryCache(project())).toBe(false);
    expect(readFileSync(join(cacheDir(), 'registry-v1.json')).equals(before)).toBe(true);
  });

  it('is not written without an index', () => {
    rmSync(join(p.dir, '.toolbox'), { recursive: true, force: true });
    expect(completeRegistryCache(project())).toBe(false);
    expect(existsSync(join(cacheDir(), 'registry-v1.json'))).toBe(false);
  });
});
