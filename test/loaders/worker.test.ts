import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ToolEntry } from '../../src/contract/types.js';
import type { LoadedTool } from '../../src/loaders/types.js';
import { needsFreshWorker, Worker } from '../../src/loaders/util/worker.js';
import type { SandboxProcess, SandboxResult } from '../../src/sandbox/types.js';
import { callCtx, loadTool, pidsWithEnv, rejection } from './helpers.js';

type Counted = { calls: number; pid: number };

/** Worker mode (LoadContext.longRunning): one persistent runner per loaded tool, for both languages. */
const cases = [
  {
    lang: 'python',
    loader: 'python_function' as const,
    module: 'l_py_tools',
    fns: { count: 'count', noisy: 'noisy', fail: 'fail' },
  },
  {
    lang: 'node',
    loader: 'node_module' as const,
    module: 'l_node_tools.mjs',
    fns: { count: 'count', noisy: 'noisy', fail: 'fail' },
  },
];

describe.each(cases)('$lang worker mode', ({ loader, module, fns }) => {
  const load = (fn: string) => loadTool(loader, { module, function: fn }, { longRunning: true });
  const count = async (tool: LoadedTool, env?: Record<string, string>) =>
    (await tool.call({}, callCtx({ env }))).result as Counted;

  it('imports the module once and reuses the process across calls', async () => {
    const tool = await load(fns.count);
    try {
      const a = await count(tool);
      const b = await count(tool);
      const c = await count(tool);
      expect([a.calls, b.calls, c.calls]).toEqual([1, 2, 3]);
      expect(new Set([a.pid, b.pid, c.pid]).size).toBe(1);
    } finally {
      await tool.dispose?.();
    }
  });

  it('runs concurrent calls on a bounded pool of workers, each serialising its own', async () => {
    const tool = await load(fns.count);
    try {
      const all = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(() => count(tool)));
      const starts = (tool as unknown as { starts: number }).starts;
      // At most runtime.pool_size (4) workers; every worker's own calls are numbered 1, 2, … in turn.
      expect(starts).toBeGreaterThanOrEqual(1);
      expect(starts).toBeLessThanOrEqual(4);
      expect(all.filter((r) => r.calls === 1)).toHaveLength(starts);
      expect(all.map((r) => r.calls).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10);
    } finally {
      await tool.dispose?.();
    }
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
    } finally {
      await tool.dispose?.();
    }
  });

  it('a timeout kills the worker; the next call gets a fresh one', async () => {
    const tool = await load(fns.count);
    try {
      expect((await count(tool)).calls).toBe(1);
      const err = await rejection(tool.call({ sleep: 10 }, callCtx({ timeout: '700ms' })));
      expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'timeout' });
      expect((await count(tool)).calls).toBe(1);
      expect((tool as unknown as { starts: number }).starts).toBe(2);
    } finally {
      await tool.dispose?.();
    }
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
    } finally {
      await tool.dispose?.();
    }
  });

  it('an exception fails the call but keeps the worker', async () => {
    const tool = await load(fns.fail);
    try {
      const err = await rejection(tool.call({ msg: 'x' }, callCtx()));
      expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
      expect(err.traceback).toBeTruthy();
      expect(await rejection(tool.call({ msg: 'y' }, callCtx()))).toMatchObject({ kind: 'failed' });
      expect((tool as unknown as { starts: number }).starts).toBe(1);
    } finally {
      await tool.dispose?.();
    }
  });

  it('an output flood is a limit hit; the worker is replaced', async () => {
    const flood = await load('flood');
    try {
      expect(await rejection(flood.call({}, callCtx({ sandbox: { output: '256K' } })))).toMatchObject({
        kind: 'limit',
        limit: 'output',
      });
    } finally {
      await flood.dispose?.();
    }
  });

  it('an aborted call is cancelled and its worker killed', async () => {
    const tool = await load(fns.count);
    try {
      const ac = new AbortController();
      const p = tool.call({ sleep: 10 }, callCtx({ signal: ac.signal }));
      setTimeout(() => ac.abort(), 300);
      expect(await rejection(p)).toMatchObject({ code: 'cancelled', exitCode: 130 });
      expect((await count(tool)).calls).toBe(1);
    } finally {
      await tool.dispose?.();
    }
  });

  it('a missing function is reported from the worker too', async () => {
    const tool = await load('l_no_such_fn');
    try {
      expect(await rejection(tool.call({}, callCtx()))).toMatchObject({ code: 'tool_function_not_found', exitCode: 3 });
    } finally {
      await tool.dispose?.();
    }
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

describe('worker CPU budget: the replacement rule', () => {
  // RLIMIT_CPU counts a worker's whole life. Numbers are injected, so nothing here depends on timing.
  it('replaces a worker whose next call (as large as the largest seen) could pass the limit', () => {
    // 2 s limit, calls of 0.7 s: room for one more after the first call, not after the second.
    expect(needsFreshWorker(0.05 + 0.7, 0.7, 2)).toBe(false);
    expect(needsFreshWorker(0.05 + 1.4, 0.7, 2)).toBe(true);
    // A fresh worker with nothing measured yet is kept.
    expect(needsFreshWorker(0.05, 0, 2)).toBe(false);
  });

  it('keeps at least 20% of the limit free even when every call so far was tiny', () => {
    expect(needsFreshWorker(1.55, 0.01, 2)).toBe(false); // 1.55 + 0.4 <= 2
    expect(needsFreshWorker(1.65, 0.01, 2)).toBe(true); // 1.65 + 0.4 > 2
    expect(needsFreshWorker(23.9, 0.5, 30)).toBe(false);
    expect(needsFreshWorker(24.1, 0.5, 30)).toBe(true);
  });
});

/**
 * A scripted stand-in for a worker process: it speaks the runner protocol and reports CPU seconds
 * that the test chooses (each request's `cpu` argument is what that call "uses").
 */
function scriptedWorker(helloCpu: number) {
  const procs: { requests: unknown[]; killed: boolean }[] = [];
  const start = async (): Promise<SandboxProcess> => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const me = { requests: [] as unknown[], killed: false };
    procs.push(me);
    let cpu = helloCpu;
    let calls = 0;
    let buf = '';
    let hello = true;
    let exit!: (r: SandboxResult) => void;
    const exited = new Promise<SandboxResult>((r) => (exit = r));
    const reply = (o: object) => stdout.write('\x1e' + JSON.stringify(o) + '\n');
    stdin.setEncoding('utf8');
    stdin.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (me.killed) continue;
        if (hello) {
          hello = false;
          reply({ ready: true, cpu });
          continue;
        }
        const req = JSON.parse(line) as { id: number; args: { cpu: number } };
        me.requests.push(req.args);
        cpu += req.args.cpu;
        // Over the limit a real worker is killed by the kernel (SIGXCPU/SIGKILL) in the middle of the call.
        if (cpu > 2) {
          me.killed = true;
          exit({ ...dead, signal: 'SIGKILL', limit: 'cpu' });
          continue;
        }
        reply({ id: req.id, ok: true, result: { calls: ++calls, proc: procs.indexOf(me) }, cpu });
      }
    });
    const dead: SandboxResult = {
      exitCode: null,
      signal: 'SIGKILL',
      stdout: '',
      stderr: '',
      timedOut: false,
      durationMs: 0,
      tier: 'none',
      workDir: '',
    };
    return {
      stdin,
      stdout,
      stderr,
      pid: undefined,
      exited,
      kill: () => {
        me.killed = true;
        exit(dead);
      },
    };
  };
  const entry = { contract: { id: 'l_test_tool' }, file: 'l_test_tool.yaml', line: 1 } as unknown as ToolEntry;
  const worker = new Worker({
    entry,
    what: 'test worker',
    hello: {},
    start,
    tier: async () => 'none',
    spec: async (ctx) => ({ command: 'x', args: [], env: {}, readOnlyPaths: [], network: false, limits: ctx.limits }),
  });
  return { worker, procs };
}

