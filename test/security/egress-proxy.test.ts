// Issue 33 items 2 and 6: the real egress proxy on its Unix socket, driven the way tools drive it
// (HTTP forward with an absolute URI, CONNECT, SOCKS5), against a real HTTP server on loopback that
// counts its connections. Every non-public spelling is refused before anything is dialled (the
// proxy's own dial counter stays put and the listener sees nothing); a user's grant opens one
// loopback address end to end; a host list allows its hosts only. Names are resolved by an injected
// resolver, so no packet goes anywhere but loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { EgressProxy, type EgressPolicy } from '../../src/sandbox/index.js';
import { preambleFor } from '../../src/sandbox/egress/proxy.js';
import { SPELLINGS } from '../sandbox/egress-spellings.js';
import { expected } from './cases.js';

let server: Server;
let port = 0;
let seen = 0;
const resolver = async (name: string) => {
  const map: Record<string, string[]> = {
    'api.example.com': ['127.0.0.1'],
    'other.example.com': ['127.0.0.1'],
    'rebind.example.com': ['127.0.0.1'],
    'meta.example.com': ['169.254.169.254'],
  };
  if (!map[name]) throw new Error('ENOTFOUND');
  return map[name]!;
};
const proxy = new EgressProxy(resolver);
const policy = (p: Partial<EgressPolicy> = {}): EgressPolicy => ({ tool: 'probe', hosts: true, grants: [], ...p });

beforeAll(async () => {
  server = createServer((_q, r) => r.end('loopback-secret'));
  server.on('connection', () => seen++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await proxy.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/**
 * Send `bytes` on the proxy socket, after its token as toolbox's clients write it (`preamble`: another
 * to send instead, '' for none), and collect everything until it closes (or `until` matches).
 */
function talk(sock: string, chunks: Buffer[], until?: (b: Buffer) => boolean, preamble?: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const s = connect(sock);
    let got = Buffer.alloc(0);
    let i = 0;
    s.on('connect', () => s.write(Buffer.concat([Buffer.from(preamble ?? preambleFor(sock)), chunks[i++]!])));
    s.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (i < chunks.length) s.write(chunks[i++]!);
      else if (until?.(got)) s.end();
    });
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
  });
}

const bracket = (h: string) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
const forward = (sock: string, host: string, p: number) =>
  talk(sock, [Buffer.from(`GET http://${bracket(host)}:${p}/ HTTP/1.1\r\nHost: x\r\n\r\n`)]).then((b) => b.toString());
const tunnel = (sock: string, host: string, p: number) =>
  talk(sock, [
    Buffer.from(`CONNECT ${bracket(host)}:${p} HTTP/1.1\r\nHost: x\r\n\r\n`),
    Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
  ]).then((b) => b.toString());
function socks(sock: string, host: string, p: number): Promise<Buffer> {
  const name = Buffer.from(host.replace(/^\[|\]$/g, ''));
  const port = Buffer.alloc(2);
  port.writeUInt16BE(p);
  return talk(sock, [
    Buffer.from([5, 1, 0]),
    Buffer.concat([Buffer.from([5, 1, 0, 3, name.length]), name, port]),
    Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
  ]);
}
function socksV4(sock: string, bytes: number[], p: number): Promise<Buffer> {
  const port = Buffer.alloc(2);
  port.writeUInt16BE(p);
  return talk(sock, [Buffer.from([5, 1, 0]), Buffer.concat([Buffer.from([5, 1, 0, 1, ...bytes]), port])]);
}

