// The streamed full build of the selection index (src/select/build.ts, scanRegistry) against the
// path it replaced: load the whole registry, then analyse every contract, then encode. The index
// file must be byte for byte what that path gives, and the registry and statistics caches must
// hold what they held.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject, type Project } from '../../src/config.js';
import { readCache, readIdEntry } from '../../src/registry/cache.js';
import { discoverContractFiles } from '../../src/registry/discover.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { estimateTokens, IndexBuilder } from '../../src/select/build.js';
import { toolText } from '../../src/select/fields.js';
import { docStats, STATS_KEY } from '../../src/select/model.js';
import { openIndex } from '../../src/select/store.js';
import { decodeIndex, encodeIndex, type FileList, type IndexData } from '../../src/select/store-format.js';
import { definitionTokens } from '../../src/select/tokens.js';
import { nodeCrypto } from '../../src/util/builtins.js';
import { tempProject } from '../helpers.js';
import { genContracts, oracle } from './build-oracle.js';

const N = 300;
let p: ReturnType<typeof tempProject>;
const project = (): Project => resolveProject({ cwd: p.dir });
const cache = (name: string) => join(p.dir, '.toolbox', 'cache', name);

function listing(dir: string): FileList {
  const rel = discoverContractFiles(dir);
  const st = rel.map((r) => statSync(join(dir, r)));
  return {
    rel,
    mtime: Float64Array.from(st, (s) => s.mtimeMs),
    size: Float64Array.from(st, (s) => s.size),
    ctime: Float64Array.from(st, (s) => s.ctimeMs),
  };
}

/** The index data as the old path made it: the whole registry loaded, then every tool analysed. */
async function reference(pr: Project): Promise<IndexData> {
  const reg = loadRegistry(pr, { cache: false });
  const rel = (f: string) => f.slice(pr.registryDir.length + 1);
  const cs = reg.entries.map((e) => e.contract);
  return {
    registryDir: pr.registryDir,
    files: listing(pr.registryDir),
    est: [],
    drift: 0,
    broken: reg.broken.map((b) => rel(b.file)),
    tools: await Promise.all(
      reg.entries.map(async (e) => ({
        id: e.contract.id,
        rel: rel(e.file),
        line: e.line,
        tok: await definitionTokens(e.contract),
        ...(e.contract.permissions ? { permissions: e.contract.permissions } : {}),
      })),
    ),
    lex: oracle(cs.map(docStats)),
    contracts: cs.map((c) => JSON.stringify(c)),
    hashes: cs.map((c) => nodeCrypto().createHash('sha1').update(toolText(c)).digest('hex').slice(0, 20)),
  };
}

beforeAll(() => {
  p = tempProject();
  genContracts(N, 3).forEach((c, i) => {
    // Block YAML, flow (one-line JSON) and a folder tree: the parser's fast path and its fallback.
    const text = i % 3 === 0 ? JSON.stringify(c) : stringify(c);
    p.write(`tool_registry/g${i % 4}/t${String(i).padStart(3, '0')}.yaml`, text);
  });
  p.write('tool_registry/g1/broken_yaml.yaml', 'id: broken_yaml\nname: [unclosed\n');
  p.write('tool_registry/g2/broken_schema.yaml', 'id: broken_schema\ndescription: x\nloader: nope\n');
  // A later file with an id already taken is broken too.
  p.write('tool_registry/g3/zz_dup.yaml', stringify(genContracts(1, 3)[0]));
});
afterAll(() => p?.cleanup());

