// Issue 23 item 10: one client of `serve --http` cannot fill the queue or push others out. Real
// JSON-RPC batches on a real session, real concurrent MCP clients, real sandboxed tools.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolveProject } from '../../src/config.js';
import { ServeCore, type ServeOptions } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import type { HttpLimits } from '../../src/serve/http-guard.js';
import { errCode, modernPost } from '../serve/fixtures.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

const TOKEN = 'fairness-test-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const p = project({
  'tool_registry/nap.yaml': contract('nap', 'command', '{ argv: [/bin/sleep, "{{x}}"] }', 'timeout: 20s'),
  'tool_registry/echo.yaml': contract('echo', 'command', '{ argv: [/bin/echo, "{{x}}"] }'),
});

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(opts: Partial<ServeOptions>, maxPerClient = 12, more: Partial<HttpLimits> = {}): Promise<string> {
  const core = new ServeCore(resolveProject({ cwd: p.dir }), { expose: 'all', caller: {}, ...opts });
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, {
      port: 0,
      host: '127.0.0.1',
      token: TOKEN,
      signal: ac.signal,
      limits: { maxPerClient, ...more },
      onListening: res,
    });
    done.catch(rej);
  });
  stop = async () => {
    ac.abort();
    await done;
    await core.close();
  };
  return url;
}

async function session(url: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } });
  const client = new Client({ name: 'fair', version: '1' });
  client.onerror = () => undefined;
  await client.connect(transport);
  return { client, transport, sid: transport.sessionId! };
}

type Reply = { id: number; result?: { isError?: boolean; structuredContent?: unknown; _meta?: unknown } };

/** POST a JSON-RPC batch of tools/call on a session; the HTTP status and every response on the stream. */
async function batch(url: string, sid: string, calls: { name: string; x: string }[]) {
  const body = calls.map((c, i) => ({
    jsonrpc: '2.0',
    id: 1000 + i,
    method: 'tools/call',
    params: { name: c.name, arguments: { x: c.x } },
  }));
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      ...AUTH,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const replies: Reply[] = text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Reply);
  return { status: res.status, replies };
}

const busy = (r: Reply) => r.result?.isError && errCode(r.result as never) === 'server_busy';

