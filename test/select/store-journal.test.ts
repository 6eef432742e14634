// store.ts's large-registry code (folder journal, incremental updates, estimated token counts) on a light
// registry: 30 contracts with `largeAbove: 20` instead of JOURNAL_MIN_FILES (2,000), so that these paths
// are cheap enough for every mutant of Stryker's run. store-large.test.ts and journal.test.ts check the
// same behaviour at the real threshold.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { openIndex, type OpenOptions, type SelectIndex } from '../../src/select/store.js';
import { definitionTokens } from '../../src/select/tokens.js';
import { estimateTokens } from '../../src/select/build.js';
import { STATS_KEY } from '../../src/select/model.js';
import { tempProject } from '../helpers.js';

const N = 30; // in folders g0, g1, g2 of 10; 10 % of 30: at most 3 changes are applied incrementally
const LARGE = 20;
let p: ReturnType<typeof tempProject>;
const reg = (...parts: string[]) => join(p.dir, 'tool_registry', ...parts);
const file = (i: number) => reg(`g${Math.floor(i / 10)}`, `t${String(i).padStart(2, '0')}.yaml`);
const contract = (i: number, extra = '') =>
  `id: tool_${i}\nname: Tool ${i}\ndescription: ${extra}Look up the records number ${i} and summarise them.\n` +
  `schema: {type: object, properties: {key: {type: string}}}\nloader: command\nloader_config: {argv: [echo]}\n`;
const project = () => resolveProject({ cwd: p.dir });
const cache = (name: string) => join(p.dir, '.toolbox', 'cache', name);
const doc = (ix: SelectIndex, id: string) => ix.tools.findIndex((t) => t.id === id);
const tok = (ix: SelectIndex, id: string) => ix.tools[doc(ix, id)]!.tok;
const exact = async (ix: SelectIndex, id: string) => definitionTokens(ix.contract(doc(ix, id)));
const blob = (ix: SelectIndex, id: string) => JSON.stringify(ix.contract(doc(ix, id))).length;
const statsFile = () => cache(`select-stats-v${STATS_KEY}.json`);
/** Open the index as a large registry and say whether that was a full build (only one writes the statistics). */
async function open(opts: OpenOptions = {}): Promise<SelectIndex & { fullBuild: boolean }> {
  rmSync(statsFile(), { force: true });
  const ix = await openIndex(project(), { largeAbove: LARGE, ...opts });
  return Object.assign(ix, { fullBuild: existsSync(statsFile()) });
}
/** Folders older than the journal's racy window (2 s), as in a registry nobody touched for a while. */
function ageFolders(): void {
  const old = new Date(Date.now() - 60_000);
  for (const d of ['', 'g0', 'g1', 'g2']) utimesSync(reg(d), old, old);
}
/**
 * Folders the journal never trusts until a test ages them: an mtime in the future reads as changed within the
 * racy window. (Folders made just now would be trusted once 2 s have passed, which under load can be mid-test.)
 */
function newFolders(): void {
  const soon = new Date(Date.now() + 3_600_000);
  for (const d of ['', 'g0', 'g1', 'g2']) utimesSync(reg(d), soon, soon);
}
const journal = () =>
  JSON.parse(readFileSync(cache('select-dirs.json'), 'utf8')) as { dirs: string[]; mtime: number[] };

beforeEach(() => {
  p = tempProject();
  for (let g = 0; g < 3; g++) mkdirSync(reg(`g${g}`), { recursive: true });
  for (let i = 0; i < N; i++) writeFileSync(file(i), contract(i));
  newFolders();
});
afterEach(() => p?.cleanup());

