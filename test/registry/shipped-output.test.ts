// What the model reads: the exact text of every offline shipped tool's result (the `text` an
// agent, MCP client or `toolbox run` gets), on a copy of the registry. Network tools are covered
// in shipped-network.test.ts; their text comes from the same templates.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, grantInTests, REPO } from '../helpers.js';
import { listen } from './shipped-helpers.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolbox-output-'));
  const skipCaches = (src: string) => !src.includes('__pycache__');
  cpSync(join(REPO, 'tool_registry'), join(dir, 'tool_registry'), { recursive: true, filter: skipCaches });
  cpSync(join(REPO, 'my_tools'), join(dir, 'my_tools'), { recursive: true, filter: skipCaches });
  // general_search sends BRAVE_API_KEY over the network: the user's grant (issue 23 item 7).
  // Its stand-in API server is on loopback: opened by the user's network grant too (issue 33).
  grantInTests(dir, { env: ['BRAVE_API_KEY'], network: ['127.0.0.1'] }, 'general_search');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function text(id: string, args: Record<string, unknown>, env: Record<string, string> = {}): Promise<string> {
  const r = await cli(['run', id, '--args', JSON.stringify(args), '--json'], { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  return r.json.text as string;
}

describe('the text each shipped tool gives the model', () => {
  it('markdown_outline: the hierarchy as written (parents left of children), with lines and anchors', async () => {
    const md = '# Title\nintro\n## Part A\ntext\n### A.1\nmore\n## Part B\n- item';
    expect(await text('markdown_outline', { markdown: md })).toBe(
      '4 heading(s):\n- Title (line 1, #title)\n  - Part A (line 3, #part-a)\n    - A.1 (line 5, #a1)\n  - Part B (line 7, #part-b)',
    );
    expect(await text('markdown_outline', { markdown: 'no headings here' })).toBe(
      'No headings found (no # lines or underlined titles).',
    );
    expect(await text('markdown_outline', { markdown: '# T\n**bold** [link](http://x)', mode: 'plain_text' })).toBe(
      'T\nbold link',
    );
  });

  it('csv_summary: one line per column, not a block per column', async () => {
    const csv = 'name,age,city\nann,31,Paris\nbob,,Lyon\ncy,40,Paris\ndee,25,';
    expect(await text('csv_summary', { csv_text: csv })).toBe(
      [
        "4 row(s) × 3 column(s), delimiter ','",
        '- name (text): 4 value(s), 0 missing, 4 distinct; no value repeats, e.g. ann, bob, cy',
        '- age (number): 3 value(s), 1 missing, 3 distinct; min 25, max 40, mean 32, median 31, stdev 7.54983, sum 96',
        '- city (text): 3 value(s), 1 missing, 2 distinct; most common: Paris (2), Lyon (1)',
      ].join('\n'),
    );
  });

  it('date_calculator: between says the workdays it computed; add and info', async () => {
    expect(await text('date_calculator', { operation: 'between', date: '2024-05-01', end_date: '2024-05-31' })).toBe(
      '从 2024-05-01 到 2024-05-31 相差 30 天（星期三 → 星期五），其中工作日（周一至周五，不计节假日）22 天',
    );
    expect(await text('date_calculator', { operation: 'add', date: '2024-03-15', days: 90 })).toBe(
      '2024-03-15 加 90 天是 2024-06-13，星期四',
    );
    expect(await text('date_calculator', { operation: 'info', date: '2024-05-01' })).toBe(
      '2024-05-01 是星期三（Wednesday），第 18 周，当年第 122 天',
    );
  });

  it('json_query: matches as path = JSON', async () => {
    const doc = JSON.stringify({ items: [{ id: 1 }, { id: 2, tags: ['a'] }], a: { b: [1, 2] } });
    expect(await text('json_query', { document: doc, path: 'items[*].id' })).toBe(
      '$.items[0].id = 1\n$.items[1].id = 2',
    );
    expect(await text('json_query', { document: doc, path: 'a' })).toBe('$.a = {"b":[1,2]}');
    expect(await text('json_query', { document: doc, path: 'nope' })).toBe('no match for nope');
  });

  it('text_stats: never "0 minutes" to read', async () => {
    expect(await text('text_stats', { text: 'Hello world.\n\n你好世界' })).toBe(
      '6 字/词（汉字 4，英文单词 2），18 个字符，3 行，2 段，不到 1 分钟读完',
    );
  });

  it('calculator, convert_units, convert_timezone, hash_text, base64_encode, text_diff', async () => {
    expect(await text('calculator', { expression: '2*(3+4)^2' })).toBe('2*(3+4)^2 = 98');
    expect(await text('convert_units', { value: 5, from_unit: 'km', to_unit: 'mi' })).toBe('5 km = 3.10686 mi');
    expect(
      await text('convert_timezone', { time: '2024-05-01 15:00', from_zone: '北京', to_zone: 'America/New_York' }),
    ).toBe('2024-05-01 15:00:00 Asia/Shanghai (UTC+08:00) = 2024-05-01 03:00:00 America/New_York (UTC-04:00, 星期三)');
    expect(await text('hash_text', { text: 'abc', algorithm: 'sha256' })).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await text('base64_encode', { text: 'héllo 世界' })).toBe('aMOpbGxvIOS4lueVjA==');
    expect(await text('text_diff', { old_text: 'a\nb\nc', new_text: 'a\nB\nc' })).toBe(
      '1 line(s) added, 1 line(s) removed; similarity 67%\n--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
  });

  it('generate_password: the passwords as a list, then length and strength', async () => {
    const t = await text('generate_password', { length: 12, count: 2 });
    expect(t).toMatch(
      /^passwords:\n {2}- \S{12}\n {2}- \S{12}\nlength: {8}12\nentropy_bits: {2}[\d.]+\nalphabet_size: \d+$/,
    );
  });

  it('general_search: a numbered list of title, URL and snippet, not the raw API answer', async () => {
    // The shape of a Brave Search web response (trimmed to the fields around what the tool reads).
    const page = (n: number) => ({
      title: `Node.js <strong>release</strong> ${n}`,
      url: `https://nodejs.org/${n}`,
      description: `Node.js ${n} &amp; npm: <strong>release</strong> notes.`,
      is_source_local: false,
      profile: { name: 'Node.js', url: 'https://nodejs.org', img: 'https://imgs.search.brave.com/x' },
      meta_url: { scheme: 'https', netloc: 'nodejs.org', hostname: 'nodejs.org', path: `› ${n}` },
      language: 'en',
      family_friendly: true,
    });
    let seen: URL | undefined;
    let key: string | undefined;
    const server = createServer((req, res) => {
      seen = new URL(req.url!, 'http://x');
      key = req.headers['x-subscription-token'] as string;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'search',
          query: { original: 'node release' },
          web: { type: 'search', results: [1, 2, 3].map(page) },
        }),
      );
    });
    const base = `http://127.0.0.1:${await listen(server)}`;
    try {
      const env = { BRAVE_API_KEY: 'test-key', BRAVE_SEARCH_URL: `${base}/res/v1/web/search` };
      expect(await text('general_search', { query: 'node release', count: 2 }, env)).toBe(
        [
          '2 result(s) for "node release":',
          '1. Node.js release 1',
          '   https://nodejs.org/1',
          '   Node.js 1 & npm: release notes.',
          '2. Node.js release 2',
          '   https://nodejs.org/2',
          '   Node.js 2 & npm: release notes.',
        ].join('\n'),
      );
      expect(seen?.searchParams.get('q')).toBe('node release');
      expect(key).toBe('test-key');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
