// Results beyond text, progress, logging, elicitation and sampling, through the real `toolbox serve`
// with the SDK's client over stdio and over HTTP. The tools are the conformance fixture's (Python,
// Node and command tools using the runner-side helpers) plus an upstream MCP server's image tool.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { BIN, cli, REPO, linkNodeModules, tempProject, testConfigEnv } from '../helpers.js';
import { errCode, httpServe } from './fixtures.js';

const proj = tempProject();
cpSync(join(REPO, 'test', 'fixtures', 'conformance'), proj.dir, { recursive: true });
linkNodeModules(proj.dir);
proj.write(
  'tool_registry/ev_tiny_image.yaml',
  `id: ev_tiny_image
name: ev_tiny_image
description: Returns a tiny image from the MCP reference server. Use to check image pass-through.
schema: { type: object, properties: {} }
loader: mcp
loader_config:
  command: node_modules/.bin/mcp-server-everything
  tool: get-tiny-image
timeout: 60s
`,
);
const registry = join(proj.dir, 'tool_registry');
const servers: { child: { kill(s: string): void }; exited: Promise<unknown> }[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  proj.cleanup();
});

type Caps = { elicitation?: object; sampling?: object };
async function connect(kind: 'stdio' | 'http', capabilities: Caps = { elicitation: {}, sampling: {} }) {
  const client = new Client({ name: 'rich-test', version: '1.0.0' }, { capabilities });
  if (kind === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--registry', registry, '--expose', 'all'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() },
        stderr: 'pipe',
      }),
    );
  } else {
    const srv = await httpServe(registry, ['--expose', 'all']);
    servers.push(srv);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: srv.headers } }),
    );
  }
  return client;
}

type Block = { type: string; data?: string; mimeType?: string; text?: string; resource?: Record<string, string> };
const blocks = (r: { content?: unknown }) => r.content as Block[];

