// The MCP SDK's own client against the real `toolbox serve` binary over stdio.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { descendants, errCode, processesMentioning, running, serveProject, stdioClient } from './fixtures.js';

const proj = serveProject();
afterAll(() => proj.cleanup());

describe('toolbox serve --expose search (stdio)', () => {
  let c: Awaited<ReturnType<typeof stdioClient>>;
  let changed = 0;
  beforeAll(async () => {
    c = await stdioClient(proj.registry);
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
  });
  afterAll(async () => {
    await c.client.close();
  });

  it('lists only search_tools and call_tool, however many tools the registry has', async () => {
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['search_tools', 'call_tool']);
  });

  it('search_tools returns full definitions, announces list_changed, and found tools become callable', async () => {
    const r = await c.client.callTool({ name: 'search_tools', arguments: { query: 'add two numbers sum', top: 2 } });
    expect(r.isError).toBeFalsy();
    const tools = (
      r.structuredContent as { tools: { name: string; description: string; inputSchema: { type: string } }[] }
    ).tools;
    expect(tools[0]!.name).toBe('add_numbers');
    expect(tools[0]!.inputSchema.type).toBe('object');
    expect(tools[0]!.description).toMatch(/sum/);
    await expect.poll(() => changed).toBeGreaterThan(0);
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('add_numbers');
    const sum = await c.client.callTool({ name: 'add_numbers', arguments: { a: 2, b: 40 } });
    expect(sum.isError).toBeFalsy();
    expect(sum.structuredContent).toEqual({ sum: 42 });
  });

  it('call_tool calls a tool that was never found, still validating its arguments', async () => {
    const ok = await c.client.callTool({
      name: 'call_tool',
      arguments: { id: 'echo_text', arguments: { text: 'hi there' } },
    });
    expect(ok.isError).toBeFalsy();
    expect(JSON.stringify(ok.content)).toContain('hi there');
    const bad = await c.client.callTool({
      name: 'call_tool',
      arguments: { id: 'echo_text', arguments: { text: 5, extra: true } },
    });
    expect(bad.isError).toBe(true);
    expect(errCode(bad)).toBe('invalid_arguments');
  });

  it('permission denial and unknown ids given to call_tool are isError results; an unknown tool name is a protocol error', async () => {
    const denied = await c.client.callTool({
      name: 'call_tool',
      arguments: { id: 'admin_secret', arguments: { text: 'x' } },
    });
    expect(denied.isError).toBe(true);
    expect(errCode(denied)).toBe('permission_denied');
    const direct = await c.client.callTool({ name: 'admin_secret', arguments: { text: 'x' } });
    expect(errCode(direct)).toBe('permission_denied');
    const unknown = await c.client.callTool({ name: 'call_tool', arguments: { id: 'ech_text', arguments: {} } });
    expect(errCode(unknown)).toBe('unknown_tool');
    // Called by a name the registry does not have, the call itself is wrong: a protocol error (MCP:
    // "Unknown tool", -32602), with the names it may have meant.
    const err = await c.client.callTool({ name: 'ech_text', arguments: {} }).catch((e: unknown) => e);
    expect((err as { code?: number }).code).toBe(-32602);
    expect(String((err as Error).message)).toMatch(/Unknown tool: ech_text.*echo_text/);
    const noId = await c.client.callTool({ name: 'call_tool', arguments: {} });
    expect(errCode(noId)).toBe('invalid_arguments');
  });

  it('search_tools never returns tools the caller may not use', async () => {
    const r = await c.client.callTool({ name: 'search_tools', arguments: { query: 'admin secret administrators' } });
    const names = (r.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).not.toContain('admin_secret');
  });

  it('a hung tool ends at its timeout as an isError result', async () => {
    const r = await c.client.callTool({
      name: 'call_tool',
      arguments: { id: 'slow_sleep', arguments: { seconds: 30 } },
    });
    expect(r.isError).toBe(true);
    expect(errCode(r)).toBe('tool_timeout');
  });
});

describe('toolbox serve --expose all (stdio)', () => {
  it('lists every tool the caller may use as a real tool, and --role opens restricted ones', async () => {
    const anon = await stdioClient(proj.registry, ['--expose', 'all']);
    const names = (await anon.client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['add_numbers', 'echo_text', 'list_data_files', 'slow_sleep']);
    const r = await anon.client.callTool({ name: 'echo_text', arguments: { text: 'all mode' } });
    expect(r.structuredContent).toEqual({ echo: 'all mode' });
    await anon.client.close();

    const admin = await stdioClient(proj.registry, ['--expose', 'all', '--role', 'admin']);
    expect((await admin.client.listTools()).tools.map((t) => t.name)).toContain('admin_secret');
    const s = await admin.client.callTool({ name: 'admin_secret', arguments: { text: 'ok' } });
    expect(s.isError).toBeFalsy();
    await admin.client.close();
  });
});

describe('toolbox serve shutdown', () => {
  it('stops every child it started (MCP servers, Python workers) when the client closes stdin', async () => {
    const marker = join(proj.dir, 'data');
    const c = await stdioClient(proj.registry, ['--expose', 'all']);
    const listed = await c.client.callTool({ name: 'list_data_files', arguments: { path: '.' } });
    expect(JSON.stringify(listed.content)).toContain('hello.txt');
    await c.client.callTool({ name: 'echo_text', arguments: { text: 'warm worker' } });
    const pid = c.transport.pid!;
    const kids = descendants(pid);
    // The filesystem server (found by its unique folder) and the Python worker are alive between calls.
    expect(processesMentioning(marker).length).toBeGreaterThan(0);
    expect(kids.some((k) => processesMentioning('python_runner').includes(k))).toBe(true);
    await c.client.close();
    await expect.poll(() => running(pid), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => kids.filter(running).length, { timeout: 10_000 }).toBe(0);
  });

  it('stops every child on SIGTERM', async () => {
    const c = await stdioClient(proj.registry, ['--expose', 'all']);
    await c.client.callTool({ name: 'echo_text', arguments: { text: 'warm worker' } });
    const pid = c.transport.pid!;
    const kids = descendants(pid);
    expect(kids.length).toBeGreaterThan(0);
    process.kill(pid, 'SIGTERM');
    await expect.poll(() => running(pid), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => kids.filter(running).length, { timeout: 10_000 }).toBe(0);
    await c.client.close();
  });
});
