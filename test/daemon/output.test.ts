// The client writes the daemon's output straight to its file descriptors. A stdout that is a full,
// non-blocking pipe (shared with a parent that set O_NONBLOCK) must not lose or garble anything:
// the rest goes through the stream, which waits for the reader.
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers.js';
import { marker } from '../sandbox/helpers.js';
import { daemonProject } from './helpers.js';

const SIZE = 300_000;
const p = daemonProject(marker());
beforeAll(async () => {
  p.write(
    'tool_registry/big.yaml',
    `id: big
name: big
description: Prints three hundred thousand characters so that a reader's pipe fills up.
schema: { type: object, properties: {} }
loader: command
loader_config:
  argv: [python3, -c, "import sys; sys.stdout.write('ab' * ${SIZE / 2})"]
`,
  );
  expect((await p.tb(['daemon', 'start', '--json'])).code).toBe(0);
}, 30_000);
afterAll(() => p.cleanup(), 30_000);

describe('daemon client output', () => {
  it('a full non-blocking stdout pipe: every byte arrives, in order, exit 0', async () => {
    const before = (await p.status()).requests as number;
    const fifo = join(p.dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const rd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const wr = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    const child = spawn(process.execPath, [BIN, 'run', 'big'], {
      cwd: p.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
      stdio: ['ignore', wr, 'ignore'],
    });
    closeSync(wr);
    const exited = once(child, 'exit');
    // Read nothing until the client has surely met the full pipe, then drain it.
    await new Promise((r) => setTimeout(r, 1500));
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(65536);
    let done = false;
    void exited.then(() => (done = true));
    for (;;) {
      let n: number;
      try {
        n = readSync(rd, buf, 0, buf.length, null);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      if (n === 0 && done) break;
      if (n === 0) await new Promise((r) => setTimeout(r, 10));
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    closeSync(rd);
    const [code] = (await exited) as [number];
    const out = Buffer.concat(chunks).toString('utf8');
    expect(code).toBe(0);
    // More than a pipe holds, all in order, through to the CLI's own note at the very end (the
    // output cap cuts the tool's text at 20,000 tokens, as directly).
    expect(out.length).toBeGreaterThan(65_536);
    const [, body, note] = /^((?:ab)+)\n*(\[toolbox: output cut at [^\n]*\])\n$/.exec(out) ?? [];
    expect({ body: body?.length, note: note?.includes('(full result: 300000 bytes)') }).toEqual({
      body: expect.any(Number),
      note: true,
    });
    expect((await p.status()).requests).toBe(before + 1); // it went through the daemon
  }, 60_000);
});
