// The parts of the streamed cold build (src/select/build.ts, full-build.ts) that the byte-for-byte
// comparison in build.test.ts does not pin: the token estimate, when a cached statistic is reused,
// what the statistics cache holds and in which order, the packed contract buffer growing past its
// first sizes, an aborted build, and the build from a registry the caller loaded.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { loadRegistry, type Registry } from '../../src/registry/registry.js';
import { estimateTokens, IndexBuilder, textHash, type StatsCache } from '../../src/select/build.js';
import { fieldTexts } from '../../src/select/fields.js';
import { docStatsOf, STATS_KEY, type DocStats } from '../../src/select/model.js';
import { openIndex } from '../../src/select/store.js';
import type { FileList } from '../../src/select/store-format.js';
import { countTokens, toolDefinition } from '../../src/select/tokens.js';
import { tempProject } from '../helpers.js';
import { fixtureProject } from './fixture.js';

const tool = (id: string, description = `Look up the ${id} records.`): ToolContract => ({
  id,
  name: id,
  description,
  schema: { type: 'object' },
  loader: 'command',
  loader_config: { argv: ['echo'] },
});
/** A file list with the given [mtime, size, ctime] per file. */
const listOf = (fps: Record<string, [number, number, number]>): FileList => {
  const rel = Object.keys(fps);
  return {
    rel,
    mtime: Float64Array.from(rel, (r) => fps[r]![0]),
    size: Float64Array.from(rel, (r) => fps[r]![1]),
    ctime: Float64Array.from(rel, (r) => fps[r]![2]),
  };
};
/** Statistics no real contract has (the term `cachedonly`): seen in the index only when reused. */
const CACHED: DocStats = { tf: [{}, { cachedonly: 1 }, {}, {}, {}, {}, {}], len: [0, 1, 0, 0, 0, 0, 0] };
const stats = (c: ToolContract) => docStatsOf(fieldTexts(c));

let p: ReturnType<typeof tempProject> | undefined;
afterEach(() => {
  p?.cleanup();
  p = undefined;
});

describe('estimateTokens', () => {
  // toolDefinition as JSON: {"type":"function","function":{"name":"t","description":"…","parameters":{"type":"object"}}}
  it('is a quarter of the characters of an ASCII definition, rounded up', () => {
    const c = tool('t', 'abcd');
    expect(JSON.stringify(toolDefinition(c))).toHaveLength(95);
    expect(estimateTokens(c)).toBe(24); // ⌈95 / 4⌉
  });

  it('counts one token per character past ASCII: (UTF-8 bytes − characters) / 2 of them, rounded', () => {
    // 查询天气: 95 characters, 103 bytes: 4 CJK characters; ⌈(95 − 4) / 4⌉ + 4.
    expect(estimateTokens(tool('t', '查询天气'))).toBe(27);
    // ééééé: 96 characters, 101 bytes: (101 − 96) / 2 = 2.5 → 3 such characters; ⌈(96 − 3) / 4⌉ + 3.
    expect(estimateTokens(tool('t', 'ééééé'))).toBe(27);
    // é: 92 characters, 93 bytes: 0.5 → 1; ⌈91 / 4⌉ + 1.
    expect(estimateTokens(tool('t', 'é'))).toBe(24);
  });
});

describe('textHash', () => {
  it('is the first 20 hex digits of the SHA-1 of the searchable text', () => {
    const c: ToolContract = {
      ...tool('t', 'abcd'),
      name: 'Tee',
      schema: { type: 'object', properties: { city: { type: 'string', description: 'The city' } } },
      tags: ['x'],
    };
    // toolTextOf: "name (id)", the description, the parameters' text, the tags.
    const text = 'Tee (t)\nabcd\ncity \n The city\nx';
    expect(textHash(c, fieldTexts(c))).toBe(createHash('sha1').update(text).digest('hex').slice(0, 20));
  });
});

