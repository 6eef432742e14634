import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { Runtime, resolveProject, ToolboxError } from '../../src/index.js';
import { memoryIO } from '../../src/io.js';
import { run } from '../../src/main.js';
import { pyTool, runProject, shellTool } from '../fixtures/tools/r_project.js';

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const S = 'schema:\n  type: object\n  properties:\n    name: { type: string }\n';

function setup(contracts: Record<string, string>, opts: ConstructorParameters<typeof Runtime>[1] = {}) {
  const p = runProject(contracts);
  const rt = new Runtime(resolveProject({ cwd: p.dir }), {
    longRunning: true,
    env: { PATH: process.env.PATH },
    ...opts,
  });
  cleanups.push(p.cleanup, () => rt.close());
  return { p, rt };
}

describe('Runtime (library API, long-running)', () => {
  it('loads on first call, then serves from the cache', async () => {
    const { rt } = setup({ a: pyTool('a', 'echo_args', S) });
    expect(rt.loaded()).toEqual([]);
    const first = await rt.invoke({ id: 'a', args: { name: 'x' } });
    expect(first).toMatchObject({ ok: true, cacheHit: false, result: { args: { name: 'x' } } });
    const second = await rt.invoke({ id: 'a', args: { name: 'y' } });
    expect(second).toMatchObject({ cacheHit: true, loadMs: 0, result: { args: { name: 'y' } } });
    expect(rt.loaded()).toEqual(['a']);
  });

  it('evicts the least recently used tool past cacheSize, but keeps tools pinned by a session', async () => {
    const tools = { a: pyTool('a', 'echo_args', S), b: pyTool('b', 'echo_args', S), c: pyTool('c', 'echo_args', S) };
    const { rt } = setup(tools, { cacheSize: 2 });
    await rt.invoke({ id: 'a', args: {}, session: 'conv1' });
    await rt.invoke({ id: 'b', args: {} });
    await rt.invoke({ id: 'c', args: {} });
    // a is pinned by conv1, so b (the oldest unpinned) went.
    expect(rt.loaded().sort()).toEqual(['a', 'c']);
    expect((await rt.invoke({ id: 'a', args: {} })).cacheHit).toBe(true);
    rt.endSession('conv1');
    await rt.invoke({ id: 'b', args: {} });
    expect(rt.loaded()).toHaveLength(2);
    expect(rt.loaded()).toContain('b');
  });

  it('warm() loads tools marked warm ahead of their first call', async () => {
    const { rt } = setup({ w: pyTool('w', 'echo_args', S, 'warm: true\n'), cold: pyTool('cold', 'echo_args', S) });
    const res = await rt.warm();
    expect(res.loaded).toEqual(['w']);
    expect(rt.loaded()).toEqual(['w']);
    expect((await rt.invoke({ id: 'w', args: {} })).cacheHit).toBe(true);
  });

  it('reloads a tool whose contract changed', async () => {
    const { p, rt } = setup({ t: pyTool('t', 'echo_args', S, 'format: "one {{args.name}}"\n') });
    expect((await rt.invoke({ id: 't', args: { name: 'x' } })).text).toBe('one x');
    const f = p.write('tool_registry/t.yaml', pyTool('t', 'echo_args', S, 'format: "two {{args.name}}"\n'));
    utimesSync(f, new Date(), new Date(Date.now() + 5000));
    const r = await rt.invoke({ id: 't', args: { name: 'x' } });
    expect(r.text).toBe('two x');
    expect(r.cacheHit).toBe(false);
  });

  it('throws ToolboxError with the documented codes and logs each call with via=library', async () => {
    const { p, rt } = setup({ a: pyTool('a', 'echo_args', S), boom: pyTool('boom', 'boom', S) });
    await expect(rt.invoke({ id: 'a', args: { name: 5 } })).rejects.toMatchObject({
      code: 'invalid_arguments',
      exitCode: 2,
    });
    const err = await rt.invoke({ id: 'boom', args: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolboxError);
    expect(err).toMatchObject({ code: 'tool_failed', exitCode: 4 });
    expect(String((err as ToolboxError).details?.traceback)).toMatch(/ValueError/);
    const lines = readFileSync(join(p.dir, '.toolbox', 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.tool, l.outcome, l.via])).toEqual([
      ['a', 'invalid_arguments', 'library'],
      ['boom', 'tool_failed', 'library'],
    ]);
  });

  it('names parameters (not flags) in validation messages by default', async () => {
    const { rt } = setup({
      a: pyTool(
        'a',
        'echo_args',
        'schema:\n  type: object\n  properties:\n    name: { type: string }\n  required: [name]\n',
      ),
    });
    await expect(rt.invoke({ id: 'a', args: {} })).rejects.toThrow(/missing required argument 'name'/);
  });
});

describe('cancellation', () => {
  it('Ctrl+C (the io signal) stops the call: exit 130', async () => {
    const p = runProject({ sleepy: shellTool('sleepy', 'r_sleep.sh', [], undefined, 'timeout: 60\n') });
    cleanups.push(p.cleanup);
    const ac = new AbortController();
    const io = { ...memoryIO({ cwd: p.dir, env: { PATH: process.env.PATH } }), signal: ac.signal };
    setTimeout(() => ac.abort(), 500);
    const code = await run(['run', 'sleepy'], io);
    expect(code).toBe(130);
    const log = readFileSync(join(p.dir, '.toolbox', 'calls.jsonl'), 'utf8');
    expect(JSON.parse(log.trim()).outcome).toBe('cancelled');
  });
});
