// Item 12: honest limits and messages (what an MCP client is told, what tier `none` admits).
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { describeSandboxTier } from '../../src/sandbox/index.js';
import { expected } from './cases.js';
import { contract, project, runOn, tiers } from './helpers.js';

const p = project({
  'my_tools/__init__.py': '',
  'my_tools/bad.py': 'def boom(x=""):\n    raise RuntimeError("broken inside " + __file__)\n',
  'tool_registry/boom.yaml': contract('boom', 'python_function', '{ module: my_tools.bad, function: boom }'),
  'my_tools/hog.py': 'def hog(x=""):\n    b = bytearray(4 * 1024 ** 3)\n    return len(b)\n',
  'tool_registry/hog.yaml': contract(
    'hog',
    'python_function',
    '{ module: my_tools.hog, function: hog }',
    'sandbox: { memory: 256M }',
  ),
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

  it.each(tiers)(
    'a 4 GiB allocation is the memory limit (exit 5 tool_limit), not a tool failure, on tier %s',
    async (tier) => {
      const r = await runOn(tier, p.dir, ['run', 'hog', '--json']);
      expect(r.code).toBe(5);
      expect(r.errorJson.error.code).toBe('tool_limit');
      expect(JSON.stringify(r.errorJson.error)).toMatch(/memory/);
    },
  );

  it.runIf(tiers.includes('none'))("tier none says a tool can read toolbox's environment through /proc", async () => {
    expect((await describeSandboxTier('none')).warnings.join(' ')).toMatch(/\/proc\/<pid>\/environ/);
  });
});
