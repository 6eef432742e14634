// What `serve --http`'s same-user check costs (docs/mcp.md "Authentication"): finding the owner of a
// loopback connection in /proc/net/tcp, once per connection, as the table grows (idle loopback
// connections held open), and a request on a fresh connection with token + user check vs token only.
import { createServer, connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, median, table } from './lib.mjs';

const { peerUid } = await import(join(REPO, 'dist', 'serve', 'peer-uid.js'));
const { AuthGate } = await import(join(REPO, 'dist', 'serve', 'auth.js'));

const listen = (srv) => new Promise((r) => srv.listen(0, '127.0.0.1', () => r(srv.address().port)));
const dial = (port) =>
  new Promise((r) => {
    const c = connect(port, '127.0.0.1', () => r(c));
  });
const lines = () => readFileSync('/proc/net/tcp', 'latin1').split('\n').length - 2;

/** Median ms of `fn` over n runs (after 5 unmeasured ones). */
async function time(fn, n) {
  const xs = [];
  for (let i = 0; i < 5; i++) await fn();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}

export default async function () {
  const filler = createServer(() => undefined);
  const fport = await listen(filler);
  const held = [];
  const rows = [];
  const tokenOnly = new AuthGate({ token: 'bench-token-0123456789abcdef', sameUser: false });
  const both = new AuthGate({ token: 'bench-token-0123456789abcdef', sameUser: true });
  const headers = { authorization: 'Bearer bench-token-0123456789abcdef' };
  for (const extra of [0, 1000, 4000]) {
    while (held.length < extra) held.push(await dial(fport));
    // One probe connection to a second server: look its client end up, from the server's side.
    let accepted;
    const srv = createServer((s) => (accepted = s));
    const port = await listen(srv);
    const probe = await dial(port);
    while (!accepted) await new Promise((r) => setImmediate(r));
    const uid = await peerUid(accepted);
    if (uid !== process.getuid()) throw new Error(`peer uid ${uid}, expected ${process.getuid()}`);
    const lookup = await time(() => peerUid(accepted), 50);
    // A request on a fresh connection: the gate's whole check (token, then the owner once).
    const fresh = async (gate) => {
      let sock;
      const s2 = createServer((s) => (sock = s));
      const p2 = await listen(s2);
      const c = await dial(p2);
      while (!sock) await new Promise((r) => setImmediate(r));
      const t0 = process.hrtime.bigint();
      const bad = await gate.check({ headers, socket: sock });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (bad) throw new Error(bad.message);
      c.destroy();
      s2.close();
      return ms;
    };
    const tOnly = [];
    const tBoth = [];
    for (let i = 0; i < 30; i++) {
      tOnly.push(await fresh(tokenOnly));
      tBoth.push(await fresh(both));
    }
    const n = lines();
    rows.push([
      String(n),
      lookup.toFixed(2),
      ((lookup * 1000) / n).toFixed(2),
      median(tOnly).toFixed(3),
      median(tBoth).toFixed(2),
    ]);
    probe.destroy();
    srv.close();
  }
  for (const c of held) c.destroy();
  filler.close();
  table(
    [
      'sockets in /proc/net/tcp',
      'owner lookup (ms)',
      'µs per socket listed',
      'check, token only (ms)',
      'check, token + same user (ms)',
    ],
    rows,
  );
  process.stdout.write(
    '\nOne lookup per connection (kept with the socket); requests on a kept-alive connection pay none.\n',
  );
}
