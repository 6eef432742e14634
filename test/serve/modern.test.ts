// MCP 2026-07-28 through the real `toolbox serve`: the official v2 client (@modelcontextprotocol/client)
// in auto version negotiation over HTTP and stdio, and in its default (2025) mode, on one endpoint;
// plus the wire by hand where a client library would hide it (cache hints, order, headers, log levels).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN } from '../helpers.js';
import { httpServe, modernPost, serveProject } from './fixtures.js';

const proj = serveProject();
proj.write(
  'serve_tools/asking.py',
  `from toolbox_tool import elicit, log

def ask_name(greeting):
    log("info", "about to ask")
    answer = elicit("What is your name?", {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}, key="name")
    if answer.get("action") != "accept":
        return "%s, stranger." % greeting
    return "%s, %s!" % (greeting, answer["content"]["name"])
`,
);
proj.write(
  'tool_registry/ask_name.yaml',
  `id: ask_name
name: ask_name
description: Greets the user by name, asking for the name first. Use to greet someone.
schema:
  type: object
  properties:
    greeting: { type: string, description: the greeting word }
  required: [greeting]
loader: python_function
loader_config: { module: serve_tools.asking, function: ask_name }
`,
);
const servers: Awaited<ReturnType<typeof httpServe>>[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  proj.cleanup();
});
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
async function http(args: string[] = []) {
  const s = await httpServe(proj.registry, args);
  servers.push(s);
  return s;
}
/** Executions of a tool, from the call log (one line per run of the tool). */
const runs = (tool: string) => {
  const f = join(proj.dir, '.toolbox', 'calls.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { tool: string; outcome: string })
    .filter((c) => c.tool === tool);
};
/** A 2026-07-28 request by hand to a server started by httpServe (its bearer token added). */
const post = (
  s: { url: string; headers: Record<string, string> },
  method: string,
  params: Record<string, unknown> = {},
  o: Parameters<typeof modernPost>[3] = {},
) => modernPost(s.url, method, params, { ...o, headers: { ...s.headers, ...o.headers } });
const text = (r: { content?: unknown }) => (r.content as { type: string; text: string }[])[0]!.text;

function v2Client(auto: boolean) {
  const client = new Client(
    { name: 'v2-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, ...(auto ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ann' } }));
  return client;
}

describe('the official v2 client with version negotiation (auto)', () => {
  it('over HTTP: speaks 2026-07-28, finds a tool with search_tools and calls it directly and through call_tool', async () => {
    const s = await http();
    const client = v2Client(true);
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toEqual(['search_tools', 'call_tool']);
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'add two numbers', top: 2 } });
      const tools = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect(tools).toContain('add_numbers');
      // Stateless: what was found is not remembered, the list stays as it was...
      expect((await client.listTools({}, { cacheMode: 'bypass' } as never)).tools.map((t) => t.name)).toEqual(listed);
      // ...and the found tool is called by name, or through call_tool for clients that only call listed tools.
      const direct = await client.callTool({ name: 'add_numbers', arguments: { a: 2, b: 3 } });
      expect(direct.structuredContent).toEqual({ sum: 5 });
      const via = await client.callTool({
        name: 'call_tool',
        arguments: { id: 'add_numbers', arguments: { a: 1, b: 1 } },
      });
      expect(via.structuredContent).toEqual({ sum: 2 });
    } finally {
      await client.close();
    }
  });

  it('over HTTP: an unknown tool is a protocol error (-32602), a bad argument a tool error', async () => {
    const s = await http(['--expose', 'all']);
    const client = v2Client(true);
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } }));
    try {
      const err = await client.callTool({ name: 'add_numberz', arguments: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).code).toBe(-32602);
      expect((err as ProtocolError).message).toMatch(/Unknown tool: add_numberz.*add_numbers/);
      const bad = await client.callTool({ name: 'add_numbers', arguments: { a: 'x', b: 1 } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('over stdio: a tool asks the user; the question travels as an input-required result and the same call resumes', async () => {
    const before = runs('ask_name').length;
    const client = v2Client(true);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--registry', proj.registry, '--expose', 'all'],
        env,
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const r = await client.callTool({ name: 'ask_name', arguments: { greeting: 'Hello' } });
      expect(text(r)).toBe('Hello, Ann!');
    } finally {
      await client.close();
    }
    // Resumed, not run again: the call log holds one run of the tool for the two rounds.
    await expect.poll(() => runs('ask_name').length - before).toBe(1);
    expect(runs('ask_name').at(-1)!.outcome).toBe('ok');
  });
});

describe('the official v2 client in its default mode (2025-11-25)', () => {
  it('opens a session: search_tools adds the found tools to its list, announced with list_changed', async () => {
    const s = await http();
    const client = v2Client(false);
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      changed++;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      await client.callTool({ name: 'search_tools', arguments: { query: 'add two numbers', top: 1 } });
      await expect.poll(() => changed).toBe(1);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'add_numbers']);
      // A 2025 client's questions are requests on the call's stream, as before.
      const r = await client.callTool({ name: 'ask_name', arguments: { greeting: 'Hi' } });
      expect(text(r)).toBe('Hi, Ann!');
    } finally {
      await client.close();
    }
  });
});

