// Agent frameworks' own MCP clients find and call a tool through the real `toolbox serve --http`:
// LangChain's MCP adapters (MultiServerMCPClient → LangChain tools) and the Vercel AI SDK's MCP client
// (createMCPClient → AI SDK tools). Each runs as its own Node program, as an application would, from
// packages installed outside the project (scripts/agent-clients.mjs). No model: the test plays the
// model's part, choosing the tool calls an agent would make from what the tools return.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { ensureClients } from '../../scripts/agent-clients.mjs';
import { httpServe, serveProject } from './fixtures.js';

const run = promisify(execFile);
const proj = serveProject();
let work = '';
let server: Awaited<ReturnType<typeof httpServe>>;

beforeAll(async () => {
  const clients = (await ensureClients()) as string;
  work = mkdtempSync(join(tmpdir(), 'toolbox-agent-run-'));
  symlinkSync(join(clients, 'node_modules'), join(work, 'node_modules'));
  writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
  server = await httpServe(proj.registry);
}, 900_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  if (work) rmSync(work, { recursive: true, force: true });
  proj.cleanup();
});

/** Run an agent-side program (in `work`, so it resolves the installed clients); its stdout is JSON. */
async function agent(name: string, code: string): Promise<Record<string, any>> {
  writeFileSync(join(work, name), code);
  const { stdout } = await run(process.execPath, [join(work, name), server.url, server.headers.authorization ?? ''], {
    cwd: work,
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, any>;
}

describe('agent frameworks call tools through serve', () => {
  it("LangChain's MCP adapters: the listed tools become LangChain tools; search_tools finds one, call_tool runs it", async () => {
    const out = await agent(
      'langchain.mjs',
      `import { MultiServerMCPClient } from '@langchain/mcp-adapters';
const [url, authorization] = process.argv.slice(2);
const client = new MultiServerMCPClient({
  useStandardContentBlocks: true,
  mcpServers: { toolbox: { url, headers: { authorization }, automaticSSEFallback: false } },
});
try {
  const tools = await client.getTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const found = await byName.search_tools.invoke({ query: 'add two numbers', top: 2 });
  const text = JSON.stringify(found);
  // The model reads the found definitions and calls the one it wants through call_tool (the adapters
  // only call tools they were listed).
  const sum = await byName.call_tool.invoke({ id: 'add_numbers', arguments: { a: 19, b: 23 } });
  console.log(JSON.stringify({ names: tools.map((t) => t.name), foundAdd: text.includes('add_numbers'), sum: JSON.stringify(sum) }));
} finally {
  await client.close();
}
`,
    );
    expect(out.names).toEqual(['search_tools', 'call_tool']);
    expect(out.foundAdd).toBe(true);
    expect(out.sum).toContain('42');
  });

  it("the Vercel AI SDK's MCP client: tools() gives search_tools; the definitions it finds become AI SDK tools it calls by name", async () => {
    const out = await agent(
      'ai-sdk.mjs',
      `import { createMCPClient } from '@ai-sdk/mcp';
const [url, authorization] = process.argv.slice(2);
const client = await createMCPClient({ transport: { type: 'http', url, headers: { authorization } } });
try {
  const listed = await client.tools();
  const ctx = { toolCallId: 'call-1', messages: [] };
  const found = await listed.search_tools.execute({ query: 'add two numbers', top: 2 }, ctx);
  const definitions = found.structuredContent.tools;
  // What search_tools found is a tools/list of its own: the SDK turns it into tools, called by name.
  const more = client.toolsFromDefinitions({ tools: definitions });
  const sum = await more.add_numbers.execute({ a: 40, b: 2 }, { ...ctx, toolCallId: 'call-2' });
  console.log(JSON.stringify({ listed: Object.keys(listed), found: definitions.map((d) => d.name), sum }));
} finally {
  await client.close();
}
`,
    );
    expect(out.listed).toEqual(['search_tools', 'call_tool']);
    expect(out.found).toContain('add_numbers');
    expect(out.sum.structuredContent).toEqual({ sum: 42 });
  });
});
