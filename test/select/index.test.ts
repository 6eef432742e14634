// The Selector (src/select/index.ts): permissions, `select:` lists, exact names, pins, top, tokens, sessions.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSelector, selectTools } from '../../src/select/index.js';
import { readSession } from '../../src/policy/session.js';
import { fixtureProject } from './fixture.js';
import { userConfigInTests } from '../helpers.js';

let fx: ReturnType<typeof fixtureProject> | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});
const ids = (r: { results: { id: string }[] }) => r.results.map((t) => t.id);
const FIXTURE = [
  'calendar_add_event',
  'delete_user',
  'query_weather',
  'read_file',
  'search_flights',
  'send_email',
  'stock_price',
  'translate_text',
];
const tool = (id: string, name: string, description: string) =>
  `id: ${id}\nname: ${name}\ndescription: ${description}\nschema:\n  type: object\nloader: command\nloader_config:\n  argv: ["true"]\n`;
const NOTES = tool('notes', 'jot', 'Keep one short text.');
const NOTE_SEARCH = tool(
  'note_search',
  'find notes',
  'Search notes. Notes by title, notes by tag, jot lists, jot jot.',
);

describe('Selector.allowed', () => {
  it('is undefined when no tool and no config restricts anyone', async () => {
    fx = fixtureProject();
    rmSync(join(fx.dir, 'tool_registry', 'delete_user.yaml'));
    const s = await openSelector(fx.project());
    expect(s.allowed()).toBeUndefined();
    expect(s.allowed({ role: 'admin' })).toBeUndefined();
  });

  it("a tool's own permissions, per caller, asked again from the memo", async () => {
    fx = fixtureProject();
    const s = await openSelector(fx.project());
    expect(s.index.tools.map((t) => t.id)).toEqual(FIXTURE);
    const anyone = s.allowed()!;
    const twice = FIXTURE.map((_, i) => [anyone(i), anyone(i)]);
    expect(twice).toEqual(FIXTURE.map((id) => [id !== 'delete_user', id !== 'delete_user']));
    const admin = s.allowed({ role: 'admin' })!;
    expect(FIXTURE.map((_, i) => admin(i))).toEqual(FIXTURE.map(() => true));
  });

  it('config permissions alone are enough to restrict', async () => {
    fx = fixtureProject({ 'toolbox.config.yaml': 'permissions:\n  tools:\n    "s*": [ops]\n' });
    rmSync(join(fx.dir, 'tool_registry', 'delete_user.yaml'));
    const s = await openSelector(fx.project());
    const all = FIXTURE.filter((id) => id !== 'delete_user');
    const anyone = s.allowed()!;
    expect(all.filter((_, i) => anyone(i))).toEqual(all.filter((id) => !id.startsWith('s')));
    const ops = s.allowed({ role: 'ops' })!;
    expect(all.filter((_, i) => ops(i))).toEqual(all);
  });
});

describe('Selector.rank', () => {
  it('`select: a, b` lists tools by id, once each, skipping unknown and forbidden ones with a warning each', async () => {
    fx = fixtureProject();
    const s = await openSelector(fx.project());
    const r = await s.rank('select: read_file, nope, delete_user, read_file, stock_price');
    expect(r.results.map((t) => [t.id, t.score, t.lexical, t.why, t.reason])).toEqual([
      ['read_file', 0, 0, [], 'exact'],
      ['stock_price', 0, 0, [], 'exact'],
    ]);
    expect(r.results[0]!.entry.contract.id).toBe('read_file');
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toMatch(/^tool 'nope' /);
    expect(r.warnings[1]).toMatch(/^tool 'delete_user' /);
    expect(r.history).toEqual([]);
    const admin = await s.rank('select: delete_user', { caller: { role: 'admin' } });
    expect(ids(admin)).toEqual(['delete_user']);
    expect(admin.warnings).toEqual([]);
  });

  it('a query that is a tool id puts that tool first even when another ranks higher', async () => {
    fx = fixtureProject({ 'tool_registry/notes.yaml': NOTES, 'tool_registry/note_search.yaml': NOTE_SEARCH });
    const s = await openSelector(fx.project());
    const plain = await s.rank('notes search', { top: 3 });
    expect(plain.results.map((t) => [t.id, t.reason])).toEqual([
      ['note_search', undefined],
      ['search_flights', undefined],
      ['notes', undefined],
    ]);
    // By id (trimmed): first, though note_search scores higher; its score stays its own.
    const byId = await s.rank('  notes ', { top: 3 });
    expect(byId.results.map((t) => [t.id, t.reason])).toEqual([
      ['notes', 'exact'],
      ['note_search', undefined],
    ]);
    expect(byId.results[0]!.score).toBeLessThan(byId.results[1]!.score);
    expect(byId.results[0]!.score).toBe(byId.results[0]!.lexical);
    // By name, loosely (case): first among the matches.
    const byName = await s.rank('JOT', { top: 3 });
    expect(byName.results.map((t) => [t.id, t.reason])).toEqual([
      ['notes', 'exact'],
      ['note_search', undefined],
    ]);
    expect(byName.results[0]!.score).toBeLessThan(byName.results[1]!.score);
  });

  it('a forbidden tool named exactly is left out, unless the caller may use it', async () => {
    fx = fixtureProject();
    const s = await openSelector(fx.project());
    expect(ids(await s.rank('delete_user', { top: 3 }))).toEqual(['calendar_add_event']);
    const admin = await s.rank('delete_user', { top: 3, caller: { role: 'admin' } });
    expect(admin.results.map((t) => [t.id, t.reason])).toEqual([
      ['delete_user', 'exact'],
      ['calendar_add_event', undefined],
    ]);
  });
});