describe('worker CPU budget: a worker near its limit is replaced before the next call', () => {
  const ctx = () => callCtx({ sandbox: { cpu: 2 } });

  it('the call that would pass the limit goes to a fresh worker, not into the old one', async () => {
    const { worker, procs } = scriptedWorker(0.05);
    try {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push((await worker.call({ cpu: 0.7 }, ctx())).result);
      // 0.05 + 0.7 + 0.7 used: the third 0.7 s call would reach 2.15 s, so it runs in a new process.
      expect(runs).toEqual([
        { calls: 1, proc: 0 },
        { calls: 2, proc: 0 },
        { calls: 1, proc: 1 },
      ]);
      expect(worker.starts).toBe(2);
      expect(procs[0]).toEqual({ requests: [{ cpu: 0.7 }, { cpu: 0.7 }], killed: true });
    } finally {
      await worker.dispose();
    }
  });

  it('the 20% floor recycles a worker that only ever ran small calls', async () => {
    const { worker } = scriptedWorker(0);
    try {
      const procs = [];
      for (let i = 0; i < 6; i++)
        procs.push(((await worker.call({ cpu: 0.3 }, ctx())).result as { proc: number }).proc);
      // After 5 × 0.3 = 1.5 s the next call still fits (1.5 + 0.4 <= 2); after 1.8 s it does not.
      expect(procs).toEqual([0, 0, 0, 0, 0, 0]);
      expect(((await worker.call({ cpu: 0.3 }, ctx())).result as { proc: number }).proc).toBe(1);
    } finally {
      await worker.dispose();
    }
  });

  it('the test double enforces the limit as RLIMIT_CPU does: a call past it is killed mid-call', async () => {
    const { worker } = scriptedWorker(0.05);
    try {
      // One 2.5 s call is larger than the whole limit: no replacement can save it.
      expect(await rejection(worker.call({ cpu: 2.5 }, ctx()))).toMatchObject({
        name: 'ToolRunError',
        kind: 'limit',
        limit: 'cpu',
      });
    } finally {
      await worker.dispose();
    }
  });
});

describe('python worker and the CPU limit', () => {
  it('a worker near its cumulative CPU limit is replaced before a call instead of being killed in one', async () => {
    // Real RLIMIT_CPU, with margins that do not depend on load: each call burns 60% of the 2 s limit,
    // so a second call in the same process (>= 2.4 s) would always be killed, and the rule must
    // always replace it (the first call only needs interpreter start-up to stay under 0.8 s).
    const tool = await loadTool('python_function', { module: 'l_py_tools', function: 'burn' }, { longRunning: true });
    const sandbox = { cpu: 2 };
    try {
      const runs = [];
      for (let i = 0; i < 2; i++)
        runs.push(((await tool.call({ seconds: 1.2 }, callCtx({ sandbox }))).result as Counted).calls);
      expect(runs).toEqual([1, 1]);
      expect((tool as unknown as { starts: number }).starts).toBe(2);
    } finally {
      await tool.dispose?.();
    }
  });
});
