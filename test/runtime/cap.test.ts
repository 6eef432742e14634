// Output caps: cut at the cap in real o200k tokens, full result under .toolbox/results/, binary
// never shown as text; through the real runtime (sandboxed Node tools) and the real `toolbox serve`.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { looksBinary, prefixWithin } from '../../src/runtime/cap.js';
import { BIN, cli, tempProject } from '../helpers.js';

describe('looksBinary', () => {
  it.each([
    ['plain English\nwith lines\tand tabs', false],
    ['中文文本，含标点。😀 emoji', false],
    ['\u001b[31mred\u001b[0m ANSI colour', false],
    ['PNG\u0000\u0001\u0002', true],
    ['\ufffd\ufffd\ufffd\ufffd abc \ufffd\ufffd', true],
    ['', false],
  ])('%j → %s', (text, want) => expect(looksBinary(text)).toBe(want));
});

describe('prefixWithin', () => {
  it('returns nothing when the text fits, the longest prefix within the budget otherwise', async () => {
    expect(await prefixWithin('short text', 100)).toBeUndefined();
    const long = 'The quick brown fox jumps over the lazy dog. '.repeat(2000);
    const cut = (await prefixWithin(long, 500))!;
    expect(long.startsWith(cut)).toBe(true);
    expect(encode(cut).length).toBeLessThanOrEqual(500);
    expect(encode(cut).length).toBeGreaterThan(480);
  });
  it('counts long Chinese text in chunks and never splits a surrogate pair', async () => {
    const zh = '查询北京今天的天气情况并给出建议😀'.repeat(3000);
    const cut = (await prefixWithin(zh, 1000))!;
    expect(encode(cut).length).toBeLessThanOrEqual(1000);
    expect(cut.length).toBeGreaterThan(300);
    expect(cut).not.toMatch(/[\ud800-\udbff]$/);
  });
});

const tools = `export function big() { return 'word '.repeat(20000); }
export function bigObject() { return { rows: Array.from({ length: 3000 }, (_, i) => ({ i, name: 'row ' + i })) }; }
export function small() { return 'just a little'; }
export function binary() { return 'GIF89a\\u0000\\u0001\\u0002\\u0003' + '\\u00ff'.repeat(50); }
`;
const contract = (id: string, fn: string, extra = '') => `id: ${id}
name: ${id}
description: Test tool ${id} returning output of some size. Use in the output cap tests only.
schema: { type: object, properties: {} }
loader: node_module
loader_config: { module: tools/out.mjs, function: ${fn} }
${extra}`;

const p = tempProject({
  'tools/out.mjs': tools,
  'tool_registry/big.yaml': contract('big', 'big', 'max_result_tokens: 300\n'),
  'tool_registry/big_object.yaml': contract('big_object', 'bigObject'),
  'tool_registry/small.yaml': contract('small', 'small', 'max_result_tokens: 300\n'),
  'tool_registry/binary_out.yaml': contract('binary_out', 'binary'),
  'toolbox.config.yaml': 'registry: tool_registry\nruntime: { max_result_tokens: 1000 }\n',
});
afterAll(() => p.cleanup());

describe('toolbox run with output caps', () => {
  it('cuts at the contract cap with a marker and keeps the full result in .toolbox/results/', async () => {
    const r = await cli(['run', 'big', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    const t = r.json.truncated;
    expect(t).toMatchObject({ cap: 300, binary: false, mimeType: 'text/plain' });
    expect(t.file.startsWith(`${p.dir}/.toolbox/results/`)).toBe(true);
    expect(readFileSync(t.file, 'utf8')).toBe('word '.repeat(20000));
    expect(encode(r.json.text).length).toBeLessThanOrEqual(300);
    expect(r.json.text).toContain(t.file);
    expect(r.json.text).toMatch(/output cut at 300 tokens/);
  });
  it('an object result over the config cap is saved as JSON', async () => {
    const r = await cli(['run', 'big_object', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.truncated).toMatchObject({ cap: 1000, mimeType: 'application/json' });
    expect(JSON.parse(readFileSync(r.json.truncated.file, 'utf8')).rows).toHaveLength(3000);
    expect(encode(r.json.text).length).toBeLessThanOrEqual(1000);
  });
  it('leaves a small result alone and writes nothing', async () => {
    const r = await cli(['run', 'small', '--json'], { cwd: p.dir });
    expect(r.json.text).toBe('just a little');
    expect(r.json.truncated).toBeUndefined();
  });
  it('never shows binary output as text', async () => {
    const r = await cli(['run', 'binary_out', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.truncated).toMatchObject({ binary: true, mimeType: 'application/octet-stream' });
    expect(r.json.text).not.toContain('GIF89a');
    expect(r.json.text).toMatch(/binary output/);
    expect(existsSync(r.json.truncated.file)).toBe(true);
  });
});

describe('toolbox serve with output caps', () => {
  it('sends the cut text plus a resource link to the full result, no structuredContent', async () => {
    const client = new Client({ name: 'cap-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--expose', 'all'],
        cwd: p.dir,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        stderr: 'pipe',
      }),
    );
    try {
      const r = (await client.callTool({ name: 'big_object', arguments: {} })) as {
        content: { type: string; text?: string; uri?: string; mimeType?: string; size?: number }[];
        structuredContent?: unknown;
        isError?: boolean;
      };
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toBeUndefined();
      expect(r.content.map((b) => b.type)).toEqual(['text', 'resource_link']);
      expect(encode(r.content[0]!.text!).length).toBeLessThanOrEqual(1000);
      const link = r.content[1]!;
      expect(link.mimeType).toBe('application/json');
      // A remote client cannot read the server's files: the link is a resource of the server, and
      // neither it nor the cut text names a host path.
      expect(link.uri).toMatch(/^toolbox:\/\/results\/[A-Za-z0-9_-]{22}$/);
      expect(r.content[0]!.text).toContain(link.uri);
      expect(JSON.stringify(r)).not.toContain(p.dir);
      const read = await client.readResource({ uri: link.uri! });
      const text = (read.contents[0] as { text: string; mimeType: string }).text;
      expect(Buffer.byteLength(text)).toBe(link.size);
      expect(JSON.parse(text).rows).toHaveLength(3000);
      // Only links the server handed out can be read: a guessed id is not found (-32602).
      await expect(client.readResource({ uri: 'toolbox://results/AAAAAAAAAAAAAAAAAAAAAA' })).rejects.toThrow(
        /not found/i,
      );
      await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/not found/i);
    } finally {
      await client.close();
    }
  });
});
