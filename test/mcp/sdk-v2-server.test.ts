// A 2026-07-28 stdio server built on the official SDK v2 server package, started in the sandbox by
// toolbox: it is reached with server/discover (no initialize), imported, and its input-required
// question travels to the tool's caller and back.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { cli, testConfigEnv } from '../helpers.js';
import { loader } from '../../src/loaders/mcp.js';
import { openSession } from '../../src/mcp/session.js';
import type { ToolContract } from '../../src/contract/types.js';
import type { Question, ToolClient } from '../../src/loaders/types.js';
import { LIMITS, callCtx, mcpProject } from './fixtures.js';

const SERVER = `import { McpServer, inputRequired, acceptedContent } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'v2-greeter', version: '2.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'greet',
    { description: 'Greets the person, asking their name first.', inputSchema: z.object({ greeting: z.string() }) },
    async ({ greeting }, ctx) => {
      const who = acceptedContent(ctx.mcpReq.inputResponses, 'who');
      if (!who?.name)
        return inputRequired({
          inputRequests: {
            who: inputRequired.elicit({
              message: 'Your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            }),
          },
        });
      return { content: [{ type: 'text', text: greeting + ', ' + who.name + '!' }] };
    },
  );
  return server;
});
`;

const env = mcpProject({ 'srv/greeter.mjs': SERVER });
afterAll(() => env.cleanup());

describe('a 2026-07-28 server on the SDK v2 server package, over stdio in the sandbox', () => {
  it('is reached with server/discover, imported, and its question answered by the caller', async () => {
    const s = await openSession(
      {
        kind: 'stdio',
        root: env.dir,
        command: 'node',
        args: ['srv/greeter.mjs'],
        env: {},
        readOnlyPaths: [],
        network: false,
        limits: LIMITS,
        pathVar: process.env.PATH,
        granted: callCtx().granted,
      },
      { timeoutMs: 20_000, nodeBinary: process.execPath },
    );
    try {
      expect(s.modern).toBe(true);
      expect(s.protocolVersion).toBe('2026-07-28');
      expect(s.server).toEqual({ name: 'v2-greeter', version: '2.0.0' });
    } finally {
      await s.close();
    }

    const r = await cli(['import', 'mcp', '--json', '--', 'node', 'srv/greeter.mjs'], {
      cwd: env.dir,
      env: testConfigEnv(),
    });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    const file = (r.json.tools as { tool: string; file: string }[]).find((t) => t.tool === 'greet')!.file;
    const contract = parse(readFileSync(file, 'utf8')) as ToolContract;
    expect(contract.schema).toMatchObject({ properties: { greeting: { type: 'string' } } });

    const asked: Question[] = [];
    const client: ToolClient = {
      ask: async (qs) => {
        asked.push(...qs);
        return qs.map(() => ({ action: 'accept', content: { name: 'Zoe' } }));
      },
    };
    const t = await loader.load({
      project: env.project,
      entry: { contract, file, line: 1 },
      longRunning: false,
      verbose: false,
    });
    const out = await t.call({ greeting: 'Hello' }, callCtx({ client, readOnlyPaths: [] }));
    expect(out.result).toBe('Hello, Zoe!');
    expect(asked).toEqual([
      expect.objectContaining({
        method: 'elicitation/create',
        key: 'mcp.r1.who',
        params: expect.objectContaining({ message: 'Your name?' }),
      }),
    ]);
  }, 60_000);
});
