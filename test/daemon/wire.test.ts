// The daemon client's raw socket (bin/daemon-wire.js) against a real Unix-socket server: it must
// behave as the net.Socket it replaces does for everything daemon-call.js relies on, so each case
// runs on both and compares.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';

interface Conn {
  on(event: string, fn: (arg?: unknown) => void): unknown;
  write(s: string): unknown;
  destroy(): void;
}
const wire = createRequire(import.meta.url)(join(REPO, 'bin', 'daemon-wire.js')) as {
  rawConnect(path: string): Conn | undefined;
  rawBindings(): object | undefined;
  isatty(fd: number): boolean;
};

const dir = mkdtempSync(join(tmpdir(), 'toolbox-wire-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const sockPath = () => join(dir, `s${n++}.sock`);

const kinds: [string, (p: string) => Conn][] = [
  ['raw', (p) => wire.rawConnect(p)!],
  ['net', (p) => createConnection(p) as unknown as Conn],
];

/** Everything a connection reports, in order, until 'close' (data joined into one string). */
function record(c: Conn, onConnect?: () => void) {
  const events: string[] = [];
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve) => {
    c.on('connect', () => (events.push('connect'), onConnect?.()));
    c.on('data', (d) => chunks.push(d as Buffer));
    c.on('error', (e) => events.push(`error:${(e as NodeJS.ErrnoException).code}`));
    c.on('close', () => (events.push('close'), resolve()));
  });
  return { events, closed, data: () => Buffer.concat(chunks).toString('utf8') };
}

async function serve(onConn: (s: Socket) => void): Promise<[Server, string]> {
  const p = sockPath();
  const server = createServer(onConn);
  await new Promise<void>((r) => server.listen(p, r));
  return [server, p];
}

describe('daemon client socket without node:net', () => {
  it('is available on this Node (else every client would pay for node:net)', () => {
    expect(wire.rawBindings()).toBeDefined();
  });

  it.each(kinds)(
    '%s: 1 MB each way (partial writes, many reads), then the peer ends: close, no error',
    async (_, open) => {
      const big = 'é漢x'.repeat(200_000) + '\n'; // multi-byte characters across chunk boundaries
      const [server, p] = await serve((s) => {
        let got = '';
        s.setEncoding('utf8');
        s.on('data', (d: string) => {
          got += d;
          if (got.endsWith('\n')) s.end(`${got.length}\n${got}`);
        });
      });
      try {
        const c = open(p);
        const r = record(c, () => c.write(big));
        await r.closed;
        expect(r.events).toEqual(['connect', 'close']);
        expect(r.data()).toBe(`${big.length}\n${big}`);
      } finally {
        server.close();
      }
    },
  );

  it.each(kinds)('%s: no socket file: ENOENT, then close', async (_, open) => {
    const r = record(open(join(dir, 'missing.sock')));
    await r.closed;
    expect(r.events).toEqual(['error:ENOENT', 'close']);
  });

  it.each(kinds)('%s: a socket nobody listens on (a dead daemon): ECONNREFUSED, then close', async (_, open) => {
    const p = sockPath();
    // Bound, never listening, and its process gone: what a SIGKILLed daemon leaves behind.
    execFileSync('python3', ['-c', 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', p]);
    const r = record(open(p));
    await r.closed;
    expect(r.events).toEqual(['error:ECONNREFUSED', 'close']);
  });

  it.each(kinds)('%s: destroyed by the caller while data flows: close once, nothing after it', async (_, open) => {
    const [server, p] = await serve((s) => {
      const t = setInterval(() => s.write('tick\n'), 5);
      s.on('close', () => clearInterval(t));
      s.on('error', () => {});
    });
    try {
      const c = open(p);
      const r = record(c);
      c.on('data', () => c.destroy());
      await r.closed;
      await new Promise((res) => setTimeout(res, 50));
      expect(r.events).toEqual(['connect', 'close']);
      expect(r.data()).toMatch(/^(tick\n)+$/);
    } finally {
      server.close();
    }
  });

  it('isatty answers as node:tty does (no terminal here; a pty where script(1) exists)', () => {
    const tty = createRequire(import.meta.url)('node:tty') as { isatty(fd: number): boolean };
    for (const fd of [0, 1, 2, 99]) expect(wire.isatty(fd)).toBe(tty.isatty(fd));
    const code = `const w=require(${JSON.stringify(join(REPO, 'bin', 'daemon-wire.js'))});process.exit(w.isatty(1)&&w.isatty(0)?0:3)`;
    const r = spawnSync('script', ['-qec', `${process.execPath} -e '${code}'`, '/dev/null'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
  });
});
