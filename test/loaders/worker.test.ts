import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LoadedTool } from '../../src/loaders/types.js';
import { callCtx, loadTool, pidsWithEnv, rejection } from './helpers.js';

type Counted = { calls: number; pid: number };

/** Worker mode (LoadContext.longRunning): one persistent runner per loaded tool, for both languages. */
const cases = [
  { lang: 'python', loader: 'python_function' as const, module: 'l_py_tools', fns: { count: 'count', noisy: 'noisy', fail: 'fail' } },
  { lang: 'node', loader: 'node_module' as const, module: 'l_node_tools.mjs', fns: { count: 'count', noisy: 'noisy', fail: 'fail' } },
];

describe.each(cases)('$lang worker mode', ({ loader, module, fns }) => {
  const load = (fn: string) => loadTool(loader, { module, function: fn }, { longRunning: true });
  const count = async (tool: LoadedTool, env?: Record<string, string>) => (await tool.call({}, callCtx({ env }))).result as Counted;

  it('imports the module once and reuses the process across calls', async () => {
    const tool = await load(fns.count);
    try {
      const a = await count(tool);
      const b = await count(tool);
      const c = await count(tool);
      expect([a.calls, b.calls, c.calls]).toEqual([1, 2, 3]);
      expect(new Set([a.pid, b.pid, c.pid]).size).toBe(1);
    } finally { await tool.dispose?.(); }
  });

  it('serialises concurrent calls', async () => {
    const tool = await load(fns.count);
    try {
      const all = await Promise.all([1, 2, 3, 4, 5].map(() => count(tool)));
      expect(all.map((r) => r.calls).sort()).toEqual([1, 2, 3, 4, 5]);
    } finally { await tool.dispose?.(); }
  });

  it('a crashed worker fails that call and is restarted on the next (module imported afresh)', async () => {
    const tool = await load(fns.count);
    try {
      expect((await count(tool)).calls).toBe(1);
      const err = await rejection(tool.call({ crash: true }, callCtx()));
      expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
      expect(err.message).toMatch(/exited with code 3/);
      expect((await count(tool)).calls).toBe(1);
      expect((tool as unknown as { starts: number }).starts).toBe(2);
    } finally { await tool.dispose?.(); }
  });

  it('a timeout kills the worker; the next call gets a fresh one', async () => {
    const tool = await load(fns.count);
    try {
      expect((await count(tool)).calls).toBe(1);
      const err = await rejection(tool.call({ sleep: 10 }, callCtx({ timeout: '700ms' })));
      expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'timeout' });
      expect((await count(tool)).calls).toBe(1);
      expect((tool as unknown as { starts: number }).starts).toBe(2);
    } finally { await tool.dispose?.(); }
  });

  it("prints never corrupt replies, and each call's logs are its own", async () => {
    const tool = await load(fns.noisy);
    try {
      const a = await tool.call({ x: 'first' }, callCtx());
      const b = await tool.call({ x: 'second' }, callCtx());
      expect([a.result, b.result]).toEqual([{ x: 'first' }, { x: 'second' }]);
      expect(a.logs).toContain('first');
      expect(b.logs).toContain('second');
      expect(b.logs).not.toContain('first');
    } finally { await tool.dispose?.(); }
  });

  it('an exception fails the call but keeps the worker', async () => {
    const tool = await load(fns.fail);
    try {
      const err = await rejection(tool.call({ msg: 'x' }, callCtx()));
      expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
      expect(err.traceback).toBeTruthy();
      expect(await rejection(tool.call({ msg: 'y' }, callCtx()))).toMatchObject({ kind: 'failed' });
      expect((tool as unknown as { starts: number }).starts).toBe(1);
    } finally { await tool.dispose?.(); }
  });

  it('an output flood is a limit hit; the worker is replaced', async () => {
    const flood = await load('flood');
    try {
      expect(await rejection(flood.call({}, callCtx({ sandbox: { output: '256K' } })))).toMatchObject({ kind: 'limit', limit: 'output' });
    } finally { await flood.dispose?.(); }
  });

  it('an aborted call is cancelled and its worker killed', async () => {
    const tool = await load(fns.count);
    try {
      const ac = new AbortController();
      const p = tool.call({ sleep: 10 }, callCtx({ signal: ac.signal }));
      setTimeout(() => ac.abort(), 300);
      expect(await rejection(p)).toMatchObject({ code: 'cancelled', exitCode: 130 });
      expect((await count(tool)).calls).toBe(1);
    } finally { await tool.dispose?.(); }
  });

  it('a missing function is reported from the worker too', async () => {
    const tool = await load('l_no_such_fn');
    try {
      expect(await rejection(tool.call({}, callCtx()))).toMatchObject({ code: 'tool_function_not_found', exitCode: 3 });
    } finally { await tool.dispose?.(); }
  });

  it('dispose() during a call ends that call instead of waiting for it', async () => {
    const tool = await load(fns.count);
    await count(tool); // the worker is up, so the next call is in flight, not starting
    const p = tool.call({ sleep: 20 }, callCtx());
    await new Promise((r) => setTimeout(r, 300));
    await tool.dispose?.();
    expect(await rejection(p)).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
  });

  it('dispose() ends the worker process tree', async () => {
    const mark = randomUUID();
    const tool = await load(fns.count);
    await count(tool, { L_MARK: mark });
    expect(pidsWithEnv('L_MARK', mark).length).toBeGreaterThan(0);
    await tool.dispose?.();
    expect(pidsWithEnv('L_MARK', mark)).toEqual([]);
  });
});

describe('python worker and the CPU limit', () => {
  it('a worker near its cumulative CPU limit is replaced before a call instead of being killed in one', async () => {
    const tool = await loadTool('python_function', { module: 'l_py_tools', function: 'burn' }, { longRunning: true });
    const sandbox = { cpu: 2 };
    try {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(((await tool.call({ seconds: 0.7 }, callCtx({ sandbox }))).result as Counted).calls);
      // Without recycling the third call would pass 2 s of CPU in one process and be killed.
      expect(runs).toEqual([1, 2, 1]);
    } finally { await tool.dispose?.(); }
  });
});
