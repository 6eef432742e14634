// The shipped registry (tool_registry/ + my_tools/): every contract matches its implementation,
// and every offline tool does its job and fails clearly, called the way its loader calls it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { callCommand, callNode, callTool, pythonPath, runChild, shippedContracts } from './shipped-helpers.js';

const ours = shippedContracts().filter((c) => c.loader !== 'mcp');

describe('shipped contracts', () => {
  it('has 12–18 of its own tools across python_function, node_module, command and http', () => {
    expect(ours.length).toBeGreaterThanOrEqual(12);
    expect(ours.length).toBeLessThanOrEqual(18);
    expect(new Set(ours.map((c) => c.loader))).toEqual(new Set(['python_function', 'node_module', 'command', 'http']));
    for (const id of ['query_weather', 'send_email', 'general_search']) expect(ours.map((c) => c.id)).toContain(id);
  });

  it.each(ours.map((c) => [c.id, c]))(
    '%s: file name, metadata, examples, typed and described parameters',
    (id, c: any) => {
      expect(c.__file).toBe(`${id}.yaml`);
      expect(c.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(c.tags.length).toBeGreaterThan(0);
      expect(c.examples.length).toBeGreaterThanOrEqual(2);
      expect(c.examples.length).toBeLessThanOrEqual(4);
      expect(c.timeout).toBeGreaterThan(0);
      for (const [name, p] of Object.entries<any>(c.schema.properties ?? {})) {
        expect(p.type, `${id}.${name} type`).toBeTruthy();
        expect(p.description, `${id}.${name} description`).toBeTruthy();
      }
      // Tools that need the network say so (sandbox + tag); offline tools never ask for it.
      expect(Boolean(c.sandbox?.network)).toBe(c.tags.includes('network'));
      expect(c.tags.includes('offline')).toBe(!c.sandbox?.network);
    },
  );

  it("no parameter is shadowed by one of `toolbox run`'s own options", () => {
    const runOptions = [
      'json',
      'verbose',
      'timeout',
      'user',
      'role',
      'session',
      'args',
      'args-file',
      'help',
      'registry',
      'config',
    ];
    for (const c of ours)
      expect(
        Object.keys(c.schema.properties ?? {}).filter((p) => runOptions.includes(p)),
        c.id,
      ).toEqual([]);
  });

  it("query_weather keeps the reference design's fields (its description only gains a when-to-use sentence)", () => {
    const c = ours.find((x) => x.id === 'query_weather')!;
    expect(c.description.startsWith('根据城市名称查询当前天气情况和未来短期预报。')).toBe(true);
    expect({
      id: c.id,
      name: c.name,
      schema: c.schema,
      provider: c.provider,
      loader: c.loader,
      loader_config: c.loader_config,
    }).toEqual({
      id: 'query_weather',
      name: '查询天气',
      schema: {
        type: 'object',
        properties: { city: { type: 'string', description: '城市名称，例如“北京”、“上海”。' } },
        required: ['city'],
      },
      provider: 'weather_service',
      loader: 'python_function',
      loader_config: { module: 'my_tools.weather', function: 'get_weather_by_city' },
    });
  });

  it('python_function tools: the function exists and its signature matches the schema', async () => {
    const specs = ours
      .filter((c) => c.loader === 'python_function')
      .map((c) => ({
        id: c.id,
        module: c.loader_config.module,
        function: c.loader_config.function,
        props: Object.keys(c.schema.properties ?? {}),
        required: c.schema.required ?? [],
      }));
    const py = `
import importlib, inspect, json, sys
problems = []
for s in json.loads(sys.stdin.read()):
    fn = getattr(importlib.import_module(s["module"]), s["function"])
    params = inspect.signature(fn).parameters
    no_default = {n for n, p in params.items() if p.default is inspect.Parameter.empty}
    for prop in s["props"]:
        if prop not in params: problems.append(f"{s['id']}: schema property {prop} is not a parameter")
    if set(s["required"]) != no_default: problems.append(f"{s['id']}: required {sorted(s['required'])} != parameters without default {sorted(no_default)}")
print(json.dumps(problems))`;
    const r = await runChild(await pythonPath(), ['-c', py], JSON.stringify(specs));
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('node_module tools: the module exists and exports the function', async () => {
    for (const c of ours.filter((x) => x.loader === 'node_module')) {
      expect(existsSync(join(REPO, c.loader_config.module))).toBe(true);
      const mod = await import(join(REPO, c.loader_config.module));
      expect(typeof mod[c.loader_config.function ?? 'default']).toBe('function');
    }
  });

  it('command tools: every required binary is installed', async () => {
    for (const c of ours.filter((x) => x.loader === 'command')) {
      for (const bin of c.requires.bins)
        expect((await runChild('sh', ['-c', 'command -v "$0"', bin], '')).code, `${c.id} needs ${bin}`).toBe(0);
    }
  });

  it('tools that need a key or a server list it in requires.env and allow it into the sandbox', () => {
    for (const c of ours.filter((x) => x.requires?.env)) {
      for (const v of c.requires.env) expect(c.sandbox.env).toContain(v);
    }
    expect(ours.find((c) => c.id === 'general_search')!.requires.env).toEqual(['BRAVE_API_KEY']);
    expect(ours.find((c) => c.id === 'send_email')!.permissions).toEqual({ roles: ['admin', 'assistant'] });
  });
});

describe('calculator', () => {
  it.each([
    ['(3 + 4) * 2^10', 7168],
    ['sqrt(16) + log(e)', 5],
    ['3×(4+5)÷2', 13.5],
    ['0.1 + 0.2', 0.3],
    ['log(8, 2)', 3],
    ['factorial(20)', '2432902008176640000'],
    ['cbrt(-27)', -3],
    ['10 // 3 + 10 % 3', 4],
  ])('%s = %s', async (expression, result) => {
    expect(await callTool('calculator', { expression })).toEqual({ ok: true, value: { expression, result } });
  });
  it.each([
    ['1/0', /division by zero/],
    ['sqrt(-1)', /domain/],
    ['__import__("os")', /unknown function '__import__'/],
    ['__import__("os").system("id")', /not allowed/],
    ['(1).__class__', /not allowed/],
    ['9**9**9', /too large/],
    ['2 +', /cannot parse/],
    ['foo(1)', /unknown function 'foo'/],
  ])('%s fails with a clear message', async (expression, msg) => {
    const out = await callTool('calculator', { expression });
    expect(out).toMatchObject({ ok: false, type: 'ValueError' });
    if (!out.ok) expect(out.error).toMatch(msg);
  });
});

describe('convert_units', () => {
  it.each([
    [5, '公里', 'mi', 3.10685596119],
    [1, '斤', '克', 500],
    [98.6, '°F', '℃', 37],
    [1, '亩', 'm2', 666.666666667],
    [100, 'km/h', 'm/s', 27.7777777778],
    [1, 'GiB', 'MiB', 1024],
    [100, 'Mb', 'MB', 12.5],
    [2, 'hours', 'min', 120],
  ])('%s %s -> %s', async (value, from_unit, to_unit, result) => {
    const out = await callTool('convert_units', { value, from_unit, to_unit });
    expect(out.ok).toBe(true);
    if (out.ok) expect(out.value.result).toBeCloseTo(result as number, 6);
  });
  it('refuses different kinds of unit, and suggests close unit names', async () => {
    const a = await callTool('convert_units', { value: 3, from_unit: 'kg', to_unit: 'km' });
    expect(a.ok || a.error).toMatch(/cannot convert mass \(kg\) to length \(km\)/);
    const b = await callTool('convert_units', { value: 3, from_unit: 'kilometr', to_unit: 'm' });
    expect(b.ok || b.error).toMatch(/unknown unit 'kilometr'\. Did you mean/);
  });
});

describe('convert_timezone', () => {
  it('converts 北京 09:00 to New York across the date line, with DST', async () => {
    const out = await callTool('convert_timezone', {
      time: '2024-07-01 09:00',
      from_zone: '北京',
      to_zone: 'America/New_York',
    });
    expect(out).toMatchObject({
      ok: true,
      value: {
        to: { time: '2024-06-30 21:00:00', utc_offset: 'UTC-04:00', weekday_zh: '星期日', dst: true },
        difference_hours: -12,
      },
    });
  });
  it('accepts UTC offsets and lower-case IANA names', async () => {
    const out = await callTool('convert_timezone', {
      time: '2024-01-15 18:30',
      from_zone: 'europe/london',
      to_zone: 'UTC+5:30',
    });
    expect(out).toMatchObject({ ok: true, value: { to: { time: '2024-01-16 00:00:00', utc_offset: 'UTC+05:30' } } });
  });
  it('suggests the closest zone for a typo, and rejects unreadable times', async () => {
    const a = await callTool('convert_timezone', { time: 'now', from_zone: 'Asia/Shanghi', to_zone: 'UTC' });
    expect(a.ok || a.error).toMatch(/unknown time zone 'Asia\/Shanghi'\. Did you mean Asia\/Shanghai/);
    const b = await callTool('convert_timezone', { time: 'half past tea', from_zone: 'UTC', to_zone: 'UTC' });
    expect(b.ok || b.error).toMatch(/cannot read the time/);
  });
});

describe('date_calculator', () => {
  it('days between two dates, with workdays', async () => {
    const out = await callTool('date_calculator', {
      operation: 'between',
      date: '2024-01-01',
      end_date: '2024年12月25日',
    });
    expect(out).toMatchObject({ ok: true, value: { days: 359, workdays: 257 } });
  });
  it('adds days across a leap day, and names the weekday in Chinese', async () => {
    const out = await callTool('date_calculator', { operation: 'add', date: '2024/2/28', days: 2 });
    expect(out).toMatchObject({ ok: true, value: { date: '2024-03-01', weekday: 'Friday', weekday_zh: '星期五' } });
  });
  it('info: weekday, ISO week, day of year', async () => {
    const out = await callTool('date_calculator', { operation: 'info', date: '2024-05-01' });
    expect(out).toMatchObject({
      ok: true,
      value: { weekday_zh: '星期三', iso_week: 18, day_of_year: 122, is_leap_year: true },
    });
  });
  it('fails clearly on impossible dates and missing operands', async () => {
    const a = await callTool('date_calculator', { operation: 'info', date: '2023-02-29' });
    expect(a.ok || a.error).toMatch(/not a valid date/);
    const b = await callTool('date_calculator', { operation: 'between', date: '2024-01-01' });
    expect(b.ok || b.error).toMatch(/needs end_date/);
  });
});

describe('text and document tools', () => {
  it('text_stats counts Chinese characters, English words, lines and sentences', async () => {
    const out = await callNode('text_stats', { text: '今天天气很好。我们去公园吧！\nThe park is 2 km away.\n' });
    expect(out).toMatchObject({
      ok: true,
      value: { cjk_characters: 12, latin_words: 5, numbers: 1, words: 18, lines: 2, sentences: 3 },
    });
    const bad = await callNode('text_stats', { text: 42 });
    expect(bad).toMatchObject({ ok: false });
  });

  it('json_query: paths, wildcards, any-depth keys, and clear errors', async () => {
    const document = JSON.stringify({
      data: {
        items: [
          { id: 1, name: '苹果' },
          { id: 2, name: 'Pear' },
        ],
      },
      meta: { 'content-type': 'x', id: 9 },
    });
    expect(await callNode('json_query', { document, path: 'data.items[0].name' })).toMatchObject({
      ok: true,
      value: { count: 1, matches: [{ path: '$.data.items[0].name', value: '苹果' }] },
    });
    const all = await callNode('json_query', { document, path: '$..id' });
    expect(all.ok && all.value.matches.map((m: any) => m.value)).toEqual([1, 2, 9]);
    expect(await callNode('json_query', { document, path: 'data.items[-1].name' })).toMatchObject({
      ok: true,
      value: { matches: [{ value: 'Pear' }] },
    });
    expect(await callNode('json_query', { document, path: 'meta["content-type"]' })).toMatchObject({
      ok: true,
      value: { count: 1 },
    });
    const badJson = await callNode('json_query', { document: '{"a": ', path: 'a' });
    expect(badJson.ok || badJson.error).toMatch(/not valid JSON/);
    const badPath = await callNode('json_query', { document, path: 'data.items[x]' });
    expect(badPath.ok || badPath.error).toMatch(/invalid path/);
  });

  it('markdown_outline: headings (not inside code fences) and plain text', async () => {
    const markdown =
      '# 项目 Project\n\nSome **bold** [link](https://x.y).\n\n```sh\n# not a heading\n```\n\nUsage\n-----\n\n### Details ###\n';
    const out = await callTool('markdown_outline', { markdown });
    expect(out.ok && out.value.headings.map((h: any) => [h.level, h.title, h.line])).toEqual([
      [1, '项目 Project', 1],
      [2, 'Usage', 9],
      [3, 'Details', 12],
    ]);
    const text = await callTool('markdown_outline', { markdown, mode: 'plain_text' });
    expect(text.ok && text.value.text).toContain('Some bold link.');
    const bad = await callTool('markdown_outline', { markdown, mode: 'html' });
    expect(bad.ok || bad.error).toMatch(/unknown mode 'html'/);
  });

  it('text_diff: unified diff with counts', async () => {
    const out = await callTool('text_diff', { old_text: 'a\nb\nc', new_text: 'a\nB\nc\nd' });
    expect(out).toMatchObject({ ok: true, value: { identical: false, added_lines: 2, removed_lines: 1 } });
    expect(out.ok && out.value.diff).toContain('-b\n+B\n');
    expect(await callTool('text_diff', { old_text: 'x', new_text: 'x' })).toMatchObject({
      ok: true,
      value: { identical: true, diff: '' },
    });
    const bad = await callTool('text_diff', { old_text: 'x', new_text: 'y', context_lines: -1 });
    expect(bad.ok || bad.error).toMatch(/context_lines/);
  });

  it('csv_summary: numeric and text columns, missing values, detected delimiter', async () => {
    const out = await callTool('csv_summary', {
      csv_text: '城市;人口;面积\n北京;2189;16410.5\n上海;2487;6340.5\n广州;1881;\n',
    });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.value).toMatchObject({ rows: 3, columns: 3, delimiter: ';' });
    expect(out.value.column_stats[1]).toMatchObject({
      name: '人口',
      type: 'number',
      min: 1881,
      max: 2487,
      sum: 6557,
      median: 2189,
    });
    expect(out.value.column_stats[2]).toMatchObject({ name: '面积', missing: 1, mean: 11375.5 });
    expect(out.value.column_stats[0]).toMatchObject({ type: 'text', distinct: 3 });
    const bad = await callTool('csv_summary', { csv_text: '   ' });
    expect(bad.ok || bad.error).toMatch(/csv_text is empty/);
  });

  it('generate_password: length, count, character classes; limits enforced', async () => {
    const out = await callTool('generate_password', { length: 24, count: 3, symbols: false, avoid_ambiguous: true });
    expect(out.ok).toBe(true);
    if (out.ok) {
      expect(out.value.passwords).toHaveLength(3);
      for (const p of out.value.passwords)
        expect(p).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-HJ-NP-Za-km-np-z2-9]{24}$/);
    }
    const bad = await callTool('generate_password', { length: 4 });
    expect(bad.ok || bad.error).toMatch(/length must be a whole number from 8 to 128/);
  });
});

describe('command tools (argv templates, no shell substitution)', () => {
  it.each(['md5', 'sha1', 'sha256', 'sha512'])('hash_text %s matches node:crypto', async (algorithm) => {
    const text = '你好 hello "$(id)" `id`\n';
    const r = await callCommand('hash_text', { text, algorithm });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(createHash(algorithm).update(text).digest('hex'));
  });
  it('base64_encode encodes UTF-8 text without line wrapping', async () => {
    const text = '用户:密码 '.repeat(20);
    const r = await callCommand('base64_encode', { text });
    expect(r.stdout).toBe(Buffer.from(text).toString('base64'));
  });
});

it('every python module imports with only the standard library', async () => {
  const mods = [...new Set(ours.filter((c) => c.loader === 'python_function').map((c) => c.loader_config.module))];
  // -S: no site-packages, so a third-party import would fail here.
  const r = await runChild(await pythonPath(), ['-S', '-c', `import ${mods.join(', ')}`], '');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});
