// Issue 36 item 2: tools/list pages with an opaque cursor that any replica continues, that restarts
// when the registry changed, and that is -32602 when it is not ours; search_tools pages the same
// way. Two real servers over one registry, raw 2026-07-28 requests and the SDK v2 client.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { tempProject } from '../helpers.js';
import { modernPost } from './fixtures.js';

const TOKEN = 'paging-test-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const contract = (i: number) => `id: tool_${String(i).padStart(3, '0')}
name: tool ${i}
description: Tool number ${i} ${i % 2 ? 'converts temperatures between units' : 'sends a short message to a colleague'}.
schema: { type: object, properties: { x: { type: string } } }
loader: command
loader_config: { argv: [/bin/echo, "{{x}}"] }
`;
const files: Record<string, string> = { 'toolbox.config.yaml': 'registry: tool_registry\n' };
for (let i = 0; i < 250; i++) files[`tool_registry/tool_${i}.yaml`] = contract(i);
const proj = tempProject(files);
afterAll(() => proj.cleanup());

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

async function start(expose: 'all' | 'search', pageSize = 100): Promise<string> {
  const core = new ServeCore(resolveProject({ cwd: proj.dir }), { expose, caller: {}, pageSize });
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, { port: 0, host: '127.0.0.1', token: TOKEN, signal: ac.signal, onListening: res });
    done.catch(rej);
  });
  stops.push(async () => {
    ac.abort();
    await done;
    await core.close();
  });
  return url;
}

type Page = { tools: { name: string }[]; nextCursor?: string };
async function list(url: string, cursor?: string) {
  const r = await modernPost(url, 'tools/list', cursor === undefined ? {} : { cursor }, { headers: AUTH });
  return {
    status: r.status,
    page: r.final?.result as Page | undefined,
    error: r.final?.error as { code: number; message: string } | undefined,
  };
}
const names = (p?: Page) => (p?.tools ?? []).map((t) => t.name);

describe('tools/list pages', () => {
  it('in pages of the configured size, each tool once, in id order; the SDK v2 client follows the cursor', async () => {
    const url = await start('all', 100);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const r = await list(url, cursor);
      expect(r.status).toBe(200);
      sizes.push(r.page!.tools.length);
      seen.push(...names(r.page));
      cursor = r.page!.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([100, 100, 50]);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(250);

    const client = new Client({ name: 'pager', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } }));
    // The client follows nextCursor itself: all 250, each once, in order.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(seen);
    await client.close();
  });

  it('a cursor from one replica continues on another; after a registry change it starts over', async () => {
    const [a, b] = [await start('all', 100), await start('all', 100)];
    const first = await list(a);
    const onB = await list(b, first.page!.nextCursor);
    expect(names(onB.page)).toEqual((await list(a, first.page!.nextCursor)).page!.tools.map((t) => t.name));
    expect(names(onB.page)[0]! > names(first.page).at(-1)!).toBe(true);
    // The registry changes: the old cursor's version is gone, so the list starts over, whole.
    const added = join(proj.dir, 'tool_registry', 'tool_aaa.yaml');
    writeFileSync(added, contract(999).replace('tool_999', 'tool_000a'));
    try {
      await expect
        .poll(async () => names((await list(b, first.page!.nextCursor)).page)[0], { timeout: 10_000 })
        .toBe('tool_000');
      const again = await list(b, first.page!.nextCursor);
      expect(names(again.page)).toContain('tool_000a');
    } finally {
      rmSync(added);
    }
  });

  it('a cursor that is not ours is -32602', async () => {
    const url = await start('all', 100);
    for (const bad of ['not-a-cursor', Buffer.from('{"x":1}').toString('base64url'), '']) {
      const r = await list(url, bad);
      expect(r.error?.code).toBe(-32602);
      expect(r.error?.message).toMatch(/Invalid cursor/);
    }
    const search = await start('search');
    expect((await list(search, 'nope')).error?.code).toBe(-32602);
  });
});

describe('search_tools pages', () => {
  it('the next page continues the ranking; a cursor of another query is refused', async () => {
    const url = await start('search');
    const call = async (args: Record<string, unknown>) =>
      (await modernPost(url, 'tools/call', { name: 'search_tools', arguments: args }, { headers: AUTH })).final
        ?.result as { isError?: boolean; structuredContent: Page; content: { text: string }[] };
    const one = await call({ query: 'convert temperatures', top: 5 });
    expect(one.structuredContent.tools).toHaveLength(5);
    expect(one.structuredContent.nextCursor).toBeTruthy();
    expect(one.content[1]!.text).toContain(one.structuredContent.nextCursor);
    const two = await call({ query: 'convert temperatures', top: 5, cursor: one.structuredContent.nextCursor });
    expect(two.structuredContent.tools).toHaveLength(5);
    const both = [...names(one.structuredContent), ...names(two.structuredContent)];
    expect(new Set(both).size).toBe(10);
    // The same as asking for ten at once.
    expect(names((await call({ query: 'convert temperatures', top: 10 })).structuredContent)).toEqual(both);
    const other = await call({ query: 'send a message', cursor: one.structuredContent.nextCursor });
    expect(other.isError).toBe(true);
    expect(other.content[0]!.text).toMatch(/another query/);
  });
});
