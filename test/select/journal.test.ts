// A large registry's index is trusted on its folders' fingerprints (one stat per folder) and
// updated incrementally; in-place edits of the answer's own files are still noticed.
import { mkdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { selectTools } from '../../src/select/index.js';
import { openIndex } from '../../src/select/store.js';
import { topK } from '../../src/select/model.js';
import { parseQuery, scoreAll } from '../../src/select/query.js';
import { JOURNAL_MIN_FILES } from '../../src/select/journal.js';
import { tempProject } from '../helpers.js';

const N = JOURNAL_MIN_FILES + 100;
const TOPICS = ['weather', 'invoice', 'flight', 'recipe', 'ticket', 'stock', 'email', 'hotel'];
let p: ReturnType<typeof tempProject>;
const file = (i: number) => join(p.dir, 'tool_registry', `g${Math.floor(i / 500)}`, `t${i}.yaml`);
const contract = (i: number, extra = '') =>
  `id: tool_${i}\nname: Tool ${i}\ndescription: ${extra}Look up the ${TOPICS[i % 8]} records number ${i} for the user and summarise them.\n` +
  `schema: {type: object, properties: {key: {type: string, description: The key.}}, required: [key]}\n` +
  `loader: command\nloader_config: {argv: [echo, '{{key}}']}\n`;
/** Folders older than the journal's racy window, as in a registry nobody touched for a while. */
const ageFolders = () => {
  const old = new Date(Date.now() - 60_000);
  for (let g = 0; g * 500 < N; g++) utimesSync(join(p.dir, 'tool_registry', `g${g}`), old, old);
  // The registry folder itself changed when its subfolders were made: on a fast machine that is within the racy
  // window when the index is first built, and a racy folder is never trusted.
  utimesSync(join(p.dir, 'tool_registry'), old, old);
};
const project = () => resolveProject({ cwd: p.dir });

beforeAll(async () => {
  p = tempProject();
  for (let g = 0; g * 500 < N; g++) mkdirSync(join(p.dir, 'tool_registry', `g${g}`), { recursive: true });
  for (let i = 0; i < N; i++) writeFileSync(file(i), contract(i));
  ageFolders();
  await openIndex(project());
}, 120_000);
afterAll(() => p?.cleanup());

describe('the selection index of a large registry', () => {
  it('opens without re-reading anything when no folder changed', async () => {
    const ix = await openIndex(project());
    expect(ix.rebuilt).toBe(0);
    expect(ix.stale).toBeTypeOf('function'); // trusted on folder fingerprints
  });

  it('re-reads only the contract that an editor saved (rename over) and ranks it by its new text', async () => {
    writeFileSync(file(77) + '.tmp', contract(77, 'Zanzibar ferries. '));
    renameSync(file(77) + '.tmp', file(77));
    const ix = await openIndex(project());
    expect(ix.rebuilt).toBe(1);
    const sel = await selectTools(project(), 'zanzibar', { top: 1 });
    expect(sel.results.map((r) => r.id)).toEqual(['tool_77']);
    // Everything else ranks as a full rebuild ranks it.
    const full = await selectTools(project(), 'weather records', { top: 5 });
    const fresh = await openIndex(project(), { cache: false });
    const ids = topK(scoreAll(fresh.lex, parseQuery('weather records')), 5);
    expect(full.results.map((r) => r.id)).toEqual(ids.map((d) => fresh.tools[d]!.id));
  });

  it('notices an in-place edit of a result, which leaves its folder untouched', async () => {
    writeFileSync(file(1234) + '.tmp', contract(1234, 'Walrus tours. '));
    renameSync(file(1234) + '.tmp', file(1234));
    ageFolders();
    await openIndex(project(), { full: true }); // the journal now trusts the aged folders
    expect((await selectTools(project(), 'walrus', { top: 1 })).results.map((r) => r.id)).toEqual(['tool_1234']);
    // Rewrite tool_1234 in place (same path): no folder mtime changes.
    writeFileSync(file(1234), contract(1234, 'Bakery tours. '));
    const stale = await openIndex(project());
    expect(stale.stale?.([stale.tools.findIndex((t) => t.id === 'tool_1234')])).toBe(true);
    // The stale index ranks tool_1234 for 'walrus'; its file is checked, and the answer comes from an updated index.
    expect((await selectTools(project(), 'walrus', { top: 1 })).results).toEqual([]);
    expect((await selectTools(project(), 'bakery', { top: 1 })).results.map((r) => r.id)).toEqual(['tool_1234']);
  });

  it('finds in-place edits anywhere with a full check (what the background verifier runs)', async () => {
    ageFolders();
    await openIndex(project(), { full: true });
    writeFileSync(file(1999), contract(1999, 'Quokka sightings. '));
    expect((await selectTools(project(), 'quokka', { top: 1 })).results).toEqual([]);
    const ix = await openIndex(project(), { full: true });
    expect(ix.rebuilt).toBe(1);
    expect((await selectTools(project(), 'quokka', { top: 1 })).results.map((r) => r.id)).toEqual(['tool_1999']);
  });
});
