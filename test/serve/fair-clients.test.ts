// Issue 36 item 1: many stateless clients on one host are told apart and all served; a client that
// floods waits behind its own requests; 2025 sessions whose clients went away are reclaimed. Real
// SDK clients (v2 stateless, v1 sessions) against the real HTTP server and sandboxed Python tools.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolveProject } from '../../src/config.js';
import { ServeCore, type ServeOptions } from '../../src/serve/core.js';
import { serveHttp, type HttpOptions } from '../../src/serve/http.js';
import { serveProject } from './fixtures.js';

const TOKEN = 'fair-clients-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const proj = serveProject();
proj.write(
  'serve_tools/nap.py',
  'import time\n\ndef nap(seconds):\n    time.sleep(seconds)\n    return {"slept": seconds}\n',
);
proj.write(
  'tool_registry/nap.yaml',
  `id: nap
name: nap
description: Sleeps, then answers. Use to test long calls.
schema: { type: object, properties: { seconds: { type: number } }, required: [seconds] }
loader: python_function
loader_config: { module: serve_tools.nap, function: nap }
timeout: 60
`,
);
afterAll(() => proj.cleanup());

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(opts: Partial<ServeOptions> = {}, http: Partial<HttpOptions> = {}): Promise<string> {
  const core = new ServeCore(resolveProject({ cwd: proj.dir, registry: proj.registry }), {
    expose: 'all',
    caller: {},
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    ...opts,
  });
  await core.start();
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, { port: 0, host: '127.0.0.1', token: TOKEN, signal: ac.signal, onListening: res, ...http });
    done.catch(rej);
  });
  stop = async () => {
    ac.abort();
    await done;
    await core.close();
  };
  return url;
}

/** An SDK v2 client that stays on 2026-07-28 (stateless): every call its own request. */
async function statelessClient(url: string, name: string) {
  const client = new ClientV2({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new TransportV2(new URL(url), { requestInit: { headers: AUTH } }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

/** `clients` stateless clients, each making `calls` calls in turn, all at once; the failures. */
async function crowd(url: string, clients: number, calls: number, name: (i: number) => string) {
  const failures: string[] = [];
  let ok = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const client = await statelessClient(url, name(i));
      try {
        for (let j = 0; j < calls; j++) {
          try {
            const r = await client.callTool({ name: 'echo_text', arguments: { text: `${i}.${j}` } });
            if (r.isError || (r.structuredContent as { echo?: string }).echo !== `${i}.${j}`)
              failures.push(JSON.stringify(r).slice(0, 200));
            else ok++;
          } catch (e) {
            failures.push(String(e).slice(0, 200));
          }
        }
      } finally {
        await client.close();
      }
    }),
  );
  return { ok, failures };
}

describe('stateless clients on one host are each served', () => {
  it('50 SDK v2 clients × 20 calls through one server: no call fails', async () => {
    const url = await start();
    const r = await crowd(url, 50, 20, (i) => `agent-${i}`);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(1000);
  }, 180_000);

  it('50 clients of one app (the same clientInfo) wait their turn rather than being refused', async () => {
    const url = await start();
    const r = await crowd(url, 50, 4, () => 'same-app');
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(200);
  }, 120_000);
});

describe('a flooding client waits behind its own requests', () => {
  it('300 calls at once from one client: its excess gets 429 with Retry-After and its id; others are all served', async () => {
    const url = await start({ maxConcurrent: 8 }, { limits: { maxPerClient: 8, queueMs: 300 } });
    const ac = new AbortController();
    const answers: { i: number; status: number; id?: unknown; message?: string; retryAfter?: string | null }[] = [];
    const flood = Array.from({ length: 300 }, (_, i) =>
      fetch(url, {
        method: 'POST',
        signal: ac.signal,
        headers: {
          ...AUTH,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'nap',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 5000 + i,
          method: 'tools/call',
          params: {
            name: 'nap',
            arguments: { seconds: 30 },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'flood', version: '1' },
            },
          },
        }),
      }).then(
        async (r) => {
          const body = r.status === 429 ? ((await r.json()) as { id?: unknown; error?: { message: string } }) : {};
          answers.push({
            i,
            status: r.status,
            id: body.id,
            message: body.error?.message,
            retryAfter: r.headers.get('retry-after'),
          });
        },
        () => undefined,
      ),
    );
    try {
      // 8 in flight (30 s naps) and 8 waiting at most: every other request is refused, the waiting
      // ones after the short wait.
      await expect.poll(() => answers.length, { timeout: 30_000 }).toBe(292);
      for (const a of answers) {
        expect(a.status).toBe(429);
        expect(a.id).toBe(5000 + a.i);
        expect(a.retryAfter).toMatch(/^\d+$/);
        expect(a.message).toMatch(/Too many requests/);
      }
      // The flood is still in flight: other clients are served all the same.
      const others = await crowd(url, 10, 3, (i) => `honest-${i}`);
      expect(others.failures).toEqual([]);
      expect(others.ok).toBe(30);
    } finally {
      ac.abort();
      await Promise.all(flood);
    }
  }, 90_000);
});

describe('2025-11-25 sessions whose clients went away are reclaimed', () => {
  it('100 short-lived SDK clients that close without DELETE do not lock out the next one', async () => {
    const url = await start({ maxSessions: 20 });
    for (let i = 0; i < 100; i++) {
      const client = new Client({ name: `short-lived-${i}`, version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } });
      await client.connect(transport);
      const r = await client.callTool({ name: 'echo_text', arguments: { text: String(i) } });
      expect(r.isError).toBeFalsy();
      await client.close(); // the SDK's default: no DELETE
    }
    const late = new Client({ name: 'newcomer', version: '1' });
    await late.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } }));
    expect((await late.callTool({ name: 'echo_text', arguments: { text: 'in' } })).isError).toBeFalsy();
    await late.close();
  }, 180_000);
});