describe('a registry above largeAbove', () => {
  it('a first build with tokens estimates them (~4 characters each); a full open counts them exactly', async () => {
    const cold = await open({ tokens: true });
    expect([cold.rebuilt, cold.tools.length, cold.fullBuild]).toEqual([N, N, true]);
    // {"type":"function","function":{"name":"tool_7","description":"Look up … them.","parameters":{…}}}:
    // 183 characters, 46 tokens; each more digit adds 2 characters (the id and the description).
    expect([tok(cold, 'tool_7'), tok(cold, 'tool_12')]).toEqual([46, 47]);
    expect(await exact(cold, 'tool_7')).not.toBe(46); // so the checks below can tell a count from an estimate
    // The estimates are not remembered as counts.
    const stats = JSON.parse(readFileSync(statsFile(), 'utf8')) as { files: Record<string, { tok: number }> };
    expect(Object.values(stats.files).map((f) => f.tok)).toEqual(Array(N).fill(-1));
    const full = await open({ tokens: true, full: true });
    expect([full.rebuilt, full.fullBuild]).toEqual([0, false]); // counted in place, not rebuilt
    for (const id of ['tool_7', 'tool_12', 'tool_29']) expect(tok(full, id)).toBe(await exact(full, id));
    const warm = await open({ tokens: true });
    expect([warm.rebuilt, warm.fullBuild]).toEqual([0, false]);
    expect(warm.tools.map((t) => t.tok)).toEqual(full.tools.map((t) => t.tok));
    // Estimates are counted again only where they are: a second full open changes nothing.
    const again = await open({ tokens: true, full: true });
    expect(again.tools.map((t) => t.tok)).toEqual(full.tools.map((t) => t.tok));
  });

  it('at exactly largeAbove files it is small: exact counts, no journal, every file stat’ed', async () => {
    const ix = await openIndex(project(), { largeAbove: N, tokens: true });
    expect(tok(ix, 'tool_7')).toBe(await exact(ix, 'tool_7'));
    expect(existsSync(cache('select-dirs.json'))).toBe(false);
    const warm = await openIndex(project(), { largeAbove: N, tokens: true });
    expect([warm.rebuilt, warm.stale]).toEqual([0, undefined]);
    // One file more makes it large: updated, not rebuilt, and a journal is written.
    writeFileSync(reg('g0', 'zz_new.yaml'), contract(90));
    rmSync(statsFile());
    const grown = await openIndex(project(), { largeAbove: N, tokens: true });
    expect([grown.rebuilt, existsSync(statsFile()), tok(grown, 'tool_90')]).toEqual([1, false, 47]);
    expect(journal().dirs.sort()).toEqual(['', 'g0', 'g1', 'g2']);
  });

  it('with cache: false nothing is written, and tokens are counted, not estimated', async () => {
    const ix = await open({ tokens: true, cache: false });
    expect(tok(ix, 'tool_7')).toBe(await exact(ix, 'tool_7'));
    expect(existsSync(cache('select-index.bin'))).toBe(false);
    expect(existsSync(cache('select-dirs.json'))).toBe(false);
  });

  it('a registry the caller loaded is indexed as loaded: no journal, nothing stored', async () => {
    const loaded = loadRegistry(project());
    writeFileSync(reg('g0', 'zz_new.yaml'), contract(90));
    const ix = await openIndex(project(), { largeAbove: LARGE, registry: loaded, tokens: true });
    expect([ix.tools.length, doc(ix, 'tool_90')]).toEqual([N, -1]);
    expect(existsSync(cache('select-index.bin'))).toBe(false);
    expect(existsSync(cache('select-dirs.json'))).toBe(false);
    expect((await open()).tools).toHaveLength(N + 1);
  });

  it('an edited tool’s count is scaled from its last one by its size; a new tool is estimated', async () => {
    const before = await open({ tokens: true, full: true }); // counted exactly
    const [prev, prevBlob] = [tok(before, 'tool_5'), blob(before, 'tool_5')];
    writeFileSync(file(5), contract(5, 'Twice as long. '.repeat(8)));
    writeFileSync(reg('g0', 'zz_new.yaml'), contract(90));
    const ix = await open({ tokens: true });
    expect([ix.rebuilt, ix.fullBuild, ix.tools.length]).toEqual([2, false, N + 1]);
    expect(tok(ix, 'tool_5')).toBe(Math.round((prev * blob(ix, 'tool_5')) / prevBlob));
    expect(tok(ix, 'tool_5')).toBeGreaterThan(prev * 1.5);
    expect(tok(ix, 'tool_90')).toBe(47);
    expect(tok(ix, 'tool_6')).toBe(tok(before, 'tool_6'));
    // A full open counts exactly what was estimated, and only that.
    const full = await open({ tokens: true, full: true });
    expect([full.rebuilt, full.fullBuild]).toEqual([0, false]);
    expect(tok(full, 'tool_5')).toBe(await exact(full, 'tool_5'));
    expect(tok(full, 'tool_90')).toBe(await exact(full, 'tool_90'));
    expect(tok(full, 'tool_6')).toBe(tok(before, 'tool_6'));
    // Exact counts of edited tools when asked for (full), not scaled.
    writeFileSync(file(8), contract(8, 'Edited. '));
    const edited = await open({ tokens: true, full: true });
    expect([edited.rebuilt, edited.fullBuild, tok(edited, 'tool_8')]).toEqual([
      1,
      false,
      await exact(edited, 'tool_8'),
    ]);
  });

  it('an index built without tokens is rebuilt when tokens are asked for (with the statistics kept)', async () => {
    await open();
    writeFileSync(file(3), contract(3, 'Edited. '));
    const ix = await openIndex(project(), { largeAbove: LARGE, tokens: true });
    expect(ix.rebuilt).toBe(1); // a full build: only the edited tool's statistics are computed again
    expect(tok(ix, 'tool_7')).toBe(46);
  });

  it('updates re-analyse only what changed, and keep the rest as it was', async () => {
    const cold = await open();
    writeFileSync(file(4), contract(4, 'Zebra crossings. '));
    unlinkSync(file(20));
    writeFileSync(reg('g1', 'zz_new.yaml'), contract(91));
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, ix.tools.length]).toEqual([2, false, N]);
    expect(ix.tools.map((t) => t.id)).toEqual(
      cold.tools.map((t) => t.id).flatMap((id) => (id === 'tool_20' ? [] : id === 'tool_19' ? [id, 'tool_91'] : [id])),
    );
    expect(ix.lex.terms.get('zebra')!.n).toBe(1);
    for (const id of ['tool_0', 'tool_21']) {
      expect(ix.contract(doc(ix, id))).toEqual(cold.contract(doc(cold, id)));
      expect(ix.hash(doc(ix, id))).toBe(cold.hash(doc(cold, id)));
      expect(ix.entry(doc(ix, id))).toEqual(cold.entry(doc(cold, id)));
    }
    expect(ix.hash(doc(ix, 'tool_4'))).not.toBe(cold.hash(doc(cold, 'tool_4')));
    expect(ix.entry(doc(ix, 'tool_91'))).toMatchObject({ file: reg('g1', 'zz_new.yaml'), line: 1 });
    // The update is what a full build of the same files gives.
    const fresh = await openIndex(project(), { cache: false });
    const noTok = (x: SelectIndex) => x.tools.map(({ tok: _, ...t }) => t);
    expect(noTok(ix)).toEqual(noTok(fresh));
    // Without `tokens`, the re-read tools still get an estimate (the others were never counted).
    const estimated = ix.tools.flatMap((t) => (t.tok < 0 ? [] : [[t.id, t.tok]]));
    expect(estimated).toEqual([
      ['tool_4', estimateTokens(ix.contract(doc(ix, 'tool_4')))],
      ['tool_91', 47],
    ]);
    // The same terms with the same document frequencies and idf (weights keep the last full build's field averages).
    const terms = (x: SelectIndex) =>
      [...x.lex.terms].map(([t, { idf, n }]) => [t, idf, n]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(terms(ix)).toEqual(terms(fresh));
    expect(ix.lex.avg).toEqual(cold.lex.avg);
    // and it was stored: the next open reads it back.
    const warm = await open();
    expect([warm.rebuilt, warm.fullBuild, warm.tools]).toEqual([0, false, ix.tools]);
  });

  it('a permission of an edited tool is kept', async () => {
    await open();
    writeFileSync(file(2), contract(2) + 'permissions: {roles: [admin]}\n');
    const ix = await open();
    expect([ix.fullBuild, ix.tools[doc(ix, 'tool_2')]!.permissions]).toEqual([false, { roles: ['admin'] }]);
    expect(ix.tools[doc(ix, 'tool_3')]).not.toHaveProperty('permissions');
  });

  it('a removed file is dropped without re-analysing anything', async () => {
    writeFileSync(reg('g0', 'zz_new.yaml'), contract(90));
    expect((await open()).tools).toHaveLength(N + 1);
    unlinkSync(reg('g0', 'zz_new.yaml'));
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, ix.tools.length, doc(ix, 'tool_90')]).toEqual([0, false, N, -1]);
  });

  it('a broken contract, a fixed one, or a duplicate id is left to a full build', async () => {
    await open();
    const bad = reg('g1', 'bad.yaml');
    writeFileSync(bad, 'id: bad\nname: [unclosed\n');
    const broken = await open();
    expect([broken.fullBuild, broken.broken]).toEqual([true, [bad]]);
    // A change elsewhere keeps the broken file broken, incrementally.
    writeFileSync(file(1), contract(1, 'Edited. '));
    const other = await open({ full: true });
    expect([other.fullBuild, other.rebuilt, other.broken]).toEqual([false, 1, [bad]]);
    writeFileSync(bad, contract(91));
    const fixed = await open({ full: true });
    expect([fixed.fullBuild, fixed.tools.length, fixed.broken]).toEqual([true, N + 1, []]);
    writeFileSync(bad, contract(3)); // a second tool_3
    const dup = await open({ full: true });
    expect(dup.fullBuild).toBe(true);
    expect(dup.tools.filter((t) => t.id === 'tool_3')).toHaveLength(1);
    unlinkSync(bad);
    const clean = await open();
    expect([clean.fullBuild, clean.tools.length, clean.broken]).toEqual([false, N, []]);
    // A new file with an id already taken by an unchanged tool is a duplicate too.
    writeFileSync(reg('g2', 'zz_dup.yaml'), contract(25));
    expect((await open()).fullBuild).toBe(true);
    // Two new files with the same id.
    unlinkSync(reg('g2', 'zz_dup.yaml'));
    await open();
    writeFileSync(reg('g2', 'zz_a.yaml'), contract(95));
    writeFileSync(reg('g2', 'zz_b.yaml'), contract(95));
    const twins = await open();
    expect([twins.fullBuild, twins.broken]).toEqual([true, [reg('g2', 'zz_b.yaml')]]);
  });

  it('updates add up: once more than 10 % of the tools changed since the last full build, it rebuilds', async () => {
    expect((await open()).fullBuild).toBe(true);
    const edit = (from: number, n: number, word: string) => {
      for (let i = from; i < from + n; i++) writeFileSync(file(i), contract(i, `${word}. `));
    };
    edit(10, 2, 'Alpha');
    const a = await open({ full: true });
    expect([a.rebuilt, a.fullBuild]).toEqual([2, false]);
    edit(12, 1, 'Beta'); // 3 of 30 in all: exactly 10 %
    const b = await open({ full: true });
    expect([b.rebuilt, b.fullBuild]).toEqual([1, false]);
    edit(13, 1, 'Gamma'); // 4: over (open() removed the statistics, so a full build analyses every tool)
    const c = await open({ full: true });
    expect([c.rebuilt, c.fullBuild]).toEqual([N, true]);
    edit(20, 2, 'Delta'); // counting starts again
    const d = await open({ full: true });
    expect([d.rebuilt, d.fullBuild]).toEqual([2, false]);
    unlinkSync(file(29)); // a removal counts too: 3 of the 29 files left is over 10 %
    const e = await open({ full: true });
    expect([e.rebuilt, e.fullBuild]).toEqual([N - 1, true]);
  });
});

