// Issue 36 item 3: errors as the specification says. A body that is not JSON is -32700; a malformed
// parameter is HTTP 400 with -32602 and a message in words, on both revisions, never a validator's
// dump. The real HTTP server, raw requests (what any client can send).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { readableIssues } from '../../src/serve/param-errors.js';
import { modernPost, serveProject } from './fixtures.js';

const TOKEN = 'param-errors-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const proj = serveProject();
afterAll(() => proj.cleanup());
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(): Promise<string> {
  const core = new ServeCore(resolveProject({ cwd: proj.dir, registry: proj.registry }), { expose: 'all', caller: {} });
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, { port: 0, host: '127.0.0.1', token: TOKEN, signal: ac.signal, onListening: res });
    done.catch(rej);
  });
  stop = async () => {
    ac.abort();
    await done;
    await core.close();
  };
  return url;
}

const HEADERS = { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** No validator dump: no JSON array of issues, no zod field names. */
const readable = (m: string) => expect(m).not.toMatch(/\[\s*\{|"code"|invalid_type|"expected"/);

describe('a body that is not JSON', () => {
  it('is -32700 (Parse error) with HTTP 400', async () => {
    const url = await start();
    for (const body of ['{not json', '', '[1,']) {
      const r = await fetch(url, { method: 'POST', headers: HEADERS, body });
      expect(r.status).toBe(400);
      const j = (await r.json()) as { id: null; error: { code: number; message: string } };
      expect(j.error.code).toBe(-32700);
      expect(j.id).toBeNull();
    }
  });
});

describe('a malformed parameter is 400 with words', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['tools/call', { name: 'echo_text', arguments: [1, 2] }, /params\.arguments" must be an object, not an array/],
    ['tools/call', { name: 'echo_text', arguments: 'x' }, /params\.arguments" must be an object, not a string/],
    ['tools/call', { name: 5 }, /params\.name" must be a string, not a number/],
    ['tools/call', {}, /params\.name" is missing/],
    ['tools/list', { cursor: 5 }, /params\.cursor" must be a string/],
    ['resources/read', {}, /params\.uri" is missing/],
  ];
  it('2026-07-28: each one, under its request id', async () => {
    const url = await start();
    for (const [method, params, says] of cases) {
      const r = await modernPost(url, method, params, { headers: AUTH, id: 77 });
      expect(r.status, `${method} ${JSON.stringify(params)}`).toBe(400);
      expect(r.final?.id).toBe(77);
      expect(r.final?.error?.code).toBe(-32602);
      expect(r.final?.error?.message).toMatch(says);
      readable(r.final!.error.message as string);
    }
  });

  it('2025-11-25: the same on a session', async () => {
    const url = await start();
    const init = await fetch(url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    await init.text();
    const sid = init.headers.get('mcp-session-id')!;
    const r = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'echo_text', arguments: [1, 2] },
      }),
    });
    expect(r.status).toBe(400);
    const j = (await r.json()) as { id: number; error: { code: number; message: string } };
    expect(j).toMatchObject({ id: 9, error: { code: -32602 } });
    readable(j.error.message);
  });

  it("what the SDK's own validation still refuses is put in words too", () => {
    const dump = `Invalid tools/call request: ${JSON.stringify(
      [
        {
          expected: 'record',
          code: 'invalid_type',
          path: ['params', 'arguments'],
          message: 'Invalid input: expected record, received array',
        },
      ],
      null,
      2,
    )}`;
    const words = readableIssues(dump)!;
    expect(words).toBe('Invalid tools/call request: params.arguments: Invalid input: expected record, received array');
    readable(words);
    expect(readableIssues('Unknown tool: x')).toBeUndefined();
  });
});