describe('the 2026-07-28 wire', () => {
  it('tools/list carries cache hints and the same order every time; removed methods answer 404/-32601', async () => {
    const s = await http(['--expose', 'all']);
    const a = await post(s, 'tools/list');
    const b = await post(s, 'tools/list');
    expect(a.status).toBe(200);
    const result = a.final!.result as { tools: { name: string }[]; ttlMs: number; cacheScope: string };
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(result.cacheScope).toBe('private');
    const names = result.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect((b.final!.result as typeof result).tools.map((t) => t.name)).toEqual(names);
    for (const method of ['initialize', 'ping', 'logging/setLevel']) {
      const r = await post(s, method);
      expect(r.status).toBe(404);
      expect(r.final!.error.code).toBe(-32601);
    }
    // A request without the envelope's required fields: -32602 and 400.
    const noCaps = await post(
      s,
      'tools/list',
      {},
      { meta: { 'io.modelcontextprotocol/clientCapabilities': undefined } },
    );
    expect(noCaps.status).toBe(400);
    expect(noCaps.final!.error.code).toBe(-32602);
    // Mcp-Method must say what the body says.
    const lying = await post(s, 'tools/list', {}, { headers: { 'mcp-method': 'tools/call' } });
    expect(lying.status).toBe(400);
    expect(lying.final!.error.code).toBe(-32020);
  });

  it('sends a tool’s log messages only at or above the logLevel the request carries, none without one', async () => {
    const s = await http(['--expose', 'all']);
    const logs = (r: { messages: Record<string, any>[] }) =>
      r.messages.filter((m) => m.method === 'notifications/message').map((m) => m.params.data as string);
    const elicit = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const none = await post(s, 'tools/call', { name: 'ask_name', arguments: { greeting: 'Yo' } }, { meta: elicit });
    expect(logs(none)).toEqual([]);
    expect(none.final!.result.resultType).toBe('input_required');
    const info = await post(
      s,
      'tools/call',
      { name: 'ask_name', arguments: { greeting: 'Yo' } },
      { meta: { ...elicit, 'io.modelcontextprotocol/logLevel': 'info' } },
    );
    expect(logs(info)).toEqual(['about to ask']);
    const error = await post(
      s,
      'tools/call',
      { name: 'ask_name', arguments: { greeting: 'Yo' } },
      { meta: { ...elicit, 'io.modelcontextprotocol/logLevel': 'error' } },
    );
    expect(logs(error)).toEqual([]);
  });

  it('a tool that needs a capability the client did not declare is refused before it runs (-32021, 400)', async () => {
    proj.write(
      'tool_registry/needs_sampling.yaml',
      `id: needs_sampling
name: needs_sampling
description: Asks the client LLM to echo the text. Use to test sampling.
schema: { type: object, properties: { text: { type: string } }, required: [text] }
loader: python_function
loader_config: { module: serve_tools.tools, function: echo }
mcp: { client_capabilities: [sampling] }
`,
    );
    const s = await http(['--expose', 'all']);
    const before = runs('needs_sampling').length;
    const r = await post(s, 'tools/call', { name: 'needs_sampling', arguments: { text: 'x' } });
    expect(r.status).toBe(400);
    expect(r.final!.error.code).toBe(-32021);
    expect(r.final!.error.data.requiredCapabilities).toEqual({ sampling: {} });
    expect(runs('needs_sampling').length).toBe(before);
    const ok = await post(
      s,
      'tools/call',
      { name: 'needs_sampling', arguments: { text: 'x' } },
      { meta: { 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } } },
    );
    expect(ok.final!.result.structuredContent).toEqual({ echo: 'x' });
  });
});

describe('registry edits reach connected clients', () => {
  it('as notifications/tools/list_changed: on a 2026-07-28 subscriptions/listen stream, and to a 2025 session', async () => {
    const s = await http(['--expose', 'all']);
    const modern = v2Client(true);
    const legacy = v2Client(false);
    const seen = { modern: 0, legacy: 0 };
    modern.setNotificationHandler('notifications/tools/list_changed', async () => void seen.modern++);
    legacy.setNotificationHandler('notifications/tools/list_changed', async () => void seen.legacy++);
    await modern.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } }));
    await legacy.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } }));
    const sub = await modern.listen({ toolsListChanged: true });
    try {
      // Give the 2025 client's GET stream a moment to open (it carries notifications outside a call).
      await new Promise((r) => setTimeout(r, 300));
      proj.write(
        'tool_registry/brand_new.yaml',
        'id: brand_new\nname: brand_new\ndescription: A tool added while serving. Use to test list changes.\n' +
          'schema: { type: object, properties: {} }\nloader: command\nloader_config: { argv: [echo, new] }\n',
      );
      await expect.poll(() => seen, { timeout: 15_000 }).toEqual({ modern: 1, legacy: 1 });
      const names = (await modern.listTools({}, { cacheMode: 'bypass' } as never)).tools.map((t) => t.name);
      expect(names).toContain('brand_new');
      // A file touched without a change to what clients see announces nothing.
      proj.write(
        'tool_registry/brand_new.yaml',
        'id: brand_new\nname: brand_new\ndescription: A tool added while serving. Use to test list changes.\n' +
          'schema: { type: object, properties: {} }\nloader: command\nloader_config: { argv: [echo, new] }\n',
      );
      await new Promise((r) => setTimeout(r, 1500));
      expect(seen).toEqual({ modern: 1, legacy: 1 });
    } finally {
      await sub.close();
      await modern.close();
      await legacy.close();
    }
  });
});
