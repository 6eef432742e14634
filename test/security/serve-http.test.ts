// Item 7: `serve --http` survives slow and abusive clients (real server on loopback, real sockets).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { spawnCli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

const TOKEN = 'a-long-random-test-token-0123456789';
const p = project({ 'tool_registry/echo.yaml': contract('echo', 'command', '{ argv: [/bin/echo, "{{x}}"] }') });
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function start(token = TOKEN) {
  const core = new ServeCore(resolveProject({ cwd: p.dir }), { expose: 'all', caller: {}, maxSessions: 4 });
  const ac = new AbortController();
  let ready: (u: string) => void = () => undefined;
  const listening = new Promise<string>((r) => (ready = r));
  const done = serveHttp(core, {
    port: 0,
    host: '127.0.0.1',
    signal: ac.signal,
    token,
    limits: { bodyTimeoutMs: 1500, maxPerClient: 12 },
    onListening: (u) => ready(u),
  });
  const url = await listening;
  return {
    url,
    stop: async () => {
      ac.abort();
      await done;
      await core.close();
    },
  };
}
const AUTH = { authorization: `Bearer ${TOKEN}` };
const client = async (url: string, headers: Record<string, string> = AUTH) => {
  const c = new Client({ name: 'c', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
};
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: INIT,
  });

let srv: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  srv = await start();
});
afterAll(async () => {
  await srv.stop();
  p.cleanup();
});

describe('item 7: serve --http', () => {
  it('slow-body POSTs neither evict a live session nor lock out new clients', async () => {
    expect(expected('serve-slow-body-flood', 'none')).toBe('blocked');
    const victim = await client(srv.url);
    const { port } = new URL(srv.url);
    const slow: Socket[] = [];
    const statuses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const s = connect(Number(port), '127.0.0.1');
      s.on('data', (d) => statuses.push(String(d).split(' ')[1] ?? '?'));
      s.on('error', () => undefined);
      s.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nauthorization: Bearer ${TOKEN}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${INIT.length}\r\n\r\n{`,
      );
      slow.push(s);
    }
    await new Promise((r) => setTimeout(r, 300));
    // 4 session slots, 20 half-sent initialize requests: a new client still gets in, the victim still works.
    const newcomer = await client(srv.url);
    expect((await newcomer.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
    expect((await victim.callTool({ name: 'echo', arguments: { x: 'still here' } })).isError).toBeFalsy();
    // Each half-sent request ends with 408 once the body time limit passes.
    await expect.poll(() => statuses.length, { timeout: 5000 }).toBe(20);
    expect(new Set(statuses)).toEqual(new Set(['408']));
    for (const s of slow) s.destroy();
    await victim.close();
    await newcomer.close();
  });

  it('refuses a foreign Origin with 403 and accepts its own', async () => {
    expect(expected('serve-foreign-origin', 'none')).toBe('refused');
    expect((await post(srv.url, { origin: 'https://evil.example' })).status).toBe(403);
    const own = await post(srv.url, { origin: new URL(srv.url).origin });
    expect(own.status).toBe(200);
  });

  it('with a token, a request without it gets 401 and one with it works', async () => {
    expect(expected('serve-no-token', 'none')).toBe('refused');
    const t = await start(TOKEN);
    try {
      expect((await post(t.url, { authorization: '' })).status).toBe(401);
      expect((await post(t.url, { authorization: 'Bearer wrong-token' })).status).toBe(401);
      const c = await client(t.url, { authorization: `Bearer ${TOKEN}` });
      expect((await c.listTools()).tools).toHaveLength(1);
      await c.close();
    } finally {
      await t.stop();
    }
  });

  it('refuses to bind a non-loopback address without a token (exit 2)', async () => {
    expect(expected('serve-exposed-bind', 'none')).toBe('refused');
    const r = await spawnCli(['serve', '--http', '0', '--host', '0.0.0.0', '--json'], { cwd: p.dir, timeout: 20_000 });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code).toBe('serve_needs_token');
  });
});