describe('item 23.10: one client cannot fill the queue or push others out', () => {
  it('a JSON-RPC batch counts each of its calls against the client limit', async () => {
    expect(expected('serve-batch-flood', 'bwrap')).toBe('blocked');
    const url = await start({ maxConcurrent: 2, maxQueued: 20 });
    const a = await session(url);
    const b = await session(url);
    // 30 calls in one HTTP request: more than the 12 this client may have in flight.
    const flood = await batch(
      url,
      a.sid,
      Array.from({ length: 30 }, () => ({ name: 'nap', x: '3' })),
    );
    expect(flood.status).toBe(429);
    // A batch within the limit (its GET stream holds one of the 12) is served, and another
    // session's call still gets through meanwhile.
    const within = batch(
      url,
      a.sid,
      Array.from({ length: 10 }, () => ({ name: 'nap', x: '0.2' })),
    );
    await new Promise((r) => setTimeout(r, 150));
    const other = await b.client.callTool({ name: 'echo', arguments: { x: 'still served' } });
    expect(other.isError).toBeFalsy();
    const done = await within;
    expect(done.status).toBe(200);
    expect(done.replies).toHaveLength(10);
    expect(done.replies.filter((r) => r.result?.isError)).toEqual([]);
    await a.client.close();
    await b.client.close();
  }, 60_000);

  it('a client that filled the queue gives up places to another client', async () => {
    expect(expected('serve-queue-share', 'bwrap')).toBe('blocked');
    const url = await start({ maxConcurrent: 1, maxQueued: 6 });
    const a = await session(url);
    const b = await session(url);
    // One running, 6 waiting, 3 refused: the queue is all A's.
    const hog = batch(
      url,
      a.sid,
      Array.from({ length: 10 }, () => ({ name: 'nap', x: '1' })),
    );
    await new Promise((r) => setTimeout(r, 300));
    const other = await b.client.callTool({ name: 'echo', arguments: { x: 'my share' } });
    expect(other.isError).toBeFalsy();
    expect(other.structuredContent ?? other.content).toBeTruthy();
    const r = await hog;
    expect(r.replies).toHaveLength(10);
    // A's newest waiting call made room: 3 refused on arrival, 1 dropped for B.
    expect(r.replies.filter(busy)).toHaveLength(4);
    await a.client.close();
    await b.client.close();
  }, 60_000);

  it('new sessions never evict a live one: past the cap they get 503', async () => {
    expect(expected('serve-evict-live-session', 'bwrap')).toBe('blocked');
    const url = await start({ maxSessions: 3 });
    const victim = await session(url);
    expect((await victim.client.callTool({ name: 'echo', arguments: { x: 'hi' } })).isError).toBeFalsy();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `flood${i}`, version: '1' } },
        }),
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 503, 503, 503]);
    // The victim, idle between calls all along, still has its session.
    expect((await victim.client.callTool({ name: 'echo', arguments: { x: 'still mine' } })).isError).toBeFalsy();
    await victim.client.close();
  }, 30_000);

  it('a stateless client past its limit waits briefly, then gets 429 with Retry-After and its id; others are served', async () => {
    expect(expected('serve-stateless-flood', 'bwrap')).toBe('blocked');
    const url = await start({ maxConcurrent: 4, maxQueued: 100 }, 12, { queueMs: 300 });
    const legacy = await session(url);
    // 20 calls at once from one client (one clientInfo): 12 in flight, 8 wait in line; the naps take
    // 20 s, so the waiting ones are refused when their short wait ends.
    const ac = new AbortController();
    const refused: (Awaited<ReturnType<typeof modernPost>> & { i: number })[] = [];
    const flood = Array.from({ length: 20 }, (_, i) =>
      modernPost(
        url,
        'tools/call',
        { name: 'nap', arguments: { x: '20' } },
        { headers: AUTH, id: i + 1, signal: ac.signal },
      ).then(
        (r) => void refused.push({ ...r, i }),
        () => undefined,
      ),
    );
    await expect.poll(() => refused.length, { timeout: 20_000 }).toBe(8);
    ac.abort();
    await Promise.all(flood);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.final?.id).toBe(r.i + 1);
    }
    await legacy.client.close();
  }, 60_000);

  it('while one client is over its limit, another stateless client and a session are served', async () => {
    expect(expected('serve-stateless-flood', 'bwrap')).toBe('blocked');
    const url = await start({ maxConcurrent: 4, maxQueued: 100 }, 4, { queueMs: 300 });
    const legacy = await session(url);
    const flood = Array.from({ length: 10 }, (_, i) =>
      modernPost(url, 'tools/call', { name: 'nap', arguments: { x: '6' } }, { headers: AUTH, id: i + 1 }),
    );
    await new Promise((r) => setTimeout(r, 200));
    const other = await modernPost(
      url,
      'tools/call',
      { name: 'echo', arguments: { x: 'mine' } },
      { headers: AUTH, id: 99, meta: { 'io.modelcontextprotocol/clientInfo': { name: 'another', version: '1' } } },
    );
    expect(other.status).toBe(200);
    expect(other.final?.result?.isError).toBeFalsy();
    expect((await legacy.client.callTool({ name: 'echo', arguments: { x: 'mine' } })).isError).toBeFalsy();
    const statuses = (await Promise.all(flood)).map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    await legacy.client.close();
  }, 60_000);

  it('a client posing as many (a new clientInfo per request) gets no more than its host and token may have', async () => {
    expect(expected('serve-pose-as-many', 'bwrap')).toBe('blocked');
    const url = await start({ maxConcurrent: 1, maxQueued: 100 }, 12, { maxPerPrincipal: 16, queueMs: 300 });
    // One call runs (20 s), the others admitted wait for it: no slot frees while the 40 arrive.
    const ac = new AbortController();
    const refused: Awaited<ReturnType<typeof modernPost>>[] = [];
    const flood = Array.from({ length: 40 }, (_, i) =>
      modernPost(
        url,
        'tools/call',
        { name: 'nap', arguments: { x: '20' } },
        {
          headers: AUTH,
          id: i + 1,
          signal: ac.signal,
          meta: { 'io.modelcontextprotocol/clientInfo': { name: `fake-${i}`, version: '1' } },
        },
      ).then(
        (r) => void refused.push(r),
        () => undefined,
      ),
    );
    await expect.poll(() => refused.length, { timeout: 20_000 }).toBe(24);
    ac.abort();
    await Promise.all(flood);
    expect(refused.map((r) => r.status)).toEqual(Array(24).fill(429));
    expect(refused[0]!.final?.error?.message).toMatch(/host and token/);
  }, 60_000);

  it("one client cannot hold every 2025 session: past its own cap it gets 503, another client's initialize succeeds", async () => {
    expect(expected('serve-session-hog', 'bwrap')).toBe('blocked');
    const url = await start({ maxSessionsPerClient: 3 });
    const init = (name: string, id: number) =>
      fetch(url, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } },
        }),
      });
    // Three live sessions of one client: each keeps its notification stream open.
    const streams = new AbortController();
    for (let i = 0; i < 3; i++) {
      const r = await init('hog', i);
      await r.body?.cancel();
      const sid = r.headers.get('mcp-session-id')!;
      const get = await fetch(url, {
        headers: { ...AUTH, accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
        signal: streams.signal,
      });
      expect(get.status).toBe(200);
    }
    const fourth = await init('hog', 41);
    expect(fourth.status).toBe(503);
    expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await fourth.json()) as { id: number }).id).toBe(41);
    const other = await init('someone-else', 42);
    expect(other.status).toBe(200);
    await other.body?.cancel();
    streams.abort();
  }, 30_000);
});
