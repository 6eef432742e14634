// `toolbox serve` keeps warm workers; an edit of a tool's module or of a helper module beside it is
// picked up by the next tools/call (the MCP SDK's own client over stdio, the real binary).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { stdioClient } from './fixtures.js';
import { addFreshServer, FRESH_STEPS, freshProject } from '../fixtures/tools/fresh.js';

const p = freshProject();
const server = addFreshServer(p);
let c: Awaited<ReturnType<typeof stdioClient>>;
beforeAll(async () => {
  c = await stdioClient(join(p.dir, 'tool_registry'), ['--expose', 'all']);
}, 30_000);
afterAll(async () => {
  await c.client.close();
  p.cleanup();
});

const text = (r: Awaited<ReturnType<typeof c.client.callTool>>) =>
  (r.content as { type: string; text: string }[]).map((b) => b.text).join('');

describe('toolbox serve: edited code is picked up by the next call', () => {
  it('Python and Node tools, the module and a helper beside it', async () => {
    for (const step of FRESH_STEPS) {
      if (step.edit) p.edit(...step.edit);
      const py = await c.client.callTool({ name: 'fresh_py', arguments: {} });
      const js = await c.client.callTool({ name: 'fresh_js', arguments: {} });
      expect({ edit: step.edit, py: text(py), js: text(js) }).toEqual({ edit: step.edit, py: step.py, js: step.js });
      expect([py.isError ?? false, js.isError ?? false]).toEqual([false, false]);
    }
  }, 120_000);

  it('an mcp tool whose stdio server script (or a module it imports) in the project was edited gets a new server', async () => {
    const call = async () => text(await c.client.callTool({ name: 'fresh_mcp', arguments: {} }));
    expect(await call()).toBe('server s1 helper h1');
    expect(await call()).toBe('server s1 helper h1');
    server('s2', 'h1');
    expect(await call()).toBe('server s2 helper h1');
    server('s2', 'h2');
    expect(await call()).toBe('server s2 helper h2');
  }, 120_000);
});