describe('egress proxy: refused before dialling', () => {
  it(`every spelling of a non-public address, on HTTP forward, CONNECT and SOCKS5 (${expected('egress-address-spellings', 'bwrap')})`, async () => {
    const l = await proxy.lease(policy());
    const dials = proxy.stats.dials;
    const before = seen;
    for (const [host] of [...SPELLINGS, ['localhost', ''], ['LocalHost.', ''], ['meta.example.com', '']]) {
      const f = await forward(l.socket, host, port);
      expect(f, `forward ${host}`).not.toContain('loopback-secret');
      expect(f, `forward ${host}`).toMatch(/^HTTP\/1\.1 (403|400)/);
      const c = await tunnel(l.socket, host, port);
      expect(c, `CONNECT ${host}`).toMatch(/^HTTP\/1\.1 (403|400)/);
      const s = await socks(l.socket, host, port);
      expect([...s.subarray(0, 4)], `SOCKS5 ${host}`).toEqual([5, 0, 5, 2]);
    }
    const v4 = await socksV4(l.socket, [127, 0, 0, 1], port);
    expect([...v4.subarray(2, 4)]).toEqual([5, 2]);
    expect(proxy.stats.dials).toBe(dials);
    expect(seen).toBe(before);
    // The refusal is logged for the runtime with the host and the grant that would allow it.
    const last = l.since(l.total - 1)[0]!;
    expect(last).toMatchObject({ host: '127.0.0.1', port, reason: 'address', addressClass: 'loopback' });
    expect(last.hint).toContain(`network: ["127.0.0.1:${port}"]`);
  });

  it('a 403 body names the host and the grant', async () => {
    const l = await proxy.lease(policy({ tool: 'named' }));
    const f = await forward(l.socket, '127.0.0.1', port);
    expect(f).toContain(`refused 127.0.0.1:${port}`);
    expect(f).toContain('grants.yaml');
  });

  it('SOCKS5 commands other than CONNECT (BIND, UDP ASSOCIATE) are refused', async () => {
    const l = await proxy.lease(policy({ grants: [`127.0.0.1:${port}`] }));
    const port2 = Buffer.alloc(2);
    port2.writeUInt16BE(port);
    for (const cmd of [2, 3]) {
      const r = await talk(l.socket, [
        Buffer.from([5, 1, 0]),
        Buffer.concat([Buffer.from([5, cmd, 0, 1, 127, 0, 0, 1]), port2]),
      ]);
      expect(r[3]).toBe(7);
    }
  });
});

describe('egress proxy: what it lets through', () => {
  it(`a granted loopback address works on all three paths (${expected('egress-granted-loopback', 'bwrap')})`, async () => {
    const l = await proxy.lease(policy({ grants: [`127.0.0.1:${port}`] }));
    const dials = proxy.stats.dials;
    expect(await forward(l.socket, '127.0.0.1', port)).toContain('loopback-secret');
    expect(await tunnel(l.socket, '127.1', port)).toContain('loopback-secret');
    expect((await socks(l.socket, '127.0.0.1', port)).toString()).toContain('loopback-secret');
    expect(proxy.stats.dials).toBe(dials + 3);
    // Another port of the same address is still refused.
    expect(await forward(l.socket, '127.0.0.1', port === 65535 ? 1 : port + 1)).toMatch(/^HTTP\/1\.1 403/);
  });

  it(`a listed host is reached; an unlisted one is refused before its name is dialled (${expected('egress-host-list', 'bwrap')})`, async () => {
    const l = await proxy.lease(policy({ hosts: ['api.example.com'], grants: [`127.0.0.1:${port}`] }));
    expect(await tunnel(l.socket, 'api.example.com', port)).toContain('loopback-secret');
    const dials = proxy.stats.dials;
    const no = await tunnel(l.socket, 'other.example.com', port);
    expect(no).toMatch(/^HTTP\/1\.1 403/);
    expect(no).toContain('sandbox.network');
    expect(proxy.stats.dials).toBe(dials);
    // Listed but resolving to loopback without the grant: refused.
    const l2 = await proxy.lease(policy({ tool: 'nogrant', hosts: ['rebind.example.com'] }));
    expect(await tunnel(l2.socket, 'rebind.example.com', port)).toMatch(/^HTTP\/1\.1 403/);
    expect(proxy.stats.dials).toBe(dials);
  });

  it(`a connection without the socket's token is refused before anything is read or dialled: a tool that sees another policy's socket (tier unshare) cannot borrow its grants (${expected('egress-socket-borrowed', 'unshare')})`, async () => {
    const granted = await proxy.lease(policy({ tool: 'granted', grants: [`127.0.0.1:${port}`] }));
    const mine = await proxy.lease(policy({ tool: 'mine' }));
    const dials = proxy.stats.dials;
    const before = seen;
    const req = [Buffer.from(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: x\r\n\r\n`)];
    for (const wrong of ['', preambleFor(mine.socket), 'TBX1 00000000000000000000000000000000\n', 'x'.repeat(200)]) {
      const r = (await talk(granted.socket, req, undefined, wrong)).toString();
      expect(r, JSON.stringify(wrong.slice(0, 12))).toMatch(/^HTTP\/1\.1 407/);
      expect(r).not.toContain('loopback-secret');
    }
    expect(proxy.stats.dials).toBe(dials);
    expect(seen).toBe(before);
    // With its own token the same request goes through.
    expect((await talk(granted.socket, req)).toString()).toContain('loopback-secret');
  });

  it('an origin-form request (not a proxy request) is refused', async () => {
    const l = await proxy.lease(policy());
    const r = (await talk(l.socket, [Buffer.from('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')])).toString();
    expect(r).toMatch(/^HTTP\/1\.1 400/);
  });
});
