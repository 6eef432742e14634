// The MCP SDK's own client against `toolbox serve --http` (the real binary, ephemeral port).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { cli, grantInTests } from '../helpers.js';
import { errCode, httpServe, serveProject } from './fixtures.js';

const proj = serveProject();
afterAll(() => proj.cleanup());

async function connect(url: string, headers: Record<string, string>) {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe('toolbox serve --http (search)', () => {
  let srv: Awaited<ReturnType<typeof httpServe>>;
  beforeAll(async () => {
    srv = await httpServe(proj.registry);
  });
  afterAll(async () => {
    srv.child.kill('SIGTERM');
    await srv.exited;
  });

  it('listens on 127.0.0.1 and prints one JSON document with its URL', async () => {
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await expect.poll(() => srv.stderr()).toMatch(/listening on/);
    expect(srv.stderr()).not.toMatch(/WARNING|NO AUTHENTICATION/);
  });

  it('search_tools → list_changed → direct call, with found tools kept per session', async () => {
    const a = await connect(srv.url, srv.headers);
    const b = await connect(srv.url, srv.headers);
    let changed = 0;
    a.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    const found = await a.callTool({ name: 'search_tools', arguments: { query: 'repeat text echo' } });
    expect((found.structuredContent as { tools: { name: string }[] }).tools[0]!.name).toBe('echo_text');
    expect((await a.listTools()).tools.map((t) => t.name)).toContain('echo_text');
    await expect.poll(() => changed).toBeGreaterThan(0);
    expect((await b.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    const r = await a.callTool({ name: 'echo_text', arguments: { text: 'over http' } });
    expect(r.structuredContent).toEqual({ echo: 'over http' });
    const bad = await b.callTool({ name: 'call_tool', arguments: { id: 'add_numbers', arguments: { a: 'one' } } });
    expect(errCode(bad)).toBe('invalid_arguments');
    await a.close();
    await b.close();
  });

  it('rejects a request whose Host header is not loopback (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const u = new URL(srv.url);
    const status = await new Promise<number>((res, rej) => {
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: {
            ...srv.headers,
            host: 'evil.example:80',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (r) => {
          r.resume();
          res(r.statusCode!);
        },
      );
      req.on('error', rej);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      );
    });
    expect(status).toBe(403);
  });
});

describe('toolbox serve --http --host 0.0.0.0', () => {
  it('needs --token-env; then warns less loudly and lets in only clients with the token', async () => {
    await expect(httpServe(proj.registry, ['--host', '0.0.0.0'])).rejects.toThrow(/serve exited 2/);
    const token = 'serve-test-token-0123456789abcdef';
    const srv = await httpServe(proj.registry, ['--host', '0.0.0.0', '--token-env', 'TBX_TOKEN'], { TBX_TOKEN: token });
    try {
      expect(srv.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
      await expect.poll(() => srv.stderr()).toMatch(/listening on/);
      expect(srv.stderr()).not.toMatch(/NO AUTHENTICATION/);
      const url = new URL(srv.url.replace('0.0.0.0', '127.0.0.1'));
      const anon = new Client({ name: 'anon', version: '1.0.0' });
      await expect(anon.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(/401|Unauthorized/);
      const c = new Client({ name: 'exposed', version: '1.0.0' });
      await c.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
      await c.close();
    } finally {
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  });
});

describe('toolbox serve --http --expose all', () => {
  it('serves every tool, answers 20 parallel calls (one hung) each once, and import mcp --url reads it back', async () => {
    const srv = await httpServe(proj.registry, ['--expose', 'all']);
    try {
      const c = await connect(srv.url, srv.headers);
      const names = (await c.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual(['add_numbers', 'echo_text', 'list_data_files', 'slow_sleep']);
      const calls = Array.from({ length: 20 }, (_, i) =>
        i === 7
          ? c.callTool({ name: 'slow_sleep', arguments: { seconds: 30 } })
          : c.callTool({ name: 'add_numbers', arguments: { a: i, b: 1000 } }),
      );
      const results = await Promise.all(calls);
      results.forEach((r, i) => {
        if (i === 7) expect(errCode(r)).toBe('tool_timeout');
        else expect(r.structuredContent).toEqual({ sum: i + 1000 });
      });
      await c.close();

      // toolbox consuming toolbox: the served tools imported as mcp contracts of another registry.
      const other = serveProject();
      try {
        const env = { TBX_TOKEN: srv.token! };
        const auth = ['--header', 'Authorization: Bearer ${TBX_TOKEN}'];
        const imp = await cli(['import', 'mcp', '--json', '--prefix', 'remote_', '--url', srv.url, ...auth], {
          cwd: other.dir,
          env,
        });
        expect(imp.code).toBe(0);
        const ids = (imp.json.tools as { id: string }[]).map((t) => t.id).sort();
        expect(ids).toEqual(['remote_add_numbers', 'remote_echo_text', 'remote_list_data_files', 'remote_slow_sleep']);
        const file = (imp.json.tools as { id: string; file: string }[]).find(
          (t) => t.id === 'remote_add_numbers',
        )!.file;
        expect((parse(readFileSync(file, 'utf8')) as { loader_config: unknown }).loader_config).toEqual({
          url: srv.url,
          headers: { Authorization: 'Bearer ${TBX_TOKEN}' },
          tool: 'add_numbers',
        });
        // The token goes over the network: the user grants it to the imported tools (issue 23 item 7),
        // and the served registry is on the host's loopback, which only the user's grant opens (issue 33).
        grantInTests(other.dir, { env: ['TBX_TOKEN'], network: ['127.0.0.1'] });
        const run = await cli(['run', 'remote_add_numbers', '--a', '2', '--b', '3', '--json'], { cwd: other.dir, env });
        expect(run.code).toBe(0);
        expect(run.json.result).toEqual({ sum: 5 });
      } finally {
        other.cleanup();
      }
    } finally {
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  });
});