describe.each(['stdio', 'http'] as const)('serve over %s', (kind) => {
  it('returns images, audio, embedded resources and mixes from Python, Node, command and upstream MCP tools', async () => {
    const c = await connect(kind);
    try {
      const img = blocks(await c.callTool({ name: 'test_image_content', arguments: {} }));
      expect(img).toHaveLength(1);
      expect(img[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expect(Buffer.from(img[0]!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');

      const wav = blocks(await c.callTool({ name: 'test_audio_content', arguments: {} }));
      expect(wav[0]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
      const bytes = Buffer.from(wav[0]!.data!, 'base64');
      expect([bytes.subarray(0, 4).toString(), bytes.subarray(8, 12).toString()]).toEqual(['RIFF', 'WAVE']);

      expect(blocks(await c.callTool({ name: 'test_embedded_resource', arguments: {} }))).toEqual([
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ]);
      const mixed = blocks(await c.callTool({ name: 'test_multiple_content_types', arguments: {} }));
      expect(mixed.map((b) => b.type)).toEqual(['text', 'image', 'resource']);
      expect(JSON.parse(mixed[2]!.resource!.text!)).toEqual({ test: 'data', value: 123 });

      // An upstream MCP server's image is passed through, not flattened to "[image …]".
      const up = blocks(await c.callTool({ name: 'ev_tiny_image', arguments: {} }));
      const upImg = up.find((b) => b.type === 'image')!;
      expect(upImg.mimeType).toBe('image/png');
      expect(Buffer.from(upImg.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await c.close();
    }
  });

  it('gives structured results as structuredContent and as JSON text; keeps JSON Schema 2020-12 keywords', async () => {
    const c = await connect(kind);
    try {
      const t = (await c.listTools()).tools.find((x) => x.name === 'json_schema_2020_12_tool')!;
      expect(t.inputSchema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        additionalProperties: false,
      });
      const r = await c.callTool({
        name: 'json_schema_2020_12_tool',
        arguments: { name: 'Ann', address: { city: 'X' }, contactMethod: 'email', email: 'ann@example.org' },
      });
      expect(r.structuredContent).toEqual({
        name: 'Ann',
        address: { city: 'X' },
        contactMethod: 'email',
        phone: null,
        email: 'ann@example.org',
      });
      expect(JSON.parse(blocks(r)[0]!.text!)).toEqual(r.structuredContent);
      const bad = await c.callTool({ name: 'json_schema_2020_12_tool', arguments: { address: { city: 5 } } });
      expect(errCode(bad)).toBe('invalid_arguments');
      // if/then/else: contactMethod phone needs a phone, whatever else is given.
      const noPhone = await c.callTool({
        name: 'json_schema_2020_12_tool',
        arguments: { contactMethod: 'phone', email: 'ann@example.org' },
      });
      expect(errCode(noPhone)).toBe('invalid_arguments');
    } finally {
      await c.close();
    }
  });

  it('forwards progress when the client sent a progressToken, and log messages at the level the client set', async () => {
    const c = await connect(kind);
    try {
      // What the server sent, in wire order. The SDK client runs notification handlers a microtask
      // after it settles a response (and then drops that request's progress handler), so a final
      // progress that arrives in the same read as the result never reaches `onprogress`: the order
      // on the wire is what the server controls, so that is what is checked.
      const wire: { progress?: number; total?: unknown; result?: true }[] = [];
      const transport = c.transport!;
      const inner = transport.onmessage!;
      transport.onmessage = (msg, extra) => {
        const m = msg as { method?: string; params?: { progress?: number; total?: unknown }; result?: unknown };
        if (m.method === 'notifications/progress') wire.push({ progress: m.params?.progress, total: m.params?.total });
        else if (m.result !== undefined) wire.push({ result: true });
        inner(msg, extra);
      };
      const seen: number[] = [];
      await c.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
        onprogress: (p) => seen.push(p.progress),
      });
      expect(wire.map((w) => (w.result ? 'result' : w.progress))).toEqual([0, 50, 100, 'result']);
      expect(wire.filter((w) => !w.result).every((w) => w.total === 100)).toBe(true);
      expect(seen.slice(0, 2)).toEqual([0, 50]); // the client asked for progress and got it
      transport.onmessage = inner;

      const logs: { level: string; data: unknown }[] = [];
      c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
        logs.push(n.params);
      });
      // Until the client sets a level, no log message is sent at all.
      await c.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await c.ping();
      expect(logs).toEqual([]);
      await c.setLoggingLevel('warning');
      await c.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await c.ping(); // notifications sent before the result have been delivered by now
      expect(logs).toEqual([]);
      await c.setLoggingLevel('info');
      await c.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await expect.poll(() => logs.length, { timeout: 10_000 }).toBe(3);
      expect(logs.map((l) => l.data)).toEqual([
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ]);
      expect(logs.every((l) => l.level === 'info')).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('lets a tool ask the user (elicitation) and the client LLM (sampling)', async () => {
    const c = await connect(kind);
    try {
      let asked: Record<string, unknown> | undefined;
      c.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked = req.params as Record<string, unknown>;
        return { action: 'accept', content: { username: 'ann', email: 'ann@example.com' } };
      });
      const e = await c.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      expect(asked?.message).toBe('Who are you?');
      expect(blocks(e)[0]!.text).toBe(
        'User response: action=accept, content={"username": "ann", "email": "ann@example.com"}',
      );
      let sampled: { maxTokens?: number; messages?: { content: { text: string } }[] } | undefined;
      c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
        sampled = req.params as typeof sampled;
        return {
          role: 'assistant',
          content: { type: 'text', text: 'forty-two' },
          model: 'test',
          stopReason: 'endTurn',
        };
      });
      const s = await c.callTool({ name: 'test_sampling', arguments: { prompt: 'What is six times seven?' } });
      expect(sampled?.maxTokens).toBe(100);
      expect(sampled?.messages?.[0]?.content.text).toBe('What is six times seven?');
      expect(blocks(s)[0]!.text).toBe('LLM response: forty-two');
    } finally {
      await c.close();
    }
  });

  it('refuses elicitation and sampling with a tool error when the client lacks the capability', async () => {
    const c = await connect(kind, {});
    try {
      const e = await c.callTool({ name: 'test_elicitation', arguments: { message: 'hi' } });
      expect(e.isError).toBe(true);
      expect(errCode(e)).toBe('tool_failed');
      expect(blocks(e)[0]!.text).toMatch(/does not support elicitation/);
      const s = await c.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
      expect(errCode(s)).toBe('tool_failed');
      expect(blocks(s)[0]!.text).toMatch(/does not support sampling/);
    } finally {
      await c.close();
    }
  });
});

describe('cancellation while a tool waits for the client', () => {
  it('a cancelled call stops its tool even while it waits for an elicitation answer; the next call works', async () => {
    const c = await connect('stdio');
    try {
      let asked = 0;
      c.setRequestHandler(ElicitRequestSchema, (_req, extra) => {
        asked++;
        if (asked > 1) return Promise.resolve({ action: 'decline' as const });
        return new Promise((_res, rej) => extra.signal.addEventListener('abort', () => rej(new Error('aborted'))));
      });
      const ac = new AbortController();
      const call = c.callTool({ name: 'test_elicitation', arguments: { message: 'wait' } }, undefined, {
        signal: ac.signal,
      });
      await expect.poll(() => asked).toBe(1);
      ac.abort();
      await expect(call).rejects.toThrow();
      const next = await c.callTool({ name: 'test_elicitation', arguments: { message: 'again' } });
      expect(blocks(next)[0]!.text).toBe('User response: action=decline, content=null');
    } finally {
      await c.close();
    }
  });
});

describe('toolbox run with content results', () => {
  it('--out saves non-text blocks as files; the text names them', async () => {
    const out = join(proj.dir, 'out');
    const r = await cli(['run', 'test_multiple_content_types', '--out', out, '--json'], { cwd: proj.dir });
    expect(r.code).toBe(0);
    expect(r.json.content.map((b: Block) => b.type)).toEqual(['text', 'image', 'resource']);
    expect(r.json.saved.map((f: { file: string }) => f.file)).toEqual([
      join(out, 'test_multiple_content_types-1.png'),
      join(out, 'test_multiple_content_types-2.json'),
    ]);
    expect(readFileSync(join(out, 'test_multiple_content_types-1.png')).subarray(1, 4).toString()).toBe('PNG');
    const human = await cli(['run', 'test_image_content'], { cwd: proj.dir });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^\[image image\/png, \d+ bytes\]/);
    expect(existsSync(join(proj.dir, 'test_image_content-1.png'))).toBe(false);
  });

  it('a tool that asks for input fails clearly when run without an MCP client', async () => {
    const r = await cli(['run', 'test_sampling', '--prompt', 'hi', '--json'], { cwd: proj.dir });
    expect(r.code).toBe(4);
    expect(r.errorJson.error.code).toBe('tool_failed');
    expect(r.errorJson.error.message).toMatch(/sampling\/createMessage needs an MCP client/);
  });
});
