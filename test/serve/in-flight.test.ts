// Calls in flight when their request, their session or the server goes away: the real `toolbox serve`
// binary, over raw HTTP (what any client does on the wire) and stdio.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers.js';
import { httpServe, modernPost, serveProject } from './fixtures.js';

const proj = serveProject();
proj.write(
  'serve_tools/napping.py',
  'import time\n\ndef nap(seconds):\n    time.sleep(seconds)\n    return {"slept": seconds}\n',
);
proj.write(
  'tool_registry/nap.yaml',
  `id: nap
name: nap
description: Sleeps, then answers. Use to test long calls.
schema: { type: object, properties: { seconds: { type: number } }, required: [seconds] }
loader: python_function
loader_config: { module: serve_tools.napping, function: nap }
timeout: 60
`,
);
afterAll(() => proj.cleanup());
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };

/** The outcomes the call log has for `nap`, in order. */
const naps = () => {
  const f = join(proj.dir, '.toolbox', 'calls.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { tool: string; outcome: string })
    .filter((c) => c.tool === 'nap')
    .map((c) => c.outcome);
};

/** A 2025-11-25 session by hand: initialize, initialized; returns its id. */
async function session(url: string, headers: Record<string, string>): Promise<string> {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers };
  const init = await fetch(url, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await init.text();
  const sid = init.headers.get('mcp-session-id')!;
  await fetch(url, {
    method: 'POST',
    headers: { ...h, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return sid;
}

/** A 2025 tools/call of nap on a session; resolves with the JSON-RPC message that answers it. */
function legacyCall(url: string, headers: Record<string, string>, sid: string, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'nap', arguments: { seconds: 20 } },
    }),
  }).then(async (r) => {
    const text = await r.text();
    const data = text.split('\n').find((l) => l.startsWith('data:') && l.includes('"id":7'));
    return JSON.parse(data ? data.slice(5) : text) as { result?: { isError?: boolean }; error?: { code: number } };
  });
}

describe('a call whose HTTP request is dropped is cancelled', () => {
  for (const era of ['2025-11-25', '2026-07-28']) {
    it(`${era}: the tool is stopped at once, not left to run`, async () => {
      const s = await httpServe(proj.registry);
      try {
        const before = naps().length;
        const ac = new AbortController();
        const call =
          era === '2026-07-28'
            ? modernPost(
                s.url,
                'tools/call',
                { name: 'nap', arguments: { seconds: 20 } },
                { headers: s.headers, signal: ac.signal },
              )
            : legacyCall(s.url, s.headers, await session(s.url, s.headers), ac.signal);
        void call.catch(() => undefined);
        // Let the call start, then drop the connection (no notifications/cancelled: the wire just closes).
        await new Promise((r) => setTimeout(r, 1500));
        ac.abort();
        await expect.poll(() => naps().slice(before), { timeout: 8000 }).toEqual(['cancelled']);
      } finally {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    });
  }
});

describe('calls in flight get an answer when their session or the server ends', () => {
  it('2025-11-25: a session ended with DELETE answers its call in flight at once', async () => {
    const s = await httpServe(proj.registry);
    try {
      const sid = await session(s.url, s.headers);
      const t0 = Date.now();
      const call = legacyCall(s.url, s.headers, sid);
      await new Promise((r) => setTimeout(r, 1500));
      const del = await fetch(s.url, { method: 'DELETE', headers: { ...s.headers, 'mcp-session-id': sid } });
      expect(del.status).toBeLessThan(300);
      const answer = await call;
      expect(Date.now() - t0).toBeLessThan(10_000); // not the tool's 20 s, nor a client timeout
      expect(answer.result?.isError).toBe(true);
      expect(JSON.stringify(answer)).toContain('session_closed');
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  it('HTTP: stopping the server answers the calls in flight of both revisions before it closes', async () => {
    const s = await httpServe(proj.registry);
    const sid = await session(s.url, s.headers);
    const t0 = Date.now();
    const old = legacyCall(s.url, s.headers, sid);
    const now = modernPost(s.url, 'tools/call', { name: 'nap', arguments: { seconds: 20 } }, { headers: s.headers });
    await new Promise((r) => setTimeout(r, 1500));
    s.child.kill('SIGINT'); // stop now (SIGTERM drains: test/scale/)
    const [a, b] = await Promise.all([old, now]);
    expect(await s.exited).toBe(130); // interrupted, as documented
    expect(Date.now() - t0).toBeLessThan(10_000);
    for (const r of [a, b.final!]) expect(r.error?.code ?? (r.result?.isError ? 'isError' : undefined)).toBeDefined();
    // Each of them, the 2026-07-28 call too (it was answered 'cancelled' before: issue 36.6).
    expect(JSON.stringify(a)).toContain('server_stopping');
    expect(JSON.stringify(b.final)).toContain('server_stopping');
    expect(JSON.stringify(b.final)).not.toContain('"cancelled"');
  });

  it('stdio: stopping the server answers the call in flight before it exits', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--registry', proj.registry, '--expose', 'all'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    const send = (m: object) => child.stdin.write(JSON.stringify(m) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await expect.poll(() => out.includes('"id":1')).toBe(true);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nap', arguments: { seconds: 20 } } });
    await new Promise((r) => setTimeout(r, 1500));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(130); // interrupted, as documented
    const answer = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number })
      .find((m) => m.id === 2);
    expect(JSON.stringify(answer)).toContain('server_stopping');
  });
});
