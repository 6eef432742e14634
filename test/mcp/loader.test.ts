// The mcp loader against real reference servers from npm, started by the tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loader } from '../../src/loaders/mcp.js';
import { openSessionCount } from '../../src/mcp/pool.js';
import { ToolboxError } from '../../src/errors.js';
import { isToolRunError } from '../../src/sandbox/tool-run-error.js';
import { probeSandbox } from '../../src/sandbox/index.js';
import { EgressProxy } from '../../src/sandbox/egress/index.js';
import { EVERYTHING, FILESYSTEM, callCtx, entry, everythingHttp, mcpProject } from './fixtures.js';

// Tool names change between server-everything versions: find them by what they do.
const names: Record<string, string> = {};
const env = mcpProject();
const project = env.project;

beforeAll(async () => {
  const c = new Client({ name: 'names', version: '1' });
  await c.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  const all = (await c.listTools()).tools.map((t) => t.name);
  await c.close();
  const find = (re: RegExp) => {
    const n = all.find((x) => re.test(x));
    if (!n) throw new Error(`no tool like ${re} in ${all.join(', ')}`);
    return n;
  };
  names.echo = find(/^echo$/);
  names.sum = find(/sum|add/);
  names.long = find(/long/);
  names.structured = find(/structured/);
  names.env = find(/env/);
});
afterAll(() => env.cleanup());

const load = (id: string, cfg: Record<string, unknown>, longRunning = false, extra = {}) =>
  loader.load({ project, entry: entry(id, cfg, extra), longRunning, verbose: false });

describe('mcp loader over stdio (server-everything)', () => {
  it('calls a tool and returns its text content; the server is gone after a one-shot call', async () => {
    const t = await load('ev_echo', {
      command: 'node_modules/.bin/mcp-server-everything',
      args: ['stdio'],
      tool: names.echo,
    });
    const out = await t.call({ message: 'hello toolbox' }, callCtx());
    expect(out.result).toContain('hello toolbox');
    expect(openSessionCount()).toBe(0);
  });

  it('returns structuredContent when the server sends it', async () => {
    const t = await load('ev_struct', { command: EVERYTHING, args: ['stdio'], tool: names.structured });
    const out = await t.call({ location: 'New York' }, callCtx());
    expect(typeof out.result).toBe('object');
    expect(out.result).not.toBeNull();
  });

  it('turns isError results into a failed ToolRunError', async () => {
    const t = await load('ev_sum', { command: EVERYTHING, args: ['stdio'], tool: names.sum });
    const err = await t.call({ a: 'not a number', b: 2 }, callCtx()).catch((e: unknown) => e);
    expect(isToolRunError(err)).toBe(true);
    expect((err as { kind: string }).kind).toBe('failed');
  });

  it('shares one server between tools and calls in a long-running process, and dispose closes it', async () => {
    const cfg = { command: EVERYTHING, args: ['stdio'] };
    const a = await load('a', { ...cfg, tool: names.echo }, true);
    const b = await load('b', { ...cfg, tool: names.sum }, true);
    const results = await Promise.all([
      a.call({ message: 'one' }, callCtx()),
      b.call({ a: 2, b: 3 }, callCtx()),
      a.call({ message: 'two' }, callCtx()),
    ]);
    expect(String(results[1]!.result)).toContain('5');
    expect(openSessionCount()).toBe(1);
    await a.dispose!();
    expect(openSessionCount()).toBe(1);
    await b.dispose!();
    expect(openSessionCount()).toBe(0);
  });

  it('stops a call at the contract timeout with a timeout limit', async () => {
    const t = await load('ev_long', { command: EVERYTHING, args: ['stdio'], tool: names.long });
    const err = await t.call({ duration: 30, steps: 3 }, callCtx({ timeoutMs: 1500 })).catch((e: unknown) => e);
    expect(isToolRunError(err)).toBe(true);
    expect((err as { kind: string; limit: string }).limit).toBe('timeout');
  });

  it('starts the server inside the sandbox: it sees none of the host environment', async () => {
    process.env.TOOLBOX_TEST_SECRET = 'host-secret-value';
    try {
      const t = await load('ev_env', {
        command: EVERYTHING,
        args: ['stdio'],
        tool: names.env,
        env: { GIVEN: 'by-contract' },
      });
      const out = await t.call({}, callCtx());
      const text = JSON.stringify(out.result);
      expect(text).not.toContain('host-secret-value');
      expect(text).toContain('by-contract');
      expect(out.tier).toBe((await probeSandbox()).tier);
    } finally {
      delete process.env.TOOLBOX_TEST_SECRET;
    }
  });

  it('reports a missing server command as a missing dependency (exit 6)', async () => {
    const t = await load('nope', { command: 'node_modules/.bin/no-such-server', tool: 'x' });
    const err = await t.call({}, callCtx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolboxError);
    expect((err as ToolboxError).exitCode).toBe(6);
  });
});

describe('mcp loader over stdio (server-filesystem on a temp folder)', () => {
  it('reads a file through the server, with the folder bound read-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolbox-fs-'));
    try {
      writeFileSync(join(dir, 'note.txt'), 'first line\nsecond line\n');
      const t = await load('fs_read', { command: FILESYSTEM, args: [dir], tool: 'read_text_file' });
      const out = await t.call({ path: join(dir, 'note.txt') }, callCtx({ readOnlyPaths: [dir] }));
      expect(JSON.stringify(out.result)).toContain('second line');
      const denied = await t
        .call({ path: '/etc/hostname' }, callCtx({ readOnlyPaths: [dir] }))
        .catch((e: unknown) => e);
      expect(isToolRunError(denied)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mcp loader over Streamable HTTP', () => {
  it('refuses a URL when the contract keeps the network closed', async () => {
    const t = await load('remote', { url: 'http://127.0.0.1:9/mcp', tool: 'echo' });
    const err = await t.call({ message: 'x' }, callCtx()).catch((e: unknown) => e);
    expect((err as ToolboxError).code).toBe('network_closed');
  });

  it('calls a tool on server-everything over HTTP when the network is open (through the egress proxy, loopback granted)', async () => {
    const srv = await everythingHttp();
    const proxy = new EgressProxy();
    try {
      // The server is on the host's loopback: only the user's grant opens it (issue 33).
      const listener = await proxy.lease({ tool: 'remote', hosts: true, grants: ['127.0.0.1'] });
      const egress = { socket: listener.socket, listener, mark: listener.total };
      const t = await load('remote', { url: srv.url, tool: names.echo }, true);
      const out = await t.call({ message: 'over http' }, callCtx({ network: true, egress }));
      expect(out.result).toContain('over http');
      expect(proxy.stats.dials).toBeGreaterThan(0);
      await t.dispose!();
    } finally {
      await proxy.close();
      await srv.stop();
    }
  });

  it("hostile: a contract naming an MCP server on the host's loopback, without the user's grant, is refused by the proxy", async () => {
    const srv = await everythingHttp();
    const proxy = new EgressProxy();
    try {
      const listener = await proxy.lease({ tool: 'remote2', hosts: true, grants: [] });
      const egress = { socket: listener.socket, listener, mark: listener.total };
      const t = await load('remote2', { url: srv.url, tool: names.echo }, true);
      const err = await t.call({ message: 'x' }, callCtx({ network: true, egress })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(listener.since(egress.mark).map((r) => r.addressClass)).toContain('loopback');
      expect(proxy.stats.dials).toBe(0);
      await t.dispose!();
    } finally {
      await proxy.close();
      await srv.stop();
    }
  });
});