describe('the streamed full build', () => {
  it('writes the index file the old path wrote, byte for byte', async () => {
    const ix = await openIndex(project(), { tokens: true });
    expect(ix.rebuilt).toBe(N);
    const ref = await reference(project());
    expect(ref.broken).toEqual(['g1/broken_yaml.yaml', 'g2/broken_schema.yaml', 'g3/zz_dup.yaml']);
    expect(ref.tools).toHaveLength(N);
    const bin = readFileSync(cache('select-index.bin'));
    expect(bin.equals(Buffer.from(encodeIndex(ref)))).toBe(true);
    // What the caller gets is that index.
    expect(ix.tools).toEqual(decodeIndex(bin)!.tools);
    expect(ix.broken).toEqual(ref.broken.map((r) => join(project().registryDir, r)));
    expect(ix.contract(17)).toEqual(loadRegistry(project(), { cache: false }).entries[17]!.contract);
  });

  it('writes the registry cache and the id index as the registry reads them', () => {
    const reg = loadRegistry(project(), { cache: false });
    const files = readCache(project())!.files;
    expect(Object.keys(files)).toEqual(discoverContractFiles(project().registryDir));
    for (const e of reg.entries) {
      const rel = e.file.slice(project().registryDir.length + 1);
      expect(files[rel]!.contract).toEqual(e.contract);
      expect(readIdEntry(project(), e.contract.id)).toMatchObject({ rel, line: e.line, contract: e.contract });
    }
    expect(files['g1/broken_yaml.yaml']!.diagnostics[0]!.rule).toBe('yaml-syntax');
    expect(files['g2/broken_schema.yaml']!.contract).toBeUndefined();
    // The duplicate's id points at the first file that has it.
    expect(readIdEntry(project(), genContracts(1, 3)[0]!.id)!.rel).toBe('g0/t000.yaml');
  });

  it('reuses every statistic and token count when the index file is lost', async () => {
    const before = readFileSync(cache('select-index.bin'));
    const stats = JSON.parse(readFileSync(cache(`select-stats-v${STATS_KEY}.json`), 'utf8')) as {
      files: Record<string, { tok: number }>;
    };
    expect(Object.keys(stats.files)).toHaveLength(N);
    expect(Object.values(stats.files).every((f) => f.tok > 0)).toBe(true);
    rmSync(cache('select-index.bin'));
    const ix = await openIndex(project(), { tokens: true });
    expect(ix.rebuilt).toBe(0);
    expect(readFileSync(cache('select-index.bin')).equals(before)).toBe(true);
  });

  it('gives the same index from an already loaded registry, and without a cache', async () => {
    const before = readFileSync(cache('select-index.bin'));
    const reg = loadRegistry(project());
    rmSync(join(p.dir, '.toolbox'), { recursive: true });
    const fromReg = await openIndex(project(), { registry: reg, tokens: true });
    expect(fromReg.tools).toEqual(decodeIndex(before)!.tools);
    expect([...fromReg.lex.sat]).toEqual([...decodeIndex(before)!.lex.sat]);
    // Answered, not stored: the loaded registry may be older than the files (store.ts rebuild).
    expect(existsSync(cache('select-index.bin'))).toBe(false);
    const mem = await openIndex(project(), { cache: false, tokens: true });
    expect(mem.tools).toEqual(decodeIndex(before)!.tools);
    expect([...mem.lex.sat]).toEqual([...decodeIndex(before)!.lex.sat]);
  });

  it('estimates token counts when asked and does not remember the estimates', async () => {
    const pr = project();
    const reg = loadRegistry(pr, { cache: false });
    const statsFile = join(p.dir, 'stats-estimated.json');
    const b = new IndexBuilder({
      registryDir: pr.registryDir,
      files: listing(pr.registryDir),
      tokens: true,
      estimate: true,
      statsFile,
    });
    for (const e of reg.entries)
      b.add(e.file.slice(pr.registryDir.length + 1), e.line, e.contract, JSON.stringify(e.contract));
    const d = await b.finish([]);
    expect(d.est).toEqual(reg.entries.map((_, i) => i));
    expect(d.tools.map((t) => t.tok)).toEqual(reg.entries.map((e) => estimateTokens(e.contract)));
    const saved = JSON.parse(readFileSync(statsFile, 'utf8')) as { files: Record<string, { tok: number }> };
    expect(Object.values(saved.files).map((f) => f.tok)).toEqual(reg.entries.map(() => -1));
    expect(b.rebuilt).toBe(N);
  });
});
