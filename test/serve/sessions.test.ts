// Sessions in serve: the tools search_tools adds to a session are bounded (the 20 most recently
// found, list_changed when the set changes), and a session's file is deleted when it ends.
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { pruneSessions, recordSessionEvent, SESSION_MAX_AGE_MS } from '../../src/policy/session.js';
import { addFound, MAX_FOUND } from '../../src/serve/session.js';
import { tempProject } from '../helpers.js';
import { httpServe, stdioClient } from './fixtures.js';

const tool = (id: string, description: string) => `id: ${id}
name: ${id}
description: ${description}
schema: { type: object, properties: {} }
loader: command
loader_config: { argv: [echo, ${id}] }
`;
const files: Record<string, string> = {};
for (let i = 0; i < 25; i++)
  files[`tool_registry/zebra_${i}.yaml`] = tool(
    `zebra_${i}`,
    `Feed zebra number ${i} at the zoo. Use for zebra feeding.`,
  );
for (let i = 0; i < 5; i++)
  files[`tool_registry/kiwi_${i}.yaml`] = tool(`kiwi_${i}`, `Peel kiwi fruit batch ${i}. Use to peel kiwi fruit.`);
const proj = tempProject(files);
const registry = join(proj.dir, 'tool_registry');
const sessionsDir = join(proj.dir, '.toolbox', 'sessions');
const sessionFiles = () => (existsSync(sessionsDir) ? readdirSync(sessionsDir) : []);
afterAll(() => proj.cleanup());

describe('the found-tools set', () => {
  it('keeps the most recently found, at most MAX_FOUND, and reports only membership changes', () => {
    const found = new Set<string>();
    expect(addFound(found, ['a', 'b'], 3)).toBe(true);
    expect(addFound(found, ['b', 'a'], 3)).toBe(false); // same members, only their recency moves
    expect(addFound(found, ['c', 'd'], 3)).toBe(true);
    expect([...found]).toEqual(['a', 'c', 'd']); // b was the least recently found
    expect(MAX_FOUND).toBe(20);
  });
});

describe('serve sessions over stdio', () => {
  it('bounds the tools searches add, announcing each change with list_changed', async () => {
    const c = await stdioClient(registry);
    let changed = 0;
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    try {
      await c.client.callTool({ name: 'search_tools', arguments: { query: 'feed the zebra at the zoo', top: 20 } });
      await expect.poll(() => changed).toBe(1);
      expect((await c.client.listTools()).tools).toHaveLength(2 + 20);
      await c.client.callTool({ name: 'search_tools', arguments: { query: 'peel kiwi fruit', top: 5 } });
      await expect.poll(() => changed).toBe(2);
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toHaveLength(2 + MAX_FOUND);
      for (let i = 0; i < 5; i++) expect(names).toContain(`kiwi_${i}`);
      // The same tools again: nothing changes, no notification.
      await c.client.callTool({ name: 'search_tools', arguments: { query: 'peel kiwi fruit', top: 5 } });
      await c.client.ping();
      expect(changed).toBe(2);
      expect(sessionFiles().filter((f) => f.startsWith('serve-'))).toHaveLength(1);
    } finally {
      await c.client.close();
    }
    // The server removes the session's file on the way out.
    await expect.poll(() => sessionFiles().filter((f) => f.startsWith('serve-'))).toEqual([]);
  });
});

describe('serve sessions over HTTP', () => {
  it("deletes a session's file when the client ends the session", async () => {
    const srv = await httpServe(registry);
    const transport = new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: srv.headers } });
    const client = new Client({ name: 'sessions-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      await client.callTool({ name: 'search_tools', arguments: { query: 'peel kiwi fruit', top: 2 } });
      expect(sessionFiles().filter((f) => f.startsWith('mcp-'))).toHaveLength(1);
      await transport.terminateSession();
      await expect.poll(() => sessionFiles().filter((f) => f.startsWith('mcp-'))).toEqual([]);
    } finally {
      await client.close();
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  });
});

describe('session files without an end', () => {
  it('are pruned once they have not been written for a week', () => {
    const p = tempProject({ 'tool_registry/.keep': '' });
    try {
      const project = {
        root: p.dir,
        registryDir: join(p.dir, 'tool_registry'),
        stateDir: join(p.dir, '.toolbox'),
        config: {},
      };
      recordSessionEvent(project, 'old-chat', { kind: 'selected', query: 'x', tools: [] });
      recordSessionEvent(project, 'new-chat', { kind: 'selected', query: 'y', tools: [] });
      const old = join(project.stateDir, 'sessions', 'old-chat.json');
      const t = (Date.now() - SESSION_MAX_AGE_MS - 60_000) / 1000;
      utimesSync(old, t, t);
      expect(pruneSessions(project, Date.now(), false)).toBe(1);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(join(project.stateDir, 'sessions', 'new-chat.json'))).toBe(true);
    } finally {
      p.cleanup();
    }
  });
});
