// A long-running library Runtime keeps warm workers; an edit of the tool's module or of a helper
// module beside it is picked up by the next call, and an unchanged tool stays warm.
import { afterAll, describe, expect, it } from 'vitest';
import { Runtime, resolveProject } from '../../src/index.js';
import { FRESH_STEPS, freshProject } from '../fixtures/tools/fresh.js';

const p = freshProject();
const rt = new Runtime(resolveProject({ cwd: p.dir }), { longRunning: true, env: { PATH: process.env.PATH } });
afterAll(async () => {
  await rt.close();
  p.cleanup();
});

describe('Runtime (longRunning): edited code is picked up by the next call', () => {
  it('Python and Node tools, the module and a helper beside it', async () => {
    for (const step of FRESH_STEPS) {
      if (step.edit) p.edit(...step.edit);
      const py = await rt.invoke({ id: 'fresh_py', args: {} });
      const js = await rt.invoke({ id: 'fresh_js', args: {} });
      expect({ edit: step.edit, py: py.result, js: js.result }).toEqual({ edit: step.edit, py: step.py, js: step.js });
      // The tool that was not edited stays warm (loaded once, not on every call).
      const edited = step.edit?.[0].startsWith('py') ? 'py' : step.edit ? 'js' : undefined;
      if (edited === 'py') expect(js.cacheHit).toBe(true);
      if (edited === 'js') expect(py.cacheHit).toBe(true);
      if (edited) expect((edited === 'py' ? py : js).cacheHit).toBe(false);
    }
    // Nothing changed: both answered by their warm workers.
    expect((await rt.invoke({ id: 'fresh_py', args: {} })).cacheHit).toBe(true);
    expect((await rt.invoke({ id: 'fresh_js', args: {} })).cacheHit).toBe(true);
  });

  it('a call running on the old code finishes on it; the next one runs the new code', async () => {
    // The old code stops at a question to its caller, so the test knows it is running before it edits.
    p.write(
      'fresh_py/asks.py',
      'from toolbox_tool import elicit\ndef ask():\n    elicit("go on?", {"type": "object", "properties": {}})\n    return "old"\n',
    );
    p.write(
      'tool_registry/fresh_asks.yaml',
      'id: fresh_asks\nname: fresh_asks\ndescription: Asks its caller a question, then returns which version ran. Use when testing reloads.\nschema: { type: object, properties: {} }\nloader: python_function\nloader_config:\n  module: fresh_py.asks\n  function: ask\n',
    );
    let asked!: () => void;
    const isAsked = new Promise<void>((r) => (asked = r));
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    const client = {
      async request() {
        asked();
        await answered;
        return { action: 'accept', content: {} };
      },
    };
    const running = rt.invoke({ id: 'fresh_asks', args: {}, client });
    await isAsked;
    p.write('fresh_py/asks.py', 'def ask():\n    return "new"\n');
    expect((await rt.invoke({ id: 'fresh_asks', args: {} })).result).toBe('new');
    answer();
    expect((await running).result).toBe('old');
  });
});
