import { afterEach, describe, expect, it } from 'vitest';
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSelector, selectTools } from '../../src/select/index.js';
import { STATS_KEY } from '../../src/select/model.js';
import { fixtureContract, fixtureProject } from './fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());

const first = async (q: string, opts = {}) => (await selectTools(fx.project(), q, opts)).results[0]?.id;

describe('selectTools on the fixture registry', () => {
  it('selects the right tool first for Chinese and English requests', async () => {
    fx = fixtureProject();
    expect(await first('查询北京今天天气')).toBe('query_weather');
    expect(await first('北京明天会下雨吗')).toBe('query_weather');
    expect(await first('给张三发一封邮件')).toBe('send_email');
    expect(await first('send an email to my manager')).toBe('send_email');
    expect(await first('translate this sentence into Chinese')).toBe('translate_text');
    expect(await first('find me a cheap flight from SFO to JFK')).toBe('search_flights');
    expect(await first('schedule a meeting with the attendees tomorrow')).toBe('calendar_add_event');
  });

  it('explains which query terms matched which fields', async () => {
    fx = fixtureProject();
    const sel = await selectTools(fx.project(), 'weather forecast in celsius', { top: 3 });
    const top = sel.results[0]!;
    expect(top.id).toBe('query_weather');
    const byTerm = Object.fromEntries(top.why.map((w) => [w.term, w.fields]));
    expect(byTerm.weather).toEqual(expect.arrayContaining(['description', 'tags', 'examples']));
    expect(byTerm.celsiu).toEqual(['enums']);
    expect(top.score).toBeCloseTo(
      top.why.reduce((a, w) => a + w.score, 0),
      4,
    );
    expect(sel.results.every((r, i, a) => i === 0 || a[i - 1]!.score >= r.score)).toBe(true);
  });

  it('matches nested parameter names split from camelCase', async () => {
    fx = fixtureProject();
    const sel = await selectTools(fx.project(), 'attendee email address', { top: 5 });
    const cal = sel.results.find((r) => r.id === 'calendar_add_event')!;
    expect(cal.why.find((w) => w.term === 'attende')?.fields).toContain('parameters');
  });

  it('never selects tools the caller may not use', async () => {
    fx = fixtureProject();
    const q = 'delete the user account';
    expect((await selectTools(fx.project(), q)).results.map((r) => r.id)).not.toContain('delete_user');
    expect(await first(q, { caller: { role: 'admin' } })).toBe('delete_user');
    expect((await selectTools(fx.project(), q, { caller: { role: 'guest' } })).results.map((r) => r.id)).not.toContain(
      'delete_user',
    );
    // Policy in the config: only 'mailer' may send email.
    fx.write('toolbox.config.yaml', 'permissions:\n  tools:\n    send_email: [mailer]\n  users:\n    ann: [mailer]\n');
    expect(await first('send an email to my manager')).not.toBe('send_email');
    expect(await first('send an email to my manager', { caller: { user: 'ann' } })).toBe('send_email');
  });

  it('tolerates broken contracts and names them in one warning', async () => {
    fx = fixtureProject();
    fx.write('tool_registry/bad_yaml.yaml', 'id: bad_yaml\nname: [unclosed\n');
    fx.write(
      'tool_registry/bad_schema.yaml',
      fixtureContract('stock_price')
        .replace('id: stock_price', 'id: bad_schema')
        .replace('type: object', 'type: objekt'),
    );
    const sel = await selectTools(fx.project(), 'stock price of AAPL');
    expect(sel.results[0]!.id).toBe('stock_price');
    expect(sel.warnings).toHaveLength(1);
    expect(sel.warnings[0]).toMatch(/bad_schema\.yaml/);
    expect(sel.warnings[0]).toMatch(/bad_yaml\.yaml/);
  });

  it('counts prompt tokens of all tools and of the selected ones', async () => {
    fx = fixtureProject();
    const sel = await selectTools(fx.project(), 'weather', { top: 1, tokens: true });
    expect(sel.tokens!.selected).toBeGreaterThan(20);
    expect(sel.tokens!.full).toBeGreaterThan(sel.tokens!.selected * 3);
  });
});

describe('the on-disk index', () => {
  it('is reused when nothing changed and rebuilt only for changed contracts', async () => {
    fx = fixtureProject();
    const cold = await openSelector(fx.project());
    expect(cold.index.rebuilt).toBe(8);
    const warm = await openSelector(fx.project());
    expect(warm.index.rebuilt).toBe(0);
    expect((await warm.rank('stock price')).results[0]!.id).toBe('stock_price');

    // Edit one contract: only it is analysed again, and the edit is searchable.
    const file = join(fx.dir, 'tool_registry', 'stock_price.yaml');
    writeFileSync(
      file,
      fixtureContract('stock_price').replace(
        'Look up the latest share price',
        'Look up the latest share price and dividend yield',
      ),
    );
    const edited = await openSelector(fx.project());
    expect(edited.index.rebuilt).toBe(1);
    expect((await edited.rank('dividend yield')).results[0]!.id).toBe('stock_price');

    // Delete one: it is gone without re-analysing the others.
    unlinkSync(join(fx.dir, 'tool_registry', 'read_file.yaml'));
    const removed = await openSelector(fx.project());
    expect(removed.index.rebuilt).toBe(0);
    expect(removed.index.tools.map((t) => t.id)).not.toContain('read_file');
  });

  it('rebuilds from scratch when the cache folder is deleted or corrupt', async () => {
    fx = fixtureProject();
    await openSelector(fx.project());
    writeFileSync(join(fx.dir, '.toolbox', 'cache', 'select-index.bin'), 'garbage');
    rmSync(join(fx.dir, '.toolbox', 'cache', `select-stats-v${STATS_KEY}.json`));
    const s = await openSelector(fx.project());
    expect(s.index.rebuilt).toBe(8);
    expect((await s.rank('flight')).results[0]!.id).toBe('search_flights');
  });
});