describe('IndexBuilder', () => {
  const dir = '/registry';
  const build = (o: Partial<ConstructorParameters<typeof IndexBuilder>[0]> & { files: FileList }) =>
    new IndexBuilder({ registryDir: dir, tokens: false, estimate: false, ...o });
  const cacheOf = (fp: [number, number, number], id = 'a', tok = 7): StatsCache => ({
    registryDir: dir,
    files: { 'a.yaml': { fp, id, stats: CACHED, tok } },
  });

  it('reuses a cached statistic only for the same file, fingerprint and id', async () => {
    const files = listOf({ 'a.yaml': [10, 20, 30] });
    const reused = async (old: StatsCache, c = tool('a')) => {
      const b = build({ files, old, tokens: true });
      b.add('a.yaml', 1, c, JSON.stringify(c));
      const d = await b.finish([]);
      return { rebuilt: b.rebuilt, cached: d.lex.terms.has('cachedonly'), tok: d.tools[0]!.tok, hash: d.hashes[0] };
    };
    const hash = textHash(tool('a'), fieldTexts(tool('a')));
    // Reused: its statistics and token count are the cached ones; the text hash is always computed.
    expect(await reused(cacheOf([10, 20, 30]))).toEqual({ rebuilt: 0, cached: true, tok: 7, hash });
    const counted = await countTokens(JSON.stringify(toolDefinition(tool('a'))));
    for (const fp of [
      [11, 20, 30],
      [10, 21, 30],
      [10, 20, 31],
    ] as [number, number, number][])
      expect(await reused(cacheOf(fp))).toEqual({ rebuilt: 1, cached: false, tok: counted, hash });
    expect(await reused(cacheOf([10, 20, 30], 'other'))).toEqual({ rebuilt: 1, cached: false, tok: counted, hash });
    // A cached statistic without a count: the statistic is reused, the tokens are counted.
    expect(await reused(cacheOf([10, 20, 30], 'a', -1))).toEqual({ rebuilt: 0, cached: true, tok: counted, hash });
    // A file not in the list has the fingerprint [0, 0, 0].
    const none = build({ files: listOf({}), old: cacheOf([0, 0, 0]) });
    none.add('a.yaml', 1, tool('a'), '{}');
    expect([none.rebuilt, (await none.finish([])).lex.terms.has('cachedonly')]).toEqual([0, true]);
  });

  it('writes the statistics cache as it goes, counted tools once counted, estimates as not counted', async () => {
    p = tempProject();
    const statsFile = join(p.dir, 'cache', 'stats.json');
    const files = listOf({ 'a.yaml': [10, 20, 30], 'b.yaml': [1, 2, 3], 'c.yaml': [4, 5, 6] });
    const [a, b, c] = ['a', 'b', 'c'].map((id) => tool(id));
    const saved = () => JSON.parse(readFileSync(statsFile, 'utf8')) as StatsCache;

    // Exact counts: the reused tool `a` (count known) is written at once, the others after counting.
    const exact = build({ files, old: cacheOf([10, 20, 30]), tokens: true, statsFile });
    for (const [rel, t] of [
      ['b.yaml', b],
      ['a.yaml', a],
      ['c.yaml', c],
    ] as const)
      exact.add(rel, 1, t!, JSON.stringify(t));
    const d = await exact.finish(['bad.yaml']);
    const count = async (t: ToolContract) => countTokens(JSON.stringify(toolDefinition(t)));
    expect(saved()).toEqual({
      registryDir: dir,
      files: {
        'a.yaml': { fp: [10, 20, 30], id: 'a', stats: CACHED, tok: 7 },
        'b.yaml': { fp: [1, 2, 3], id: 'b', stats: stats(b!), tok: await count(b!) },
        'c.yaml': { fp: [4, 5, 6], id: 'c', stats: stats(c!), tok: await count(c!) },
      },
    });
    expect(Object.keys(saved().files)).toEqual(['a.yaml', 'b.yaml', 'c.yaml']);
    expect(d.tools.map((t) => [t.id, t.rel, t.line, t.tok])).toEqual([
      ['b', 'b.yaml', 1, await count(b!)],
      ['a', 'a.yaml', 1, 7],
      ['c', 'c.yaml', 1, await count(c!)],
    ]);
    expect([d.broken, d.est, d.drift, d.registryDir, d.files]).toEqual([['bad.yaml'], [], 0, dir, files]);

    // Estimates: in the index (and listed in `est`), -1 in the cache.
    const est = build({ files, tokens: true, estimate: true, statsFile });
    for (const [rel, t] of [
      ['a.yaml', a],
      ['b.yaml', b],
    ] as const)
      est.add(rel, 3, t!, JSON.stringify(t));
    const e = await est.finish([]);
    expect(e.tools.map((t) => t.tok)).toEqual([estimateTokens(a!), estimateTokens(b!)]);
    expect(e.est).toEqual([0, 1]);
    expect(Object.values(saved().files).map((f) => f.tok)).toEqual([-1, -1]);

    // Without tokens: nothing counted (-1), nothing estimated.
    const none = build({ files, statsFile });
    none.add('c.yaml', 2, c!, JSON.stringify(c));
    const n = await none.finish([]);
    expect([n.tools[0]!.tok, n.tools[0]!.line, n.est]).toEqual([-1, 2, []]);
    expect(saved().files).toEqual({ 'c.yaml': { fp: [4, 5, 6], id: 'c', stats: stats(c!), tok: -1 } });
  });

  it('keeps a tool’s permissions, and adds no key for a tool without', async () => {
    const b = build({ files: listOf({}) });
    const admin = { ...tool('a'), permissions: { roles: ['admin'] } };
    b.add('a.yaml', 1, admin, '{}');
    b.add('b.yaml', 1, tool('b'), '{}');
    const d = await b.finish([]);
    expect(d.tools).toEqual([
      { id: 'a', rel: 'a.yaml', line: 1, tok: -1, permissions: { roles: ['admin'] } },
      { id: 'b', rel: 'b.yaml', line: 1, tok: -1 },
    ]);
    expect(Object.keys(d.tools[1]!)).toEqual(['id', 'rel', 'line', 'tok']);
  });

  it('packs contracts past the first megabyte and past 1,024 tools, by their UTF-8 length', async () => {
    const b = build({ files: listOf({}) });
    const jsons: string[] = [];
    const add = (json: string) => {
      jsons.push(json);
      b.add(`t${jsons.length}.yaml`, 1, tool(`t${jsons.length}`), json);
    };
    add('{"d":"查询天气"}'); // 12 bytes of 4 characters
    add(`{"d":"${'x'.repeat(700_000)}"}`);
    add(`{"d":"${'y'.repeat(700_000)}"}`); // past 1 MiB: doubled to 2 MiB
    add(`{"d":"${'z'.repeat(3_000_000)}"}`); // past twice that: grown to fit
    for (let i = 0; i < 1100; i++) add(`{"i":${i}}`);
    const d = await b.finish([]);
    const { bytes, offsets } = d.contracts as { bytes: Buffer; offsets: Uint32Array };
    expect(offsets).toHaveLength(jsons.length + 1);
    expect(offsets[0]).toBe(0);
    const text = (i: number) => bytes.subarray(offsets[i], offsets[i + 1]).toString('utf8');
    for (const i of [0, 1, 2, 3, 4, 1000, 1023, 1024, jsons.length - 1]) expect(text(i)).toBe(jsons[i]);
    expect(offsets[1]).toBe(Buffer.byteLength(jsons[0]!));
    expect(offsets[jsons.length]).toBe(jsons.reduce((n, j) => n + Buffer.byteLength(j), 0));
  });

  it('an aborted build leaves no statistics cache and no temp file; an interrupted one’s temp files are swept', () => {
    p = tempProject();
    const cacheDir = join(p.dir, 'cache');
    mkdirSync(cacheDir);
    const dead = join(cacheDir, '.stats.json.999999999.0a1b2c3d.tmp');
    writeFileSync(dead, '{"partial');
    const b = build({ files: listOf({}), statsFile: join(cacheDir, 'stats.json') });
    expect(existsSync(dead)).toBe(false);
    b.add('a.yaml', 1, tool('a'), '{}');
    b.abort();
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('a build without a statistics cache can be aborted too (it has nothing to remove)', async () => {
    const b = build({ files: listOf({}) });
    b.add('a.yaml', 1, tool('a'), '{}');
    b.abort();
    expect((await b.finish([])).tools.map((t) => t.id)).toEqual(['a']);
  });

  it('builds without a statistics cache when it cannot be written', async () => {
    p = tempProject({ cache: 'a file, not a folder' });
    const b = build({ files: listOf({}), statsFile: join(p.dir, 'cache', 'stats.json') });
    b.add('a.yaml', 1, tool('a'), '{}');
    expect((await b.finish([])).tools.map((t) => t.id)).toEqual(['a']);
  });
});

describe('buildFull', () => {
  const statsFile = (dir: string) => join(dir, '.toolbox', 'cache', `select-stats-v${STATS_KEY}.json`);

  it('from a loaded registry: its broken files, the cached statistics, and no cache written', async () => {
    const fx = fixtureProject();
    p = fx;
    const bad = fx.write('tool_registry/bad.yaml', 'id: bad\nname: [x\n');
    const reg = loadRegistry(fx.project(), { cache: false });
    const ix = await openIndex(fx.project(), { registry: reg });
    expect([ix.rebuilt, ix.broken]).toEqual([8, [bad]]);
    expect(existsSync(statsFile(fx.dir))).toBe(false);
    // With a statistics cache of the same files (a build from the files wrote it), nothing is re-analysed;
    await openIndex(fx.project());
    rmSync(join(fx.dir, '.toolbox', 'cache', 'select-index.bin'));
    expect((await openIndex(fx.project(), { registry: reg })).rebuilt).toBe(0);
    // without the cache, everything is.
    expect((await openIndex(fx.project(), { registry: reg, cache: false })).rebuilt).toBe(8);
  });

  it('a build that fails part way reports the failure, not an index of the tools before it', async () => {
    const fx = fixtureProject();
    p = fx;
    const reg = loadRegistry(fx.project(), { cache: false });
    // A caller's registry with an entry that has no contract: analysing it throws.
    const hostile = {
      ...reg,
      entries: [...reg.entries, { ...reg.entries[0]!, contract: undefined }],
    } as unknown as Registry;
    await expect(openIndex(fx.project(), { registry: hostile })).rejects.toThrow(TypeError);
    expect(existsSync(join(fx.dir, '.toolbox', 'cache', 'select-index.bin'))).toBe(false);
  });
});
