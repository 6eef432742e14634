// Many concurrent calls: none lost, none answered twice, a hung tool blocks nobody, bounded queue.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, testConfigEnv } from '../helpers.js';
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
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() },
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
