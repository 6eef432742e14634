// Contracts carry the MCP tool model (title, annotations, outputSchema, icons) into every place a
// definition leaves toolbox: serve (SDK client over stdio and HTTP), select --format, list, show.
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cli, tempProject } from '../helpers.js';
import { errCode, httpServe, stdioClient } from './fixtures.js';

const ICON = 'data:image/png;base64,iVBORw0KGgo=';
const WORDS = 'Count the words of a text and report the count. Use when the user asks how many words a text has.';
const contract = (id: string, fn: string, extra: string, description = WORDS) => `id: ${id}
name: ${id}
description: ${description}
schema:
  type: object
  properties:
    text: { type: string, description: the text }
  required: [text]
loader: python_function
loader_config:
  module: model_tools
  function: ${fn}
${extra}`;

const proj = tempProject({
  'model_tools.py':
    'def count(text):\n    return {"words": len(text.split())}\n\ndef wrong(text):\n    return {"words": "many"}\n',
  'tool_registry/word_count.yaml': contract(
    'word_count',
    'count',
    `title: Word count
annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
output_schema:
  type: object
  properties: { words: { type: integer } }
  required: [words]
icons: [{ src: "${ICON}", mimeType: image/png, sizes: ["16x16"] }]
`,
  ),
  'tool_registry/word_count_wrong.yaml': contract(
    'word_count_wrong',
    'wrong',
    'output_schema:\n  type: object\n  properties: { words: { type: integer } }\n',
    'Tally the tokens of a passage (a deliberately broken tool whose result misses its output schema).',
  ),
  'tool_registry/plain.yaml': contract(
    'plain',
    'count',
    'output_schema: { type: string }\n',
    'Measure the length of a passage in tokens; its output schema is a string schema.',
  ),
});
const registry = `${proj.dir}/tool_registry`;
afterAll(() => proj.cleanup());

const EXPECTED = {
  name: 'word_count',
  title: 'Word count',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  outputSchema: { type: 'object', properties: { words: { type: 'integer' } }, required: ['words'] },
  icons: [{ src: ICON, mimeType: 'image/png', sizes: ['16x16'] }],
};

async function checkServer(client: Client) {
  const tools = (await client.listTools()).tools;
  expect(tools.find((t) => t.name === 'word_count')).toMatchObject(EXPECTED);
  // MCP output schemas are objects: a string schema stays toolbox's own check, not announced.
  const plain = tools.find((t) => t.name === 'plain')!;
  expect(plain.outputSchema).toBeUndefined();
  expect(plain.title).toBeUndefined();
  expect(plain.annotations).toBeUndefined();
  // The SDK client validates structuredContent against the announced outputSchema.
  const ok = await client.callTool({ name: 'word_count', arguments: { text: 'one two three' } });
  expect(ok.isError).toBeFalsy();
  expect(ok.structuredContent).toEqual({ words: 3 });
  const bad = await client.callTool({ name: 'word_count_wrong', arguments: { text: 'x' } });
  expect(bad.isError).toBe(true);
  expect(errCode(bad)).toBe('output_schema_mismatch');
}

describe('the MCP tool model through serve', () => {
  it('stdio: tools/list carries title, annotations, outputSchema and icons; results conform', async () => {
    const c = await stdioClient(registry, ['--expose', 'all']);
    try {
      await checkServer(c.client);
      // An error from a tool with an outputSchema keeps its code in _meta, so the client's schema check passes.
      const e = await c.client.callTool({ name: 'word_count', arguments: {} });
      expect(e.isError).toBe(true);
      expect(e.structuredContent).toBeUndefined();
      expect(errCode(e)).toBe('invalid_arguments');
    } finally {
      await c.client.close();
    }
  });

  it('http: the same, and search_tools returns the full definitions', async () => {
    const srv = await httpServe(registry, ['--expose', 'all']);
    const client = new Client({ name: 'model-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: srv.headers } }),
      );
      await checkServer(client);
    } finally {
      await client.close();
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
    const search = await httpServe(registry);
    const sc = new Client({ name: 'model-test', version: '1.0.0' });
    try {
      await sc.connect(
        new StreamableHTTPClientTransport(new URL(search.url), { requestInit: { headers: search.headers } }),
      );
      const r = await sc.callTool({ name: 'search_tools', arguments: { query: 'how many words', top: 3 } });
      const found = (r.structuredContent as { tools: { name: string }[] }).tools;
      expect(found.find((t) => t.name === 'word_count')).toMatchObject(EXPECTED);
    } finally {
      await sc.close();
      search.child.kill('SIGTERM');
      await search.exited;
    }
  });
});

describe('the MCP tool model in the CLI', () => {
  it('select --format mcp carries every field; openai and anthropic keep only the keys their APIs accept', async () => {
    const q = ['select', 'how many words does this text have', '-k', '3', '--registry', registry];
    const mcp = (await cli([...q, '--format', 'mcp'], { cwd: proj.dir })).json;
    expect(mcp.tools.find((t: { name: string }) => t.name === 'word_count')).toEqual({
      ...EXPECTED,
      description: expect.any(String),
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
    const openai = (await cli([...q, '--format', 'openai'], { cwd: proj.dir })).json;
    expect(Object.keys(openai[0].function).sort()).toEqual(['description', 'name', 'parameters']);
    const anthropic = (await cli([...q, '--format', 'anthropic'], { cwd: proj.dir })).json;
    expect(Object.keys(anthropic[0]).sort()).toEqual(['description', 'input_schema', 'name']);
  });

  it('list --json and show --json carry title, annotations, output_schema and icons', async () => {
    const list = await cli(['list', '--json', '--registry', registry], { cwd: proj.dir });
    expect(list.code).toBe(0);
    const t = list.json.tools.find((x: { id: string }) => x.id === 'word_count');
    expect(t).toMatchObject({
      title: EXPECTED.title,
      annotations: EXPECTED.annotations,
      output_schema: EXPECTED.outputSchema,
      icons: EXPECTED.icons,
    });
    const show = await cli(['show', 'word_count', '--json', '--registry', registry], { cwd: proj.dir });
    expect(show.json.contract).toMatchObject({ title: 'Word count', annotations: EXPECTED.annotations });
  });

  it('validate rejects unknown annotation keys and bad icon sources', async () => {
    const p = tempProject({
      'model_tools.py': 'def count(text):\n    return {}\n',
      'tool_registry/a.yaml': contract('a_tool', 'count', 'annotations: { readOnly: true }\n'),
      'tool_registry/b.yaml': contract('b_tool', 'count', 'icons: [{ src: "http://x/i.png" }]\n'),
    });
    try {
      const r = await cli(['validate', '--json'], { cwd: p.dir });
      expect(r.code).toBe(1);
      const files = JSON.stringify(r.json);
      expect(files).toMatch(/a\.yaml/);
      expect(files).toMatch(/b\.yaml/);
    } finally {
      p.cleanup();
    }
  });
});
