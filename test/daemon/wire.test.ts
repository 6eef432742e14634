// The daemon client's connection (src/daemon/client/wire.ts) against a real Unix-socket server: whole
// messages of any size in either direction, the errors a missing or dead daemon gives, a connection
// the client ends while data still flows, and the terminal facts it reports from a real pty.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openWire, terminalFacts, type Wire } from '../../src/daemon/client/wire.js';
import { REPO } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'toolbox-wire-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const sockPath = () => join(dir, `s${n++}.sock`);

/** Everything a connection reports, in order, until 'close'. */
function record(path: string, onConnect?: (w: Wire) => void, onMessage?: (w: Wire) => void) {
  const events: string[] = [];
  const messages: Record<string, unknown>[] = [];
  let wire: Wire;
  const closed = new Promise<void>((resolve) => {
    wire = openWire(path, {
      connect: () => (events.push('connect'), onConnect?.(wire)),
      message: (m) => (messages.push(m), onMessage?.(wire)),
      garbled: () => events.push('garbled'),
      error: (e) => events.push(`error:${e.code}`),
      close: () => (events.push('close'), resolve()),
    });
  });
  return { events, messages, closed };
}

async function serve(onConn: (s: Socket) => void): Promise<[Server, string]> {
  const p = sockPath();
  const server = createServer(onConn);
  await new Promise<void>((r) => server.listen(p, r));
  return [server, p];
}

describe('daemon client connection', () => {
  it('1 MB each way (partial writes, many reads, multi-byte characters across chunks), then the peer ends', async () => {
    const big = 'é漢x'.repeat(200_000); // 1.2 MB of UTF-8
    const [server, p] = await serve((s) => {
      let got = '';
      s.setEncoding('utf8');
      s.on('data', (d: string) => {
        got += d;
        if (!got.endsWith('\n')) return;
        const { d: text } = JSON.parse(got) as { d: string };
        s.end(JSON.stringify({ t: 'len', n: text.length }) + '\n' + JSON.stringify({ t: 'o', d: text }) + '\n');
      });
    });
    try {
      const r = record(p, (w) => w.send({ t: 'in', d: big }));
      await r.closed;
      expect(r.events).toEqual(['connect', 'close']);
      expect(r.messages).toEqual([
        { t: 'len', n: big.length },
        { t: 'o', d: big },
      ]);
    } finally {
      server.close();
    }
  });

  it('a line that is not JSON: garbled, and nothing after it is read', async () => {
    const [server, p] = await serve((s) => s.end('{"t":"ack"}\nnot json\n{"t":"exit","code":0}\n'));
    try {
      const r = record(p);
      await r.closed;
      expect(r.messages).toEqual([{ t: 'ack' }]);
      expect(r.events).toEqual(['connect', 'garbled', 'close']);
    } finally {
      server.close();
    }
  });

  it('no socket file: ENOENT, then close', async () => {
    const r = record(join(dir, 'missing.sock'));
    await r.closed;
    expect(r.events).toEqual(['error:ENOENT', 'close']);
  });

  it('a socket nobody listens on (a dead daemon): ECONNREFUSED, then close', async () => {
    const p = sockPath();
    // Bound, never listening, and its process gone: what a SIGKILLed daemon leaves behind.
    execFileSync('python3', ['-c', 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', p]);
    const r = record(p);
    await r.closed;
    expect(r.events).toEqual(['error:ECONNREFUSED', 'close']);
  });

  it('destroyed by the caller while data flows: close once, no message after it', async () => {
    const [server, p] = await serve((s) => {
      const t = setInterval(() => s.write('{"t":"o","d":"tick"}\n{"t":"o","d":"tock"}\n'), 5);
      s.on('close', () => clearInterval(t));
      s.on('error', () => {});
    });
    try {
      const r = record(p, undefined, (w) => w.destroy());
      await r.closed;
      await new Promise((res) => setTimeout(res, 50));
      expect(r.events).toEqual(['connect', 'close']);
      expect(r.messages).toEqual([{ t: 'o', d: 'tick' }]);
    } finally {
      server.close();
    }
  });

  it('terminal facts: none here (pipes); a terminal and its width on a pty where script(1) exists', () => {
    expect(terminalFacts()).toMatchObject({ stdinTTY: false, out: { tty: false }, err: { tty: false } });
    const wire = join(REPO, 'dist', 'daemon', 'client', 'wire.js');
    const code = `import(${JSON.stringify(wire)}).then((w) => console.log(JSON.stringify(w.terminalFacts())))`;
    const r = spawnSync('script', ['-qec', `stty cols 57; ${process.execPath} -e '${code}'`, '/dev/null'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const facts = JSON.parse(r.stdout.trim().split('\n').pop()!) as ReturnType<typeof terminalFacts>;
    expect(facts).toEqual({ stdinTTY: true, out: { tty: true, columns: 57 }, err: { tty: true, columns: 57 } });
  });
});