describe('warnings', () => {
  it('broken files: one warning for every query, before the query’s own', async () => {
    fx = fixtureProject({ 'toolbox.config.yaml': 'select:\n  always: [nope]\n' });
    expect((await openSelector(fx.project())).warnings()).toEqual([]);
    fx.write('tool_registry/bad.yaml', 'id: bad\nname: [unclosed\n');
    const s = await openSelector(fx.project());
    expect(s.warnings()).toHaveLength(1);
    expect(s.warnings()[0]).toContain('bad.yaml');
    const sel = await selectTools(fx.project(), 'email');
    expect(sel.warnings).toHaveLength(2);
    expect(sel.warnings[0]).toBe(s.warnings()[0]);
    expect(sel.warnings[1]).toMatch(/^pinned tool 'nope' /);
  });
});

describe('pins, top, tokens', () => {
  it('pinned tools come after the ranked ones, once; unknown or forbidden pins warn', async () => {
    fx = fixtureProject({
      'toolbox.config.yaml': 'select:\n  top: 1\n  always: [translate_text, nope, delete_user, send_email]\n',
    });
    const s = await openSelector(fx.project());
    const r = await s.rank('email');
    expect(r.results.map((t) => [t.id, t.reason])).toEqual([
      ['send_email', undefined],
      ['translate_text', 'pinned'],
    ]);
    expect(r.results[1]!.score).toBe(0);
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toMatch(/^pinned tool 'nope' /);
    expect(r.warnings[1]).toMatch(/^pinned tool 'delete_user' /);
    // opts.top wins over the config's.
    expect(ids(await s.rank('email', { top: 2, caller: { role: 'admin' } }))).toEqual([
      'send_email',
      'calendar_add_event',
      'translate_text',
      'delete_user',
    ]);
  });

  it('at most 5 ranked tools without a configured top', async () => {
    fx = fixtureProject();
    const s = await openSelector(fx.project());
    const r = await s.rank('file email weather stock flights calendar translate user');
    expect(r.results).toHaveLength(5);
    expect((await s.rank('file email weather stock flights calendar translate user', { top: 7 })).results).toHaveLength(
      7,
    );
  });

  it('tokens: every tool the caller may use, and the named ones', async () => {
    fx = fixtureProject();
    const s = await openSelector(fx.project(), { tokens: true });
    const tok = Object.fromEntries(s.index.tools.map((t) => [t.id, t.tok]));
    const sum = (xs: string[]) => xs.reduce((n, id) => n + tok[id]!, 0);
    const open = FIXTURE.filter((id) => id !== 'delete_user');
    expect(s.tokens(['read_file', 'stock_price'])).toEqual({
      full: sum(open),
      selected: sum(['read_file', 'stock_price']),
    });
    expect(s.tokens(['delete_user'])).toEqual({ full: sum(open), selected: 0 });
    expect(s.tokens(['delete_user'], { role: 'admin' })).toEqual({ full: sum(FIXTURE), selected: tok.delete_user });
  });
});

