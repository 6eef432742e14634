// Session bounds of `toolbox serve --http`: idle expiry and the session cap, through the MCP SDK's
// own client against a real HTTP server (in process, so the core's options can be tiny).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { isLoopbackHost, serveHttp, type SessionCloseReason } from '../../src/serve/http.js';
import { serveProject } from './fixtures.js';

const proj = serveProject();
const TOKEN = 'session-test-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
afterAll(() => proj.cleanup());

interface Running {
  url: string;
  core: ServeCore;
  ended: string[];
  closed: { id: string; reason: SessionCloseReason }[];
  stop(): Promise<void>;
}
let running: Running | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function start(opts: { sessionIdleMs?: number; maxSessions?: number; sessionLiveMs?: number }): Promise<Running> {
  const project = resolveProject({ cwd: proj.dir, registry: proj.registry });
  const core = new ServeCore(project, {
    expose: 'search',
    caller: {},
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    ...opts,
  });
  const ended: string[] = [];
  const endSession = core.endSession.bind(core);
  core.endSession = (s: string) => {
    ended.push(s);
    endSession(s);
  };
  const closed: Running['closed'] = [];
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, {
      port: 0,
      host: '127.0.0.1',
      token: TOKEN,
      signal: ac.signal,
      onListening: res,
      onSessionClosed: (id, reason) => closed.push({ id, reason }),
    });
    done.catch(rej);
  });
  return {
    url,
    core,
    ended,
    closed,
    stop: async () => {
      ac.abort();
      await done;
      await core.close();
    },
  };
}

async function connect(url: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } });
  const client = new Client({ name: 'session-test', version: '1.0.0' });
  client.onerror = () => undefined; // the GET stream of an expired session fails to reconnect: expected
  await client.connect(transport);
  return { client, transport };
}

const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A session opened with plain POSTs (initialize, initialized), with no GET stream. */
async function rawSession(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await res.text();
  if (res.status !== 200) throw new Error(`initialize: ${res.status}`);
  const sid = res.headers.get('mcp-session-id')!;
  await rawCall(url, sid, 'notifications/initialized');
  return sid;
}

/** One JSON-RPC message on a session; the HTTP status. */
async function rawCall(url: string, sid: string, method: string): Promise<number> {
  const notification = method.startsWith('notifications/');
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', method, ...(notification ? {} : { id: 2 }) }),
  });
  await res.text();
  return res.status;
}

const status = (e: unknown) => (e instanceof StreamableHTTPError ? e.code : e);

describe('serve --http sessions', () => {
  it('expires an idle session: its id gets 404, its pins and found tools are released, a new initialize works', async () => {
    // Long enough that a loaded machine never lets it lapse between the calls below; the poll waits it out.
    running = await start({ sessionIdleMs: 1500 });
    const a = await connect(running.url);
    const sid = a.transport.sessionId!;
    expect(sid).toBeTruthy();
    await a.client.callTool({ name: 'search_tools', arguments: { query: 'repeat text echo' } });
    expect((await a.client.listTools()).tools.map((t) => t.name)).toContain('echo_text');
    const r = await a.client.callTool({ name: 'echo_text', arguments: { text: 'pinned' } });
    expect(r.structuredContent).toEqual({ echo: 'pinned' });
    expect(running.ended).toEqual([]);

    await expect.poll(() => running!.closed, { timeout: 20_000 }).toEqual([{ id: sid, reason: 'expired' }]);
    expect(running.ended).toHaveLength(1);
    expect(running.ended[0]).toMatch(/^mcp-/);

    const err = await a.client.listTools().then(
      () => 'no error',
      (e: unknown) => e,
    );
    expect(status(err)).toBe(404);
    expect(String((err as Error).message)).toMatch(/Session not found/);

    const b = await connect(running.url);
    expect(b.transport.sessionId).not.toBe(sid);
    expect((await b.client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    await b.client.close();
    await a.client.close().catch(() => undefined);
  });

  it('a session in use does not expire', async () => {
    // In use for twice the idle time, never idle for more than a third of it.
    running = await start({ sessionIdleMs: 1500 });
    const a = await connect(running.url);
    for (let i = 0; i < 6; i++) {
      await a.client.listTools();
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(running.closed).toEqual([]);
    await a.client.close();
  });

  it('DELETE from the client releases the session at once', async () => {
    running = await start({});
    const a = await connect(running.url);
    const sid = a.transport.sessionId!;
    await a.transport.terminateSession();
    expect(running.closed).toEqual([{ id: sid, reason: 'closed' }]);
    expect(running.ended).toHaveLength(1);
    await a.client.close();
  });

  it('caps the sessions: a new client evicts the least recently active one that is no longer live', async () => {
    running = await start({ maxSessions: 2, sessionLiveMs: 0 });
    // Clients without a GET stream (an open stream keeps a session live: never evicted).
    const a = await rawSession(running.url);
    const b = await rawSession(running.url);
    expect(await rawCall(running.url, a, 'tools/list')).toBe(200); // b is now the least recently active
    const c = await connect(running.url);
    expect(running.closed).toEqual([{ id: b, reason: 'evicted' }]);
    expect(await rawCall(running.url, b, 'tools/list')).toBe(404);
    expect(await rawCall(running.url, a, 'tools/list')).toBe(200);
    await c.client.listTools();
    // c holds a GET stream, a was just active: with the default live time neither can be evicted.
    await c.client.close();
  });

  it('never evicts a session with an open stream, however quiet', async () => {
    running = await start({ maxSessions: 1, sessionLiveMs: 0 });
    const a = await connect(running.url);
    await new Promise((r) => setTimeout(r, 100));
    expect(await rawSession(running.url).catch((e: unknown) => String(e))).toMatch(/503/);
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0);
    await a.client.close();
  });

  it('refuses a new session with 503 when every session is busy', async () => {
    running = await start({ maxSessions: 1 });
    const a = await connect(running.url);
    const slow = a.client.callTool({ name: 'call_tool', arguments: { id: 'slow_sleep', arguments: { seconds: 30 } } });
    await new Promise((r) => setTimeout(r, 200));
    const res = await fetch(running.url, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/Too many sessions/);
    await slow; // slow_sleep times out after 1 s
    expect(running.closed).toEqual([]);
    await a.client.close();
  });
});

describe('isLoopbackHost', () => {
  it('knows loopback from exposed addresses', () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) expect(isLoopbackHost(h)).toBe(false);
  });
});
