// The limiter that serve and the daemon share: at most maxActive calls at once, a bounded queue.
import { describe, expect, it } from 'vitest';
import type { ToolboxError } from '../../src/errors.js';
import { Limiter } from '../../src/runtime/limiter.js';

describe('Limiter', () => {
  const gate = () => {
    let open!: () => void;
    const p = new Promise<void>((r) => {
      open = r;
    });
    return { p, open };
  };

  it('runs at most maxActive at once, then the queued ones in order', async () => {
    const l = new Limiter(2, 10);
    const g = [gate(), gate(), gate()];
    const order: number[] = [];
    const runs = g.map((x, i) =>
      l.run(async () => {
        order.push(i);
        await x.p;
        return i;
      }),
    );
    await Promise.resolve();
    expect(l.running).toBe(2);
    expect(l.queued).toBe(1);
    g[0]!.open();
    await runs[0];
    await expect.poll(() => order.length).toBe(3);
    g[1]!.open();
    g[2]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(l.running).toBe(0);
  });

  it('refuses calls past the queue bound (server_busy) and drops cancelled waiters', async () => {
    const l = new Limiter(1, 1);
    const hold = gate();
    const first = l.run(() => hold.p);
    const ac = new AbortController();
    const waiting = l.run(async () => 'never', ac.signal);
    const busy = await l.run(async () => 'x').catch((e: unknown) => e);
    expect((busy as ToolboxError).code).toBe('server_busy');
    ac.abort();
    expect(((await waiting.catch((e: unknown) => e)) as ToolboxError).code).toBe('cancelled');
    expect(l.queued).toBe(0);
    hold.open();
    await first;
    expect(await l.run(async () => 'after')).toBe('after');
  });

  it("shares a full queue: a newcomer takes the place of the longest queue's newest call", async () => {
    const l = new Limiter(1, 4);
    const hold = gate();
    const running = l.run(() => hold.p, undefined, { client: 'a' });
    const a = Array.from({ length: 4 }, (_, i) => l.run(async () => `a${i}`, undefined, { client: 'a' }));
    const refused = await l.run(async () => 'a5', undefined, { client: 'a' }).catch((e: unknown) => e);
    expect((refused as ToolboxError).code).toBe('server_busy'); // alone, a gets no more than the queue
    const b = [
      l.run(async () => 'b0', undefined, { client: 'b' }),
      l.run(async () => 'b1', undefined, { client: 'b' }),
    ];
    // b now has 2 places, a 2; a third call of b would make b's queue the longest: refused.
    const b2 = await l.run(async () => 'b2', undefined, { client: 'b' }).catch((e: unknown) => e);
    expect((b2 as ToolboxError).code).toBe('server_busy');
    expect(l.queued).toBe(4);
    hold.open();
    await running;
    const settled = await Promise.allSettled([...a, ...b]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as ToolboxError).code))).toEqual([
      'a0',
      'a1',
      'server_busy',
      'server_busy',
      'b0',
      'b1',
    ]);
  });
});
