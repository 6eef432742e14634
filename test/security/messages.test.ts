// Item 12: honest limits and messages (what an MCP client is told, what tier `none` admits).
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { describeSandboxTier } from '../../src/sandbox/index.js';
import { expected } from './cases.js';
import { contract, project, tiers } from './helpers.js';

const p = project({
  'my_tools/__init__.py': '',
  'my_tools/bad.py': 'def boom(x=""):\n    raise RuntimeError("broken inside " + __file__)\n',
  'tool_registry/boom.yaml': contract('boom', 'python_function', '{ module: my_tools.bad, function: boom }'),
  'tool_registry/gone.yaml': contract('gone', 'python_function', '{ module: no_such_pkg.x, function: f }'),
});
const core = new ServeCore(resolveProject({ cwd: p.dir }), { expose: 'all', caller: {} });
afterAll(async () => {
  await core.close();
  p.cleanup();
});

describe('item 12: honest messages', () => {
  it('MCP error results carry codes, not host paths, tracebacks or CLI hints', async () => {
    expect(expected('mcp-error-leaks', 'bwrap')).toBe('blocked');
    for (const id of ['boom', 'gone']) {
      const r = await core.call(id, {}, 's');
      expect(r.isError).toBe(true);
      const all = JSON.stringify(r);
      expect(all).not.toContain(p.dir);
      expect(all).not.toMatch(/Traceback|--verbose|toolbox run|\.yaml/);
      expect((r._meta as Record<string, { code: string }>)['toolbox/error']!.code).toMatch(/^tool_/);
    }
  });

  it.runIf(tiers.includes('none'))("tier none says a tool can read toolbox's environment through /proc", async () => {
    expect((await describeSandboxTier('none')).warnings.join(' ')).toMatch(/\/proc\/<pid>\/environ/);
  });
});
