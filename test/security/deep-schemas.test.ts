// Issue 34 item 5: a remote schema nested 900 levels deep, or one that refers to itself through a
// $ref cycle, from a real MCP SDK server. The deep one is refused with a clear error and a depth
// limit (never "Maximum call stack size exceeded"), nothing written; the recursive one (legal JSON
// Schema: trees, linked lists) imports, validates, runs and is served, every walker bounded.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, testConfigEnv } from '../helpers.js';
import { MAX_SCHEMA_DEPTH } from '../../src/util/json-depth.js';
import { errCode, stdioClient } from '../serve/fixtures.js';
import { mcpProject } from '../mcp/fixtures.js';
import { expected } from './cases.js';

// The SDK's low-level Server sends tool definitions as given: what a hostile or careless server can.
const SERVER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema, CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const [depth, which] = [Number(process.argv[2]), process.argv[3]];
let deep = { type: 'string' };
for (let i = 0; i < depth; i++) deep = { type: 'object', properties: { a: deep } };
const tools = {
  deep: { name: 'deep_tool', description: 'Takes a value nested very deep.', inputSchema: { type: 'object', properties: { x: deep } } },
  cyclic: {
    name: 'tree_tool',
    description: 'Takes a tree whose nodes refer to their own shape.',
    inputSchema: {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/node' } } } },
    },
  },
  plain: { name: 'plain_tool', description: 'An ordinary tool.', inputSchema: { type: 'object', properties: { s: { type: 'string' } } } },
};
const server = new Server({ name: 'shapes', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tools[which], tools.plain] }));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  if (req.params.arguments?.s !== 'deep') return { content: [{ type: 'text', text: JSON.stringify(req.params.arguments) }] };
  let v = {};
  for (let i = 0; i < 900; i++) v = { v };
  return { content: [{ type: 'text', text: 'deep' }], structuredContent: v };
});
await server.connect(new StdioServerTransport());
`;

const env = mcpProject({ 'srv/shapes.mjs': SERVER });
afterAll(() => env.cleanup());
const reg = join(env.dir, 'tool_registry');
const contracts = () => readdirSync(reg).filter((f) => f.endsWith('.yaml'));
const importShapes = (depth: number, which: string) =>
  cli(['import', 'mcp', '--json', '--', 'node', 'srv/shapes.mjs', String(depth), which], {
    cwd: env.dir,
    env: testConfigEnv(),
  });

describe('issue 34 item 5: deep and cyclic remote schemas', () => {
  it('a tool schema 900 levels deep ends import mcp with mcp_reply_too_deep, no stack overflow, nothing written', async () => {
    expect(expected('remote-schema-deep', 'bwrap')).toBe('refused');
    const r = await importShapes(900, 'deep');
    expect(r.code).toBe(4);
    expect(r.errorJson?.error.code).toBe('mcp_reply_too_deep');
    expect(r.stderr).not.toMatch(/call stack/i);
    expect(contracts()).toEqual([]);
  });

  it('one deeper than a contract may nest (but small enough to travel) is mcp_schema_too_deep, naming it', async () => {
    const r = await importShapes(MAX_SCHEMA_DEPTH / 2 + 5, 'deep');
    expect(r.code).toBe(4);
    expect(r.errorJson?.error).toMatchObject({ code: 'mcp_schema_too_deep', details: { tools: ['deep_tool'] } });
    expect(contracts()).toEqual([]);
  });

  it('a $ref cycle imports, validates, runs through the mcp loader and is served to the SDK client', async () => {
    expect(expected('remote-schema-cycle', 'bwrap')).toBe('blocked');
    const r = await importShapes(0, 'cyclic');
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    expect(contracts().sort()).toEqual(['plain_tool.yaml', 'tree_tool.yaml']);
    const v = await cli(['validate', '--json'], { cwd: env.dir, env: testConfigEnv() });
    expect(v.json.diagnostics.filter((d: { severity: string }) => d.severity === 'error')).toEqual([]);
    const tree = { root: { value: 'a', next: { value: 'b', next: { value: 'c' } } } };
    const run = await cli(['run', 'tree_tool', '--args', JSON.stringify(tree), '--json'], {
      cwd: env.dir,
      env: testConfigEnv(),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.result).toEqual(JSON.stringify(tree));
    const help = await cli(['run', 'tree_tool', '--help'], { cwd: env.dir, env: testConfigEnv() });
    expect(help.code).toBe(0);
    // The mcp loader: a result nested 900 deep is the server's failure, said plainly (exit 4).
    const deepResult = await cli(['run', 'plain_tool', '--s', 'deep', '--json'], {
      cwd: env.dir,
      env: testConfigEnv(),
    });
    expect(deepResult.code).toBe(4);
    expect(deepResult.errorJson?.error.message).toMatch(/nested more than \d+ levels deep/);
    expect(deepResult.stderr).not.toMatch(/call stack/i);

    const { client } = await stdioClient(reg, ['--expose', 'all'], env.dir);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['plain_tool', 'tree_tool']);
      const got = await client.callTool({ name: 'tree_tool', arguments: tree });
      expect(got.isError, JSON.stringify(got)).toBeFalsy();
      // Nested past the arguments' own limit (64): a usage error for the caller, not a crash.
      let chain: Record<string, unknown> = { value: 'z' };
      for (let i = 0; i < 100; i++) chain = { value: String(i), next: chain };
      const deepCall = await client.callTool({ name: 'tree_tool', arguments: { root: chain } });
      expect(deepCall.isError).toBe(true);
      expect(errCode(deepCall)).toBe('arguments_too_deep');
    } finally {
      await client.close();
    }
  });

  it('a contract whose own schema is 900 levels deep is refused by validate and left out by serve', async () => {
    expect(expected('contract-schema-deep', 'bwrap')).toBe('refused');
    let deep = '{type: string}';
    for (let i = 0; i < 900; i++) deep = `{type: object, properties: {a: ${deep}}}`;
    writeFileSync(
      join(reg, 'deep900.yaml'),
      `id: deep900\nname: deep\ndescription: A tool with a schema nested very deep, for the limit tests.\nprovider: t\nloader: command\nloader_config: { argv: [/bin/echo] }\nschema: {type: object, properties: {x: ${deep}}}\n`,
    );
    const v = await cli(['validate', join(reg, 'deep900.yaml'), '--json'], { cwd: env.dir, env: testConfigEnv() });
    expect(v.code).toBe(1);
    expect(v.json.diagnostics).toEqual([
      expect.objectContaining({ rule: 'schema-too-deep', severity: 'error', line: 7, path: 'schema' }),
    ]);
    const { client } = await stdioClient(reg, ['--expose', 'all'], env.dir);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('plain_tool');
      expect(names).not.toContain('deep900');
    } finally {
      await client.close();
    }
    expect(existsSync(join(reg, 'deep900.yaml'))).toBe(true); // nothing rewrote the user's file
  });
});
