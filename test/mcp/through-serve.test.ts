// What a 2025 server asks during a call travels through the mcp loader and `toolbox serve` to the
// client at the top, in that client's own revision: an input-required result that the official v2
// client (auto: 2026-07-28) answers by retrying the same call, or a request on the call's stream for a
// 2025-11-25 client. Progress makes the same trip. Real processes all the way: the v2 client, serve
// over stdio, server-everything in the sandbox.
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { join } from 'node:path';
import { BIN, testConfigEnv } from '../helpers.js';
import { mcpProject } from './fixtures.js';

const everything = (id: string, tool: string) => `id: ${id}
name: ${id}
description: The ${tool} tool of server-everything, behind the mcp loader.
# Free-form arguments are explicit (an absent additionalProperties refuses undeclared names, issue 34).
schema: { type: object, additionalProperties: true }
loader: mcp
loader_config: { command: node_modules/.bin/mcp-server-everything, args: [stdio], tool: ${tool} }
`;

const env = mcpProject({
  'tool_registry/ev_elicit.yaml': everything('ev_elicit', 'trigger-elicitation-request'),
  'tool_registry/ev_sample.yaml': everything('ev_sample', 'trigger-sampling-request'),
  'tool_registry/ev_long.yaml': everything('ev_long', 'trigger-long-running-operation'),
});
afterAll(() => env.cleanup());

async function connect(auto: boolean) {
  const asked: string[] = [];
  const client = new Client(
    { name: 'top', version: '1.0.0' },
    {
      capabilities: { elicitation: {}, sampling: {} },
      ...(auto ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async () => {
    asked.push('elicitation');
    return { action: 'accept', content: { name: 'Grace Hopper', check: true } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { role: 'assistant', model: 'top-llm', content: { type: 'text', text: 'from the top' } };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--registry', join(env.dir, 'tool_registry'), '--expose', 'all'],
      cwd: env.dir,
      // The user's grants (test/helpers.ts): the project's node_modules is a link to the repository's.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() },
      stderr: 'ignore',
    }),
  );
  return { client, asked };
}

const text = (r: { content?: unknown }) => JSON.stringify(r.content);

describe("a downstream server's questions reach the client of serve", () => {
  it('2026-07-28 client: elicitation and sampling come back as input-required results, progress as notifications', async () => {
    const { client, asked } = await connect(true);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const e = await client.callTool({ name: 'ev_elicit', arguments: {} });
      expect(e.isError).toBeFalsy();
      expect(text(e)).toContain('Grace Hopper');
      const s = await client.callTool({ name: 'ev_sample', arguments: { prompt: 'hi', maxTokens: 5 } });
      expect(text(s)).toContain('from the top');
      expect(asked).toEqual(['elicitation', 'sampling']);
      // Collected by our own handler, not the SDK's `onprogress`: the SDK client dispatches a notification a
      // microtask late but forgets the request's progress handler at once when the result arrives, so a
      // last progress read from the same chunk as the result is lost in the client (not on the wire).
      const progress: number[] = [];
      client.setNotificationHandler('notifications/progress', (n) => {
        if (n.params.progressToken === 'through-serve') progress.push(n.params.progress);
      });
      await client.callTool({
        name: 'ev_long',
        arguments: { duration: 1, steps: 2 },
        _meta: { progressToken: 'through-serve' },
      });
      await expect.poll(() => progress).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('2025-11-25 client: the questions arrive as requests on the call', async () => {
    const { client, asked } = await connect(false);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const e = await client.callTool({ name: 'ev_elicit', arguments: {} });
      expect(text(e)).toContain('Grace Hopper');
      const s = await client.callTool({ name: 'ev_sample', arguments: { prompt: 'hi', maxTokens: 5 } });
      expect(text(s)).toContain('from the top');
      expect(asked).toEqual(['elicitation', 'sampling']);
    } finally {
      await client.close();
    }
  }, 60_000);
});
