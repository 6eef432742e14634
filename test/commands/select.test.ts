import { afterEach, describe, expect, it } from 'vitest';
import { cli, spawnCli } from '../helpers.js';
import { fixtureContract, fixtureProject } from '../select/fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());

describe('toolbox select', () => {
  it('prints one JSON document with results and token counts', async () => {
    fx = fixtureProject();
    const r = await cli(['select', '查询北京今天天气', '--json', '--top', '3'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.json.query).toBe('查询北京今天天气');
    expect(r.json.results[0]).toMatchObject({ id: 'query_weather', name: '查询天气' });
    expect(r.json.results.length).toBeLessThanOrEqual(3);
    expect(r.json.results[0].why[0]).toHaveProperty('fields');
    expect(r.json.tokens.full).toBeGreaterThan(r.json.tokens.selected);
    expect(r.json.tokens.selected).toBeGreaterThan(0);
  });

  it('shows scores, why and the saving in percent for people', async () => {
    fx = fixtureProject();
    const r = await cli(['select', 'send an email to my manager'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^1\s+send_email\s+\d+\.\d+\s+.*email \(/);
    expect(r.stdout).toMatch(/\d+(\.\d+)?% saved/);
  });

  it("quotes the user's words in why, not their stems", async () => {
    fx = fixtureProject();
    const r = await cli(['select', 'sending emails to managers'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    const line = r.stdout.split('\n')[1]!;
    expect(line).toMatch(/\bemails \(/);
    expect(line).not.toMatch(/\bemail \(|\bsend \(/);
  });

  it('shows a glossary translation as the Chinese word it came from, never as an English stem', async () => {
    fx = fixtureProject();
    const r = await cli(['select', '查询北京今天天气', '--top', '5'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    const json = (await cli(['select', '查询北京今天天气', '--top', '5', '--json'], { cwd: fx.dir })).json;
    // The ranking did use translations (a translated-field match exists) ...
    expect(JSON.stringify(json)).toMatch(/"translated"/);
    // ... but the why column names only the query's own words: no Latin word outside the field lists.
    const rows = r.stdout
      .split('\n')
      .slice(1)
      .filter((l) => /^\d+\s/.test(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(row.replace(/\([^)]*\)/g, '').replace(/^\d+\s+\S+\s+[\d.]+/, '')).not.toMatch(/[A-Za-z]/);
  });

  it('treats traditional characters as simplified, and shows the characters the user wrote in why', async () => {
    fx = fixtureProject();
    const simp = (await cli(['select', '查询北京今天天气', '--json'], { cwd: fx.dir })).json;
    const trad = (await cli(['select', '查詢北京今天天氣', '--json'], { cwd: fx.dir })).json;
    expect(trad.results.map((r: { id: string; score: number }) => [r.id, r.score])).toEqual(
      simp.results.map((r: { id: string; score: number }) => [r.id, r.score]),
    );
    const r = await cli(['select', '查詢北京今天天氣', '--top', '1'], { cwd: fx.dir });
    const row = r.stdout.split('\n')[1]!;
    expect(row).toMatch(/^1\s+query_weather\s/);
    expect(row).toMatch(/天氣 \(/);
    expect(row).toMatch(/查詢 \(/);
    expect(row).not.toMatch(/天气|查询/);
  });

  it('finds a contract written in traditional characters with a simplified query, and the other way round', async () => {
    fx = fixtureProject();
    fx.write(
      'tool_registry/hk_tide.yaml',
      "id: hk_tide\nname: 潮汐預報\ndescription: 查詢香港各港口的潮汐時間與潮高\nschema: { type: object }\nloader: command\nloader_config: { argv: ['true'] }\n",
    );
    const first = async (q: string) => (await cli(['select', q, '--json'], { cwd: fx.dir })).json.results[0]?.id;
    expect(await first('查询香港潮汐时间')).toBe('hk_tide');
    expect(await first('查詢香港潮汐時間')).toBe('hk_tide');
    expect(await first('tide times in Hong Kong')).toBe('hk_tide');
  });

  it('prints ready-to-use definitions in OpenAI, Anthropic and MCP shapes', async () => {
    fx = fixtureProject();
    const q = ['select', 'weather in Paris', '-k', '2'];
    const openai = (await cli([...q, '--format', 'openai'], { cwd: fx.dir })).json;
    expect(openai[0]).toEqual({
      type: 'function',
      function: {
        name: 'query_weather',
        description: expect.any(String),
        parameters: expect.objectContaining({ type: 'object' }),
      },
    });
    const anthropic = (await cli([...q, '--format', 'anthropic'], { cwd: fx.dir })).json;
    expect(Object.keys(anthropic[0]).sort()).toEqual(['description', 'input_schema', 'name']);
    const mcp = (await cli([...q, '--format', 'mcp'], { cwd: fx.dir })).json;
    expect(Object.keys(mcp)).toEqual(['tools']);
    expect(Object.keys(mcp.tools[0]).sort()).toEqual(['description', 'inputSchema', 'name', 'title']);
    expect(mcp.tools[0].name).toBe('query_weather');
  });

  it('refuses ids OpenAI/Anthropic cannot carry (exit 2, name_not_allowed); MCP takes them', async () => {
    fx = fixtureProject();
    const tempContract = fixtureContract('query_weather').replace(/^id: query_weather$/m, 'id: weather.v2');
    fx.write('tool_registry/weather_v2.yaml', tempContract);
    const q = ['select', 'weather in Paris', '-k', '3', '--json'];
    for (const format of ['openai', 'anthropic']) {
      const r = await cli([...q, '--format', format], { cwd: fx.dir });
      expect(r.code).toBe(2);
      expect(r.errorJson.error.code).toBe('name_not_allowed');
      expect(r.errorJson.error.details.ids).toEqual(['weather.v2']);
    }
    const mcp = await cli([...q, '--format', 'mcp'], { cwd: fx.dir });
    expect(mcp.code).toBe(0);
    expect(mcp.json.tools.map((t: { name: string }) => t.name)).toContain('weather.v2');
    const v = await cli(['validate', '--json'], { cwd: fx.dir });
    expect(v.json.diagnostics.filter((d: { rule: string }) => d.rule === 'id-provider-name')).toHaveLength(1);
  });

  it('filters by --role / --user and rejects both at once', async () => {
    fx = fixtureProject();
    const anon = await cli(['select', 'delete the user account', '--json'], { cwd: fx.dir });
    expect(anon.json.results.map((x: { id: string }) => x.id)).not.toContain('delete_user');
    const admin = await cli(['select', 'delete the user account', '--json', '--role', 'admin'], { cwd: fx.dir });
    expect(admin.json.results[0].id).toBe('delete_user');
    const both = await cli(['select', 'x', '--json', '--role', 'admin', '--user', 'ann'], { cwd: fx.dir });
    expect(both.code).toBe(2);
    expect(both.errorJson.error.code).toBe('conflicting_options');
  });

  it('follows a session across invocations', async () => {
    fx = fixtureProject();
    await cli(['select', '查询北京今天天气', '--session', 'chat-1'], { cwd: fx.dir });
    const r = await cli(['select', '那上海呢', '--session', 'chat-1', '--json'], { cwd: fx.dir });
    expect(r.json.results[0].id).toBe('query_weather');
    expect(r.json.history).toEqual(['查询北京今天天气']);
    const bad = await cli(['select', 'x', '--session', '../etc', '--json'], { cwd: fx.dir });
    expect(bad.code).toBe(2);
    expect(bad.errorJson.error.code).toBe('invalid_session_id');
  });

  it('warns once about broken contracts and still selects', async () => {
    fx = fixtureProject();
    fx.write('tool_registry/broken.yaml', 'id: [');
    fx.write(
      'tool_registry/bad_schema.yaml',
      fixtureContract('read_file').replace('id: read_file', 'id: bad_schema').replace('type: object', 'type: 5'),
    );
    const r = await cli(['select', 'stock price', '--json'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.json.results[0].id).toBe('stock_price');
    expect(r.stderr.match(/warning/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/broken\.yaml/);
    expect(r.stderr).toMatch(/bad_schema\.yaml/);
  });

  it('rejects a bad --top and a missing registry with their exit codes', async () => {
    fx = fixtureProject();
    const top = await cli(['select', 'weather', '--top', '0', '--json'], { cwd: fx.dir });
    expect(top.code).toBe(2);
    expect(top.errorJson.error.code).toBe('invalid_top');
    const none = await cli(['select', 'weather', '--json', '--registry', 'nope'], { cwd: fx.dir });
    expect(none.code).toBe(3);
    expect(none.errorJson.error.code).toBe('registry_not_found');
  });

  it('returns an empty result (exit 0) when nothing matches', async () => {
    fx = fixtureProject();
    const r = await cli(['select', 'zebra quokka', '--json'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.json.results).toEqual([]);
  });

  it('returns an empty result (exit 0) for small talk, in both languages', async () => {
    fx = fixtureProject();
    for (const q of ['thanks, that was helpful', '谢谢你，辛苦了']) {
      const r = await cli(['select', q, '--json'], { cwd: fx.dir });
      expect(r.code).toBe(0);
      expect(r.json.results).toEqual([]);
      const human = await cli(['select', q], { cwd: fx.dir });
      expect([human.code, human.stdout]).toEqual([0, '']);
    }
  });

  it('works end to end through the real binary', async () => {
    fx = fixtureProject();
    const r = await spawnCli(['select', '给张三发一封邮件', '--json'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0].id).toBe('send_email');
  });
});
