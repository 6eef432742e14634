// Resumable SSE streams for 2025-11-25 sessions of `toolbox serve --http` (SEP-1699, the conformance
// scenario server-sse-polling): a POST answered with an SSE stream opens with a priming event (an id,
// `retry:` and empty data), and GET with that id as Last-Event-ID replays what the stream carried after
// it. A 2025-06-18 session, which cannot take an empty-data event, gets no priming event.
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { SSE_RETRY_MS, SessionEventStore } from '../../src/serve/event-store.js';
import { serveProject } from './fixtures.js';

const proj = serveProject();
const TOKEN = 'sse-resume-test-token-0123456789abcdef';
const HEADERS = {
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

const project = resolveProject({ cwd: proj.dir, registry: proj.registry });
const core = new ServeCore(project, {
  expose: 'search',
  caller: {},
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
});
const ac = new AbortController();
let done: Promise<void> | undefined;
const listening = new Promise<string>((res, rej) => {
  done = serveHttp(core, { port: 0, host: '127.0.0.1', token: TOKEN, signal: ac.signal, onListening: res });
  done.catch(rej);
});
afterAll(async () => {
  ac.abort();
  await done;
  await core.close();
  proj.cleanup();
});

async function session(url: string, version: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await res.text();
  expect(res.status).toBe(200);
  const sid = res.headers.get('mcp-session-id')!;
  const ok = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': version },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await ok.text();
  return sid;
}

const listTools = (url: string, sid: string, version: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': version },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
  });

/** Read an SSE body until `until` matches what came so far (or it ends), then stop reading. */
async function readUntil(res: Response, until: RegExp): Promise<string> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    text += dec.decode(value, { stream: true });
    if (until.test(text)) break;
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

describe('SSE priming and resumption (2025-11-25 sessions)', () => {
  it('a POST stream opens with a priming event: an id, retry and empty data', async () => {
    const url = await listening;
    const sid = await session(url, '2025-11-25');
    const res = await listTools(url, sid, '2025-11-25');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toMatch(new RegExp(`^id: \\S+\\nretry: ${SSE_RETRY_MS}\\ndata: \\n\\n`));
    expect(text).toContain('"id":7');
  });

  it('GET with the priming id as Last-Event-ID replays what the stream carried after it', async () => {
    const url = await listening;
    const sid = await session(url, '2025-11-25');
    const text = await (await listTools(url, sid, '2025-11-25')).text();
    const primingId = /^id: (\S+)\n/.exec(text)![1]!;
    const again = await fetch(url, {
      method: 'GET',
      headers: {
        authorization: HEADERS.authorization,
        accept: 'text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': primingId,
      },
    });
    expect(again.status).toBe(200);
    const replayed = await readUntil(again, /"id":7/);
    expect(replayed).toContain('"id":7');
    expect(replayed).toContain('"tools"');
    // An id this session never gave is refused, not answered with an empty stream.
    const bad = await fetch(url, {
      method: 'GET',
      headers: {
        authorization: HEADERS.authorization,
        accept: 'text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': 'forged.1',
      },
    });
    expect(bad.status).toBe(400);
    await bad.text();
  });

  it('a 2025-06-18 session gets no priming event (it cannot take empty data)', async () => {
    const url = await listening;
    const sid = await session(url, '2025-06-18');
    const text = await (await listTools(url, sid, '2025-06-18')).text();
    expect(text).not.toMatch(/^id: /);
    expect(text).toContain('"id":7');
  });
});

describe('the session event store is bounded', () => {
  it('keeps the newest events within its count and byte limits; an expired id cannot be resumed', async () => {
    const store = new SessionEventStore(3, 1_000_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await store.storeEvent('s', { jsonrpc: '2.0', method: 'notifications/message', params: { i } }));
    expect(store.size).toBe(3);
    await expect(store.replayEventsAfter(ids[0]!, { send: async () => {} })).rejects.toThrow(/Last-Event-ID/);
    const sent: unknown[] = [];
    await store.replayEventsAfter(ids[2]!, { send: async (_id, m) => void sent.push(m) });
    expect(sent).toHaveLength(2);
    const small = new SessionEventStore(100, 200);
    for (let i = 0; i < 10; i++)
      await small.storeEvent('s', { jsonrpc: '2.0', method: 'notifications/message', params: { pad: 'x'.repeat(50) } });
    expect(small.size).toBeLessThan(10);
  });
});
