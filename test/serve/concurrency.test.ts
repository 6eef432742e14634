// Many concurrent calls: none lost, none answered twice, a hung tool blocks nobody, bounded queue.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN } from '../helpers.js';
import { Limiter } from '../../src/serve/limiter.js';
import { ToolboxError } from '../../src/errors.js';
import { serveProject } from './fixtures.js';

const proj = serveProject();
afterAll(() => proj.cleanup());

interface Msg {
  id?: number;
  result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
  error?: unknown;
}

describe('toolbox serve under concurrent load (raw JSON-RPC over stdio)', () => {
  it('answers each of 20 parallel calls exactly once, the hung one with a timeout', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--registry', proj.registry, '--expose', 'all'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const seen: Msg[] = [];
    let buf = '';
    let onMsg = () => {};
    child.stdout.on('data', (c: Buffer) => {
      buf += c;
      for (let i; (i = buf.indexOf('\n')) >= 0;) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) seen.push(JSON.parse(line) as Msg);
      }
      onMsg();
    });
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    const until = (pred: () => boolean) =>
      new Promise<void>((res) => {
        onMsg = () => {
          if (pred()) res();
        };
        onMsg();
      });

    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await until(() => seen.some((m) => m.id === 0));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const HUNG = 13;
    for (let id = 1; id <= 20; id++) {
      const params =
        id === HUNG
          ? { name: 'slow_sleep', arguments: { seconds: 60 } }
          : id % 2
            ? { name: 'echo_text', arguments: { text: `call ${id}` } }
            : { name: 'add_numbers', arguments: { a: id, b: 0.5 } };
      send({ jsonrpc: '2.0', id, method: 'tools/call', params });
    }
    await until(() => new Set(seen.filter((m) => typeof m.id === 'number' && m.id > 0).map((m) => m.id)).size === 20);
    child.stdin.end();
    expect(await exited).toBe(0);

    const replies = seen.filter((m) => typeof m.id === 'number' && m.id > 0);
    expect(replies.length).toBe(20);
    for (let id = 1; id <= 20; id++) {
      const mine = replies.filter((m) => m.id === id);
      expect(mine.length).toBe(1);
      const r = mine[0]!.result!;
      if (id === HUNG) {
        expect(r.isError).toBe(true);
        expect((r.structuredContent as { error: { code: string } }).error.code).toBe('tool_timeout');
      } else {
        expect(r.isError).toBeFalsy();
        expect(r.structuredContent).toEqual(id % 2 ? { echo: `call ${id}` } : { sum: id + 0.5 });
      }
    }
  });
});

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