describe('trusted on the folder journal', () => {
  it('opens without stat’ing files when no folder changed, and says which results changed since', async () => {
    const T = 1_700_000_000; // whole seconds, set again exactly after the rewrite below
    utimesSync(file(10), T, T);
    ageFolders();
    await open({ full: true }); // the journal records the aged folders
    expect(journal().dirs.sort()).toEqual(['', 'g0', 'g1', 'g2']);
    expect(journal().mtime.every((m) => m > 0)).toBe(true);
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, typeof ix.stale]).toEqual([0, false, 'function']);
    const [a, b, c] = ['tool_10', 'tool_11', 'tool_12'].map((id) => doc(ix, id));
    expect(ix.stale!([a!, b!, c!])).toBe(false);
    // tool_10 rewritten with the same size and mtime: only its ctime moved. A trusted open does not see it.
    const size = statSync(file(10)).size;
    writeFileSync(file(10), readFileSync(file(10), 'utf8').replace('Look up', 'Seek up'));
    utimesSync(file(10), T, T);
    expect([statSync(file(10)).size, statSync(file(10)).mtimeMs]).toEqual([size, T * 1000]);
    expect([ix.stale!([b!, c!]), ix.stale!([b!, a!]), ix.stale!([a!])]).toEqual([false, true, true]);
    const trusted = await open();
    expect([trusted.rebuilt, trusted.lex.terms.has('seek')]).toEqual([0, false]);
    expect(trusted.stale!([doc(trusted, 'tool_10')])).toBe(true);
    // A full open stats every file and finds it.
    const full = await open({ full: true });
    expect([full.rebuilt, full.fullBuild, full.lex.terms.has('seek'), full.stale]).toEqual([1, false, true, undefined]);
    unlinkSync(file(12));
    const after = await open({ full: true });
    expect(after.tools).toHaveLength(N - 1);
  });

  it('a deleted result is stale, and the stale check follows each index’s own file list', async () => {
    ageFolders();
    await open({ full: true });
    const ix = await open();
    unlinkSync(file(12));
    expect([ix.stale!([doc(ix, 'tool_11')]), ix.stale!([doc(ix, 'tool_12')])]).toEqual([false, true]);
    // An updated index (a new file in a folder) checks against its new list.
    writeFileSync(reg('g2', 'zz_new.yaml'), contract(90));
    const up = await open();
    expect([up.rebuilt, up.fullBuild, up.tools.length]).toEqual([1, false, N]);
    expect(up.stale!([doc(up, 'tool_90'), doc(up, 'tool_5')])).toBe(false);
    writeFileSync(reg('g2', 'zz_new.yaml'), contract(90, 'Edited. '));
    expect(up.stale!([doc(up, 'tool_90')])).toBe(true);
  });

  it('lists only changed folders again, and walks their new subfolders', async () => {
    ageFolders();
    await open({ full: true });
    const stamp = statSync(cache('select-dirs.json')).mtimeMs;
    // Unchanged folders: the journal is still exact and is not rewritten.
    expect((await open()).rebuilt).toBe(0);
    expect(statSync(cache('select-dirs.json')).mtimeMs).toBe(stamp);
    mkdirSync(reg('g1', 'sub', 'deep'), { recursive: true });
    writeFileSync(reg('g1', 'sub', 'deep', 'n.yaml'), contract(92));
    writeFileSync(reg('g1', 'sub', 'm.yaml'), contract(93));
    // A file rewritten in an unchanged folder is not listed again (the verifier's business).
    writeFileSync(file(25), contract(25, 'Quokka. '));
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, ix.tools.length]).toEqual([2, false, N + 2]);
    expect(ix.tools.filter((t) => t.rel.startsWith('g1/sub')).map((t) => [t.rel, t.id])).toEqual([
      ['g1/sub/deep/n.yaml', 'tool_92'],
      ['g1/sub/m.yaml', 'tool_93'],
    ]);
    expect(ix.lex.terms.has('quokka')).toBe(false);
    expect(journal().dirs.sort()).toEqual(['', 'g0', 'g1', 'g1/sub', 'g1/sub/deep', 'g2']);
    // The files of unchanged folders keep their recorded fingerprints; those listed again are the files'.
    expect(ix.files.rel).toEqual([...ix.files.rel].sort());
    const at = (rel: string) => ix.files.rel.indexOf(rel);
    expect(ix.files.size[at('g1/sub/m.yaml')]).toBe(statSync(reg('g1', 'sub', 'm.yaml')).size);
    expect(ix.files.mtime[at('g1/sub/m.yaml')]).toBe(statSync(reg('g1', 'sub', 'm.yaml')).mtimeMs);
    expect(ix.files.ctime[at('g1/sub/m.yaml')]).toBe(statSync(reg('g1', 'sub', 'm.yaml')).ctimeMs);
    expect(ix.files.size[at('g2/t25.yaml')]).not.toBe(statSync(file(25)).size);
    expect(ix.files.rel).toHaveLength(N + 2);
    expect(ix.files.mtime).toHaveLength(N + 2);
    expect(ix.files.size).toHaveLength(N + 2);
    expect(ix.files.ctime).toHaveLength(N + 2);
    // A full open sees the rewrite.
    expect((await open({ full: true })).lex.terms.has('quokka')).toBe(true);
  });

  it('a removed folder drops its files; its subfolders are not listed again', async () => {
    mkdirSync(reg('g3', 'sub'), { recursive: true });
    writeFileSync(reg('g3', 'a.yaml'), contract(96));
    writeFileSync(reg('g3', 'sub', 'b.yaml'), contract(97));
    ageFolders();
    utimesSync(reg('g3'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await open({ full: true });
    rmSync(reg('g3'), { recursive: true });
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, ix.tools.length]).toEqual([0, false, N]);
    expect(ix.tools.some((t) => t.rel.startsWith('g3/'))).toBe(false);
    expect(journal().dirs.sort()).toEqual(['', 'g0', 'g1', 'g2']);
  });

  it('too many changes in trusted folders lead to a full build that records every file’s own fingerprint', async () => {
    ageFolders();
    await open({ full: true });
    for (let i = 0; i < 5; i++) writeFileSync(reg('g0', `zz_${i}.yaml`), contract(90 + i));
    writeFileSync(file(25), contract(25, 'Quokka. ')); // in place, in an unchanged folder
    const ix = await open();
    expect([ix.fullBuild, ix.tools.length, ix.lex.terms.has('quokka')]).toEqual([true, N + 5, true]);
    expect(ix.stale).toBeUndefined();
    expect(journal().dirs.sort()).toEqual(['', 'g0', 'g1', 'g2']);
  });
});

