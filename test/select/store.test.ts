// store.ts on a small registry: what is cached, when it is believed, what a rebuild re-analyses.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../../src/select/store.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { STATS_KEY } from '../../src/select/model.js';
import { fixtureContract, fixtureProject } from './fixture.js';

let fx: ReturnType<typeof fixtureProject> | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

const TOKENS = [115, 63, 99, 68, 121, 97, 64, 85];
const cache = (...p: string[]) => join(fx!.dir, '.toolbox', 'cache', ...p);
const statsFile = () => cache(`select-stats-v${STATS_KEY}.json`);

describe('openIndex on a small registry', () => {
  it('a cold build analyses every tool; a warm open reads the same index back from disk', async () => {
    fx = fixtureProject();
    const bad = fx.write('tool_registry/bad.yaml', 'id: bad\nname: [x\n');
    const cold = await openIndex(fx.project());
    expect(cold.rebuilt).toBe(8);
    expect(cold.broken).toEqual([bad]);
    expect(cold.tools.map((t) => t.tok)).toEqual(TOKENS.map(() => -1)); // not counted unless asked
    expect(cold.tools.filter((t) => t.permissions).map((t) => [t.id, t.permissions])).toEqual([
      ['delete_user', { roles: ['admin'] }],
    ]);
    const warm = await openIndex(fx.project());
    expect(warm.rebuilt).toBe(0);
    expect(warm.stale).toBeUndefined(); // a small registry stats every file: nothing left to check
    expect(warm.broken).toEqual([bad]);
    expect(warm.tools).toEqual(cold.tools);
    expect(warm.lex.n).toBe(8);
    for (let i = 0; i < 8; i++) {
      expect(warm.hash(i)).toBe(cold.hash(i));
      expect(warm.hash(i)).toMatch(/^[0-9a-f]{20}$/);
      expect(warm.contract(i)).toEqual(cold.contract(i));
      expect(warm.entry(i)).toEqual({ contract: cold.contract(i), file: cold.entry(i).file, line: 1 });
    }
    expect(warm.entry(6).file).toBe(join(fx.dir, 'tool_registry', 'stock_price.yaml'));
    expect(new Set(Array.from({ length: 8 }, (_, i) => warm.hash(i))).size).toBe(8);
  });

  it('tokens: counted once when first asked for (the statistics are reused), then kept on disk', async () => {
    fx = fixtureProject();
    await openIndex(fx.project());
    const counted = await openIndex(fx.project(), { tokens: true });
    expect(counted.rebuilt).toBe(0);
    expect(counted.tools.map((t) => t.tok)).toEqual(TOKENS);
    const stored = JSON.parse(readFileSync(statsFile(), 'utf8'));
    expect(Object.values(stored.files).map((f) => (f as { tok: number }).tok)).toEqual(TOKENS);
    const warm = await openIndex(fx.project(), { tokens: true });
    expect(warm.tools.map((t) => t.tok)).toEqual(TOKENS);
    // A later build without `tokens` keeps the counts it knows.
    writeFileSync(join(fx.dir, 'tool_registry', 'read_file.yaml'), fixtureContract('read_file') + 'tags: [io]\n');
    const edited = await openIndex(fx.project());
    expect(edited.rebuilt).toBe(1);
    expect(edited.tools.map((t) => t.tok)).toEqual(TOKENS.map((n, i) => (i === 3 ? -1 : n)));
  });

  it('a file rewritten with the same size and mtime is still seen (its ctime moved)', async () => {
    fx = fixtureProject();
    const file = join(fx.dir, 'tool_registry', 'stock_price.yaml');
    const T = 1_700_000_000; // whole seconds: set again exactly after the rewrite
    utimesSync(file, T, T);
    expect((await openIndex(fx.project())).lex.terms.has('tour')).toBe(false);
    const text = fixtureContract('stock_price');
    const edited = text.replace('share price', 'walrus tour');
    expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(text));
    writeFileSync(file, edited);
    utimesSync(file, T, T);
    expect([statSync(file).size, statSync(file).mtimeMs]).toEqual([Buffer.byteLength(text), T * 1000]);
    const ix = await openIndex(fx.project());
    expect(ix.rebuilt).toBe(1);
    expect(ix.lex.terms.has('tour')).toBe(true);
  });

  it('statistics cached for another registry folder are not reused', async () => {
    fx = fixtureProject();
    await openIndex(fx.project());
    const stats = JSON.parse(readFileSync(statsFile(), 'utf8'));
    writeFileSync(statsFile(), JSON.stringify({ ...stats, registryDir: '/elsewhere' }));
    writeFileSync(cache('select-index.bin'), 'not an index');
    expect((await openIndex(fx.project())).rebuilt).toBe(8);
    // With the right folder they are (the index file alone was lost).
    writeFileSync(cache('select-index.bin'), 'not an index');
    expect((await openIndex(fx.project())).rebuilt).toBe(0);
    writeFileSync(statsFile(), '{broken');
    writeFileSync(cache('select-index.bin'), 'not an index');
    expect((await openIndex(fx.project())).rebuilt).toBe(8);
  });

  it('cache: false builds in memory and writes nothing', async () => {
    fx = fixtureProject();
    const a = await openIndex(fx.project(), { cache: false });
    expect(a.rebuilt).toBe(8);
    expect(existsSync(cache())).toBe(false);
    await openIndex(fx.project());
    const b = await openIndex(fx.project(), { cache: false });
    expect(b.rebuilt).toBe(8);
  });

  it('a cold build removes the temp files an interrupted build left (dead writer), not the live ones', async () => {
    fx = fixtureProject();
    const dead = (name: string) => `.${name}.999999999.0a1b2c3d.tmp`;
    const live = `.registry-v1.json.${process.pid}.0a1b2c3d.tmp`;
    mkdirSync(cache('ids-v2'), { recursive: true });
    for (const f of [dead('registry-v1.json'), dead(`select-stats-v${STATS_KEY}.json`), live])
      writeFileSync(cache(f), '{"partial');
    writeFileSync(cache('ids-v2', dead('7.json')), '{"partial');
    await openIndex(fx.project());
    const left = (...p: string[]) => readdirSync(cache(...p)).filter((f) => f.endsWith('.tmp'));
    expect(left()).toEqual([live]);
    expect(left('ids-v2')).toEqual([]);
  });

  it('builds from a registry the caller already loaded, as loaded', async () => {
    fx = fixtureProject();
    const reg = loadRegistry(fx.project());
    fx.write('tool_registry/extra.yaml', fixtureContract('read_file').replace('id: read_file', 'id: extra'));
    const ix = await openIndex(fx.project(), { registry: reg });
    expect(ix.rebuilt).toBe(8);
    expect(ix.tools.map((t) => t.id)).toEqual(reg.entries.map((e) => e.contract.id));
    for (let i = 0; i < 8; i++) expect(ix.entry(i)).toEqual(reg.entries[i]);
    expect((await openIndex(fx.project(), { cache: false })).tools.map((t) => t.id)).toContain('extra');
    // The index built from the older registry was not stored: a warm open reads the files as they are.
    const warm = await openIndex(fx.project());
    expect(warm.tools.map((t) => t.id)).toContain('extra');
    expect(warm.rebuilt).toBe(9);
  });

  it('a warm open answers the index it decoded last time, and writes nothing', async () => {
    fx = fixtureProject();
    await openIndex(fx.project(), { tokens: true });
    const bin = cache('select-index.bin');
    const st = statSync(bin);
    const a = await openIndex(fx.project(), { tokens: true });
    expect(await openIndex(fx.project(), { tokens: true })).toBe(a);
    expect(await openIndex(fx.project())).toBe(a);
    expect([statSync(bin).ino, statSync(bin).mtimeMs]).toEqual([st.ino, st.mtimeMs]);
  });

  it('an index file rewritten with the same size, or the same mtime, is read again', async () => {
    fx = fixtureProject();
    const file = join(fx.dir, 'tool_registry', 'stock_price.yaml');
    const bin = cache('select-index.bin');
    await openIndex(fx.project());
    await openIndex(fx.project()); // decoded (and kept)
    const size = statSync(bin).size;
    // The same terms in another order: the index file keeps its size.
    writeFileSync(file, fixtureContract('stock_price').replace('share price', 'price share'));
    expect((await openIndex(fx.project())).rebuilt).toBe(1);
    expect(statSync(bin).size).toBe(size);
    const T = 1_700_000_000; // whole seconds: set again exactly below
    utimesSync(bin, T, T);
    // Read as it is now: not the index decoded before, which would be found out of date and built again.
    const written = () => `${statSync(bin).ino}:${statSync(bin).mtimeMs}`;
    let before = written();
    const same = await openIndex(fx.project());
    expect(written()).toBe(before);
    const description = (ix: Awaited<ReturnType<typeof openIndex>>) =>
      ix.contract(ix.tools.findIndex((t) => t.id === 'stock_price')).description;
    expect([same.rebuilt, description(same).includes('price share')]).toEqual([0, true]);
    // Same mtime (set back), another size.
    writeFileSync(file, fixtureContract('stock_price').replace('share price', 'walrus tours'));
    expect((await openIndex(fx.project())).rebuilt).toBe(1);
    expect(statSync(bin).size).not.toBe(size);
    utimesSync(bin, T, T);
    before = written();
    const again = await openIndex(fx.project());
    expect(written()).toBe(before);
    expect([again.rebuilt, again.lex.terms.has('tour')]).toEqual([0, true]);
  });

  it('the index file of another registry is not taken for this one, even with the same size and mtime', async () => {
    fx = fixtureProject();
    const other = fixtureProject();
    try {
      const mine = await openIndex(fx.project());
      const theirs = await openIndex(other.project());
      const [a, b] = [cache('select-index.bin'), join(other.dir, '.toolbox', 'cache', 'select-index.bin')];
      expect(statSync(a).size).toBe(statSync(b).size); // same-length temp folder names
      const T = 1_700_000_000; // whole seconds: the same mtime to the nanosecond
      utimesSync(a, T, T);
      utimesSync(b, T, T);
      expect((await openIndex(fx.project())).registryDir).toBe(mine.registryDir);
      const stamp = `${statSync(b).ino}:${statSync(b).mtimeMs}`;
      const again = await openIndex(other.project());
      expect(`${statSync(b).ino}:${statSync(b).mtimeMs}`).toBe(stamp); // read as stored, not built again
      expect([again.registryDir, again.rebuilt]).toEqual([theirs.registryDir, 0]);
      // A copied index file names the registry it was built for: not used here.
      writeFileSync(b, readFileSync(a));
      const copied = await openIndex(other.project());
      expect(copied.registryDir).toBe(theirs.registryDir);
      expect(copied.entry(0).file.startsWith(other.dir)).toBe(true);
    } finally {
      other.cleanup();
    }
  });

  it('tokens asked for after a build that left one tool uncounted: that tool is counted', async () => {
    fx = fixtureProject();
    await openIndex(fx.project(), { tokens: true });
    writeFileSync(join(fx.dir, 'tool_registry', 'read_file.yaml'), fixtureContract('read_file') + 'tags: [io]\n');
    expect((await openIndex(fx.project())).tools.map((t) => t.tok)).toEqual(TOKENS.map((n, i) => (i === 3 ? -1 : n)));
    const ix = await openIndex(fx.project(), { tokens: true });
    expect(ix.tools.map((t) => t.tok)).toEqual(TOKENS); // tags are not part of the definition: the same count
  });
});
