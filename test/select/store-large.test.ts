// store.ts on a registry above JOURNAL_MIN_FILES: token estimates and exact counts, incremental
// updates (updateIndex) and when they give way to a full build (broken files, duplicate ids, drift).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { openIndex, type SelectIndex } from '../../src/select/store.js';
import { JOURNAL_MIN_FILES } from '../../src/select/journal.js';
import { definitionTokens } from '../../src/select/tokens.js';
import { STATS_KEY } from '../../src/select/model.js';
import { tempProject } from '../helpers.js';

const N = JOURNAL_MIN_FILES + 100; // 2100: at most 210 changes (10 %) are applied incrementally
let p: ReturnType<typeof tempProject>;
const file = (i: number) =>
  join(p.dir, 'tool_registry', `g${Math.floor(i / 500)}`, `t${String(i).padStart(4, '0')}.yaml`);
const contract = (i: number, extra = '') =>
  `id: tool_${i}\nname: Tool ${i}\ndescription: ${extra}Look up the records number ${i} and summarise them.\n` +
  `schema: {type: object, properties: {key: {type: string}}}\nloader: command\nloader_config: {argv: [echo]}\n`;
const project = () => resolveProject({ cwd: p.dir });
const doc = (ix: SelectIndex, id: string) => ix.tools.findIndex((t) => t.id === id);
const tok = (ix: SelectIndex, id: string) => ix.tools[doc(ix, id)]!.tok;
const blob = (ix: SelectIndex, id: string) => JSON.stringify(ix.contract(doc(ix, id))).length;
const statsFile = () => join(p.dir, '.toolbox', 'cache', `select-stats-v${STATS_KEY}.json`);
/** Open the index and say whether that was a full build: only a full build writes the statistics cache. */
async function open(opts: Parameters<typeof openIndex>[1] = {}): Promise<SelectIndex & { fullBuild: boolean }> {
  rmSync(statsFile(), { force: true });
  const ix = await openIndex(project(), opts);
  return Object.assign(ix, { fullBuild: existsSync(statsFile()) });
}

// Each test has a registry of its own, with no index yet (Stryker runs single tests).
beforeEach(() => {
  p = tempProject();
  for (let g = 0; g * 500 < N; g++) mkdirSync(join(p.dir, 'tool_registry', `g${g}`), { recursive: true });
  for (let i = 0; i < N; i++) writeFileSync(file(i), contract(i));
}, 120_000);
afterEach(() => p?.cleanup());