describe('the background verifier and the journal', () => {
  const verified = () => existsSync(cache('select-verified'));

  it('is started after a large first build that estimated tokens, and after a trusted open; not otherwise', async () => {
    await open();
    expect(verified()).toBe(false); // nothing estimated, nothing trusted (the folders are too new)
    await open({ tokens: true, full: true });
    expect(verified()).toBe(false);
    rmSync(join(p.dir, '.toolbox'), { recursive: true });
    await open({ tokens: true });
    expect(verified()).toBe(true); // estimated
    rmSync(join(p.dir, '.toolbox'), { recursive: true });
    ageFolders();
    await open({ full: true });
    expect(verified()).toBe(false);
    await open(); // trusted
    expect(verified()).toBe(true);
    // A small registry is never trusted and never estimated.
    rmSync(join(p.dir, '.toolbox'), { recursive: true });
    await openIndex(project(), { tokens: true });
    await openIndex(project(), { tokens: true });
    expect(verified()).toBe(false);
  });

  it('a full open records the folders as they are now; a trusted one when a folder changed', async () => {
    const byDir = () => {
      const j = journal();
      return Object.fromEntries(j.dirs.map((d, i) => [d, j.mtime[i]]));
    };
    await open();
    expect(byDir()).toEqual({ '': -1, g0: -1, g1: -1, g2: -1 }); // changed in the racy window: never trusted
    ageFolders();
    await open({ full: true }); // no file changed: the journal is written again with the aged folders
    const aged = byDir();
    expect(Object.values(aged).every((m) => m > 0)).toBe(true);
    const older = new Date(Date.now() - 120_000);
    utimesSync(reg('g1'), older, older);
    await open(); // trusted: g1 changed, so the journal is rewritten
    const g1 = statSync(reg('g1')).mtimeMs;
    expect(byDir()).toEqual({ ...aged, g1 });
    expect(g1).toBeLessThan(aged.g1! - 30_000);
  });

  it('a contract in the registry folder itself is kept while that folder is unchanged, and found when added', async () => {
    writeFileSync(reg('root.yaml'), contract(98));
    ageFolders();
    await open({ full: true });
    writeFileSync(reg('g0', 'zz_new.yaml'), contract(90));
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, ix.tools.length, doc(ix, 'tool_98')]).toEqual([1, false, N + 2, N + 1]);
    expect(ix.tools[N + 1]!.rel).toBe('root.yaml');
    ageFolders();
    await open({ full: true });
    writeFileSync(reg('top.yaml'), contract(99));
    const top = await open();
    expect([top.rebuilt, top.fullBuild, top.tools.map((t) => t.rel).slice(-2)]).toEqual([
      1,
      false,
      ['root.yaml', 'top.yaml'],
    ]);
  });
});