describe('sessions', () => {
  it('a tool used in the session is boosted by its prior (1.15 for the last turn)', async () => {
    fx = fixtureProject();
    const s = await openSelector(fx.project());
    const plain = await s.rank('email');
    expect(plain.results.map((t) => t.id)).toEqual(['send_email', 'calendar_add_event']);
    const at = new Date().toISOString();
    const session = { id: 's', events: [{ at, kind: 'run' as const, tools: ['calendar_add_event'] }] };
    const boosted = await s.rank('email', { session });
    expect(boosted.results.map((t) => t.id)).toEqual(['send_email', 'calendar_add_event']);
    expect(boosted.results[0]!.score).toBe(plain.results[0]!.score);
    expect(boosted.results[1]!.score).toBe(plain.results[1]!.score * 1.15);
    expect(boosted.results[1]!.lexical).toBe(boosted.results[1]!.score);
    expect(boosted.history).toEqual([]);
  });

  it('selectTools records each turn; earlier terms are marked `session`, translations carry `via`', async () => {
    fx = fixtureProject();
    const p = fx.project();
    const first = await selectTools(p, '查询北京今天天气', { session: 's1', tokens: true });
    expect(ids(first)[0]).toBe('query_weather');
    expect(first.history).toEqual([]);
    expect(first.tokens!.selected).toBeGreaterThan(0);
    const next = await selectTools(p, '那上海呢', { session: 's1' });
    expect(next.history).toEqual(['查询北京今天天气']);
    const why = Object.fromEntries(next.results[0]!.why.map((w) => [w.term, [w.session, w.via]]));
    expect(why).toMatchObject({
      weather: [true, '天气'],
      天气: [true, undefined],
      上海: [undefined, undefined],
      shanghai: [undefined, '上海'],
      beij: [true, '北京'],
    });
    expect(readSession(p, 's1').events.map((e) => [e.kind, e.query, e.tools[0]])).toEqual([
      ['selected', '查询北京今天天气', 'query_weather'],
      ['selected', '那上海呢', 'query_weather'],
    ]);
    // record: false asks the session but leaves it alone; no session, no history.
    await selectTools(p, 'email', { session: 's1', record: false });
    expect(readSession(p, 's1').events).toHaveLength(2);
    const none = await selectTools(p, 'email');
    expect('history' in none).toBe(false);
    expect('tokens' in none).toBe(false);
  });
});

describe('more of rank, tokens and selectTools', () => {
  it('tokens without permissions anywhere: every tool counts, unknown ids count nothing', async () => {
    fx = fixtureProject();
    rmSync(join(fx.dir, 'tool_registry', 'delete_user.yaml'));
    const s = await openSelector(fx.project(), { tokens: true });
    const open = FIXTURE.filter((id) => id !== 'delete_user');
    const tok = Object.fromEntries(s.index.tools.map((t) => [t.id, t.tok]));
    const full = open.reduce((n, id) => n + tok[id]!, 0);
    expect(full).toBe(115 + 99 + 68 + 121 + 97 + 64 + 85);
    expect(s.tokens(['read_file', 'stock_price', 'nope'])).toEqual({ full, selected: 68 + 64 });
    expect(s.tokens([])).toEqual({ full, selected: 0 });
    expect(s.tokens(['read_file'], { role: 'anyone' })).toEqual({ full, selected: 68 });
  });

  it('an exact name is found among the candidates beyond `top`', async () => {
    fx = fixtureProject({ 'tool_registry/notes.yaml': NOTES, 'tool_registry/note_search.yaml': NOTE_SEARCH });
    const s = await openSelector(fx.project());
    expect((await s.rank('JOT', { top: 1 })).results.map((t) => [t.id, t.reason])).toEqual([['notes', 'exact']]);
  });

  it('ranks with the given query-time constants (coord: a tool matching half the query keeps half its score)', async () => {
    fx = fixtureProject();
    const s = await openSelector(fx.project());
    const { RANK } = await import('../../src/select/model.js');
    const base = (await s.rank('email zebra')).results;
    const coord = (await s.rank('email zebra', { params: { ...RANK, coord: 1 } })).results;
    expect(coord.map((t) => t.id)).toEqual(base.map((t) => t.id));
    expect(coord[0]!.score).toBe(base[0]!.score / 2);
  });

  it('dense retrieval: an unreachable endpoint is a warning; dense: false does not ask it', async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((res) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => res(p));
      });
    });
    fx = fixtureProject();
    userConfigInTests(`select:\n  embeddings:\n    url: http://127.0.0.1:${port}/v1/embeddings\n    model: m\n`);
    const s = await openSelector(fx.project());
    const asked = await s.rank('email');
    expect(asked.results.map((t) => t.id)).toEqual(['send_email', 'calendar_add_event']);
    expect(asked.warnings).toHaveLength(1);
    expect(asked.warnings[0]).toMatch(/^dense retrieval unavailable/);
    const off = await s.rank('email', { dense: false });
    expect(off.results.map((t) => t.id)).toEqual(['send_email', 'calendar_add_event']);
    expect(off.warnings).toEqual([]);
    userConfigInTests(undefined);
  });

  it('opens on a registry the caller loaded, with its project', async () => {
    fx = fixtureProject();
    const { loadRegistry } = await import('../../src/registry/registry.js');
    const reg = loadRegistry(fx.project());
    const s = await openSelector(reg);
    expect(s.project).toBe(reg.project);
    expect(s.index.tools.map((t) => t.id)).toEqual(FIXTURE);
    expect(ids(await selectTools(reg, 'email'))).toEqual(['send_email', 'calendar_add_event']);
  });

  it('a session folder toolbox does not own is a warning, not a failure', async () => {
    fx = fixtureProject({ '.toolbox/sessions': 'a file where the folder should be' });
    const sel = await selectTools(fx.project(), 'email', { session: 's1' });
    expect(ids(sel)).toEqual(['send_email', 'calendar_add_event']);
    expect(sel.warnings).toHaveLength(1);
    expect(sel.warnings[0]).toMatch(/^session history not read: .*not a folder/);
  });
});