describe('a large registry', { timeout: 120_000 }, () => {
  it('a first build with tokens estimates them (~4 characters each); a full open counts them exactly', async () => {
    const cold = await openIndex(project(), { tokens: true });
    expect(cold.rebuilt).toBe(N);
    expect(cold.tools).toHaveLength(N);
    // {"type":"function","function":{"name":"tool_7","description":"Look up … them.","parameters":{…}}}:
    // 183 characters, 46 tokens; 189 and 48 for tool_1234.
    expect(tok(cold, 'tool_7')).toBe(46);
    expect(tok(cold, 'tool_1234')).toBe(48);
    const full = await open({ tokens: true, full: true });
    expect([full.rebuilt, full.fullBuild]).toEqual([0, false]); // updated in place, not rebuilt
    for (const id of ['tool_7', 'tool_1234', 'tool_2099'])
      expect(tok(full, id)).toBe(await definitionTokens(full.contract(doc(full, id))));
    const warm = await openIndex(project(), { tokens: true });
    expect(warm.tools.map((t) => t.tok)).toEqual(full.tools.map((t) => t.tok));
  });

  it('an edited tool’s count is scaled from its last one by its size; a new tool is estimated', async () => {
    const before = await openIndex(project(), { tokens: true, full: true }); // counted exactly
    expect(tok(before, 'tool_6')).toBe(await definitionTokens(before.contract(doc(before, 'tool_6'))));
    const [prev, prevBlob] = [tok(before, 'tool_5'), blob(before, 'tool_5')];
    writeFileSync(file(5), contract(5, 'Twice as long. '.repeat(8)));
    writeFileSync(join(p.dir, 'tool_registry', 'g0', 'zz_new.yaml'), contract(9000));
    const ix = await open({ tokens: true });
    expect([ix.rebuilt, ix.fullBuild]).toEqual([2, false]);
    expect(tok(ix, 'tool_5')).toBe(Math.round((prev * blob(ix, 'tool_5')) / prevBlob));
    expect(tok(ix, 'tool_9000')).toBe(48);
    // A full open counts exactly what was estimated, and only that.
    const full = await openIndex(project(), { tokens: true, full: true });
    expect(full.rebuilt).toBe(0);
    expect(tok(full, 'tool_5')).toBe(await definitionTokens(full.contract(doc(full, 'tool_5'))));
    expect(tok(full, 'tool_9000')).toBe(await definitionTokens(full.contract(doc(full, 'tool_9000'))));
    expect(tok(full, 'tool_6')).toBe(tok(before, 'tool_6'));
  });

  it('a removed file is dropped without re-analysing anything', async () => {
    writeFileSync(join(p.dir, 'tool_registry', 'g0', 'zz_new.yaml'), contract(9000));
    expect((await openIndex(project())).tools).toHaveLength(N + 1);
    unlinkSync(join(p.dir, 'tool_registry', 'g0', 'zz_new.yaml'));
    const ix = await open();
    expect([ix.rebuilt, ix.fullBuild, ix.tools.length, doc(ix, 'tool_9000')]).toEqual([0, false, N, -1]);
  });

  // In-place rewrites leave folder mtimes alone: the opens below that follow one are `full` (every file stat'ed).
  it('a broken contract, a fixed one, or a duplicate id is left to a full build', async () => {
    await openIndex(project());
    const bad = join(p.dir, 'tool_registry', 'g1', 'bad.yaml');
    writeFileSync(bad, 'id: bad\nname: [unclosed\n');
    const broken = await open();
    expect(broken.fullBuild).toBe(true);
    expect(broken.broken).toEqual([bad]);
    writeFileSync(bad, contract(9001));
    const fixed = await open({ full: true });
    expect([fixed.fullBuild, fixed.tools.length]).toEqual([true, N + 1]);
    expect(fixed.broken).toEqual([]);
    writeFileSync(bad, contract(3)); // a second tool_3
    const dup = await open({ full: true });
    expect(dup.fullBuild).toBe(true);
    expect(dup.tools.filter((t) => t.id === 'tool_3')).toHaveLength(1);
    unlinkSync(bad);
    const clean = await open();
    expect(clean.tools).toHaveLength(N);
    // Only changes among good contracts stay incremental.
    writeFileSync(file(8), contract(8, 'Edited. '));
    expect((await open({ full: true })).fullBuild).toBe(false);
  });

  it('updates add up: once more than 10 % of the tools changed since the last full build, it rebuilds', async () => {
    expect((await open()).fullBuild).toBe(true);

    const edit = (from: number, n: number, word: string) => {
      for (let i = from; i < from + n; i++) writeFileSync(file(i), contract(i, `${word}. `));
    };
    edit(100, 150, 'Alpha');
    const a = await open({ full: true });
    expect([a.rebuilt, a.fullBuild]).toEqual([150, false]);
    edit(300, 60, 'Beta'); // 210 in all: still 10 %
    const b = await open({ full: true });
    expect([b.rebuilt, b.fullBuild]).toEqual([60, false]);
    edit(400, 1, 'Gamma'); // 211
    expect((await open({ full: true })).fullBuild).toBe(true);
    edit(500, 1, 'Delta'); // counting starts again
    expect((await open({ full: true })).fullBuild).toBe(false);
  });
  it('trusted on folder mtimes, the index tells which results changed since (in place, or deleted)', async () => {
    const old = new Date(Date.now() - 60_000);
    const folders = ['', ...Array.from({ length: Math.ceil(N / 500) }, (_, g) => `g${g}`)];
    const T = 1_700_000_000; // whole seconds, set again exactly after the rewrite below
    utimesSync(file(10), T, T);
    for (const f of folders) utimesSync(join(p.dir, 'tool_registry', f), old, old);
    await openIndex(project(), { full: true }); // the journal records the aged folders
    const ix = await openIndex(project());
    expect(ix.stale).toBeTypeOf('function');
    const [a, b, c] = ['tool_10', 'tool_11', 'tool_12'].map((id) => doc(ix, id));
    expect(ix.stale!([a!, b!, c!])).toBe(false);
    // tool_10 rewritten with the same size and mtime: only its ctime moved.
    const size = statSync(file(10)).size;
    writeFileSync(file(10), readFileSync(file(10), 'utf8').replace('Look up', 'Seek up'));
    utimesSync(file(10), T, T);
    expect([statSync(file(10)).size, statSync(file(10)).mtimeMs]).toEqual([size, T * 1000]);
    expect([ix.stale!([b!, c!]), ix.stale!([b!, a!])]).toEqual([false, true]);
    unlinkSync(file(12));
    expect(ix.stale!([b!])).toBe(false);
    expect(ix.stale!([c!])).toBe(true);
  });
});