describe('what an open leaves alone', () => {
  /** The index file's identity and mtime: a write (atomic, by rename) changes both. */
  const written = () => {
    const st = statSync(cache('select-index.bin'));
    return `${st.ino}:${st.mtimeMs}`;
  };

  it('a warm open writes nothing, with estimated counts and after an exact update', async () => {
    await open({ tokens: true }); // estimated
    const before = written();
    expect((await open({ tokens: true })).rebuilt).toBe(0);
    expect(written()).toBe(before);
    await open({ tokens: true, full: true }); // counts the estimates
    writeFileSync(file(8), contract(8, 'Edited. '));
    const up = await open({ tokens: true, full: true }); // counted exactly: nothing estimated is left
    expect([up.rebuilt, up.fullBuild, tok(up, 'tool_8')]).toEqual([1, false, await exact(up, 'tool_8')]);
    const after = written();
    expect((await open({ tokens: true, full: true })).rebuilt).toBe(0);
    expect((await open({ tokens: true })).rebuilt).toBe(0);
    expect(written()).toBe(after);
  });

  it('an update without `full` keeps estimated counts estimated', async () => {
    await open({ tokens: true }); // every count estimated
    writeFileSync(file(8), contract(8, 'Edited. '));
    const ix = await open({ tokens: true });
    expect([ix.rebuilt, ix.fullBuild, tok(ix, 'tool_7'), tok(ix, 'tool_12')]).toEqual([1, false, 46, 47]);
  });

  it('an index with one tool never counted is rebuilt when tokens are asked for', async () => {
    await open({ tokens: true, full: true }); // every count exact
    writeFileSync(file(3), contract(3, 'Edited. '));
    writeFileSync(reg('g1', 'bad.yaml'), 'id: bad\nname: [x\n');
    await openIndex(project(), { largeAbove: LARGE }); // a full build (broken file) without tokens: tool_3 not counted
    const stored = await openIndex(project(), { largeAbove: LARGE });
    expect(stored.tools.filter((t) => t.tok < 0).map((t) => t.id)).toEqual(['tool_3']);
    const ix = await open({ tokens: true });
    expect([ix.fullBuild, ix.tools.filter((t) => t.tok < 0)]).toEqual([true, []]);
    expect([tok(ix, 'tool_3'), tok(ix, 'tool_7')]).toEqual([48, 46]); // estimated: 'Edited. ' adds 8 characters, 2 tokens
  });

  it('the drift kept in the index counts removals', async () => {
    await open();
    unlinkSync(file(29)); // 1 of 29
    expect((await open({ full: true })).fullBuild).toBe(false);
    writeFileSync(file(1), contract(1, 'Edited. '));
    writeFileSync(file(2), contract(2, 'Edited. ')); // 3 of 29: over 10 %
    expect((await open({ full: true })).fullBuild).toBe(true);
  });

  it('the threshold is strict: at exactly largeAbove files the journal is neither trusted nor written', async () => {
    ageFolders();
    await open({ full: true }); // large: index and journal
    const journalAt = statSync(cache('select-dirs.json')).mtimeMs;
    const atN = await openIndex(project(), { largeAbove: N });
    expect(atN.stale).toBeUndefined(); // every file stat'ed, not trusted on the journal
    expect(statSync(cache('select-dirs.json')).mtimeMs).toBe(journalAt);
    writeFileSync(file(4), contract(4, 'Edited. '));
    rmSync(statsFile());
    await openIndex(project(), { largeAbove: N });
    expect(existsSync(statsFile())).toBe(true); // a full build, not an update
  });

  it('without its journal (lost, or of another index file) a large index is opened by stat’ing every file', async () => {
    ageFolders();
    await open({ full: true });
    rmSync(cache('select-dirs.json'));
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, ix.stale]).toEqual([0, false, undefined]);
    expect(existsSync(cache('select-dirs.json'))).toBe(true); // and the journal is written again
  });

  it('a full build from a loaded registry or without the cache leaves the journal alone, so a change is still seen', async () => {
    ageFolders();
    await open({ full: true });
    const j = readFileSync(cache('select-dirs.json'), 'utf8');
    for (let i = 0; i < 4; i++) writeFileSync(reg('g0', `zz_${i}.yaml`), contract(90 + i)); // 4 of 34: a full build
    ageFolders(); // g0 looks old again: only the journal can tell that it changed
    expect((await openIndex(project(), { largeAbove: LARGE, registry: loadRegistry(project()) })).tools).toHaveLength(
      N + 4,
    );
    expect((await openIndex(project(), { largeAbove: LARGE, cache: false })).tools).toHaveLength(N + 4);
    expect(readFileSync(cache('select-dirs.json'), 'utf8')).toBe(j);
    expect((await open()).tools).toHaveLength(N + 4);
  });

  it('a folder changed with no file changed, then a contract added elsewhere: found (the list is not reused)', async () => {
    ageFolders();
    await open({ full: true });
    const dirs = journal().dirs;
    const last = dirs[dirs.length - 1]!; // listed again last: the journal keeps its order
    const other = ['g0', 'g1', 'g2'].find((d) => d !== last)!;
    writeFileSync(reg(last, 'scratch.txt'), 'x');
    expect((await open()).tools).toHaveLength(N);
    expect(journal().dirs).toEqual(dirs);
    writeFileSync(reg(other, 'zz_new.yaml'), contract(90));
    const ix = await open();
    expect([ix.rebuilt, ix.tools.length]).toEqual([1, N + 1]);
  });

  it('with every folder too new to trust, each open lists them all again and sees a new contract', async () => {
    await open();
    expect((await open()).tools).toHaveLength(N); // every folder listed again, nothing changed
    writeFileSync(reg('g0', 'zz_new.yaml'), contract(90));
    newFolders();
    const ix = await open();
    expect([ix.rebuilt, ix.tools.length]).toEqual([1, N + 1]);
  });

  it('a folder that changed with no file changed, then another change: the second is found', async () => {
    ageFolders();
    await open({ full: true });
    writeFileSync(reg('g1', 'scratch.txt'), 'x'); // g1's mtime moves, no contract changes
    const first = await open();
    expect([first.rebuilt, first.fullBuild, first.tools.length]).toEqual([0, false, N]);
    writeFileSync(reg('g2', 'zz_new.yaml'), contract(90));
    const second = await open();
    expect([second.rebuilt, second.tools.length, doc(second, 'tool_90')]).toEqual([1, N + 1, N]);
  });
});
