// The owner of a loopback connection, read from /proc/net/tcp{,6}: real connections over IPv4,
// IPv6 and IPv4-mapped addresses, from this user and (as root) from another uid.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer, connect, type Socket } from 'node:net';
import { findUid, peerUid, peerUidAvailable } from '../../src/serve/peer-uid.js';
import { peerCheckWorks } from '../../src/serve/auth.js';

const root = process.getuid?.() === 0;

/** Accept one connection on `host`, dialled to `target` by us or by `uid`; the owner seen by the server. */
async function ownerSeen(host: string, target: string, uid?: number): Promise<number | undefined> {
  const srv = createServer();
  const accepted = new Promise<Socket>((r) => srv.once('connection', r));
  await new Promise<void>((r) => srv.listen(0, host, () => r()));
  const port = (srv.address() as { port: number }).port;
  let done: Promise<unknown>;
  if (uid === undefined) {
    const c = connect(port, target);
    done = new Promise((r) => c.once('close', r));
    const s = await accepted;
    const owner = await peerUid(s);
    c.destroy();
    srv.close();
    await done;
    return owner;
  }
  // A client that connects and waits for the server to close the connection.
  const script = `const c = require('net').connect(${port}, ${JSON.stringify(target)}); c.resume(); c.on('error', () => {})`;
  done = new Promise((r) =>
    execFile(
      '/usr/bin/setpriv',
      ['--reuid', `${uid}`, '--regid', `${uid}`, '--clear-groups', process.execPath, '-e', script],
      r,
    ),
  );
  const s = await accepted;
  const owner = await peerUid(s);
  s.destroy();
  srv.close();
  await done;
  return owner;
}

const v6 = await new Promise<boolean>((r) => {
  const s = createServer();
  s.once('error', () => r(false));
  s.listen(0, '::1', () => s.close(() => r(true)));
});

describe('peerUid', () => {
  it('is available here (Linux with /proc)', async () => {
    expect(await peerUidAvailable()).toBe(true);
  });

  const cases: [string, string][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['0.0.0.0', '127.0.0.2'],
    ...(v6
      ? ([
          ['::1', '::1'],
          ['::', '127.0.0.1'],
          ['::', '::1'],
        ] as [string, string][])
      : []),
  ];
  it.each(cases)('server on %s, client to %s: our own uid', async (host, target) => {
    expect(await ownerSeen(host, target)).toBe(process.getuid!());
  });

  it.runIf(root).each(cases)('server on %s, client to %s as nobody: 65534', async (host, target) => {
    expect(await ownerSeen(host, target, 65534)).toBe(65534);
  });

  it('is undefined for a connection that is not listed (closed, or on another machine)', async () => {
    expect(
      await peerUid({ remoteAddress: '203.0.113.9', remotePort: 40000, localAddress: '127.0.0.1', localPort: 1 }),
    ).toBeUndefined();
    expect(await peerUid({ remoteAddress: undefined, remotePort: undefined, localAddress: '', localPort: 0 })).toBe(
      undefined,
    );
  });

  it('matches the local and the remote address and only an established entry', () => {
    const head = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
    const row = (l: string, r: string, st: string, uid: number) =>
      `   1: ${l} ${r} ${st} 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 1 1 0 20 4 30 10 -1\n`;
    const t =
      head +
      row('0100007F:1F90', '0100007F:A000', '01', 1) + // the server's own end (reversed)
      row('0100007F:A000', '0100007F:1F90', '06', 2) + // TIME_WAIT
      row('0100007F:A000', '0100007F:1F90', '01', 1000);
    expect(findUid(t, '0100007F:A000', '0100007F:1F90')).toBe(1000);
    expect(findUid(t, '0100007F:A001', '0100007F:1F90')).toBeUndefined();
  });

  it.each(['127.0.0.1', '0.0.0.0', ...(v6 ? ['::', '::1'] : [])])(
    'the start-up self-check works on %s',
    async (host) => {
      const srv = createServer((c) => c.resume());
      await new Promise<void>((r) => srv.listen(0, host, () => r()));
      try {
        expect(await peerCheckWorks(host, (srv.address() as { port: number }).port)).toBe(true);
      } finally {
        srv.close();
      }
    },
  );
});
