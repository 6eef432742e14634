// toolbox's own requests for a tool (the http loader) go out the way the tool's would: through the
// egress proxy of the tool's policy, which resolves the name, checks every address (loopback,
// private, link-local … only by the user's grant) and logs a refusal for the call's outcome. Without
// this, an http contract with `network: true` made the host process itself dial the host's loopback
// services. The runner's copy of this tunnel (runners/egress.mjs) runs inside the sandbox, where
// toolbox's TypeScript modules are not available.
import { connect, type Socket } from 'node:net';
import { preambleFor } from './proxy.js';
import { connect as tlsConnect } from 'node:tls';

interface ConnectOptions {
  hostname: string;
  port?: string | number;
  protocol: string;
  servername?: string | null;
}
type Callback = (err: Error | null, socket: Socket | null) => void;

/** A socket to host:port through the proxy's CONNECT on `socketPath` (TLS on top for https). */
export function tunnel(socketPath: string, o: ConnectOptions): Promise<Socket> {
  const tls = o.protocol === 'https:';
  const host = o.hostname.replace(/^\[|\]$/g, '');
  const port = Number(o.port) || (tls ? 443 : 80);
  const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise((resolve, reject) => {
    const s = connect(socketPath);
    let buf = Buffer.alloc(0);
    const fail = (e: Error) => {
      s.destroy();
      reject(e);
    };
    s.once('error', fail);
    // The listener's token first (proxy.ts), then the tunnel.
    const preamble = preambleFor(socketPath);
    s.on('connect', () => s.write(`${preamble}CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const i = buf.indexOf('\r\n\r\n');
      if (i < 0) return;
      s.off('data', onData);
      const head = buf.subarray(0, i).toString('latin1');
      if (!/^HTTP\/1\.[01] 200/.test(head)) {
        const text =
          buf
            .subarray(i + 4)
            .toString('utf8')
            .trim() || head.split('\r\n')[0]!;
        // The proxy's 502 names the system error of its own dial (ECONNREFUSED, ENOTFOUND …).
        const errno = /\b(E[A-Z]{3,})\b/.exec(text)?.[1];
        const code = /^HTTP\/1\.[01] 403/.test(head) ? 'EGRESS_REFUSED' : (errno ?? 'EGRESS_FAILED');
        const e = Object.assign(new Error(text), { code });
        return fail(e);
      }
      s.off('error', fail);
      s.pause();
      if (!tls) {
        resolve(s);
        return process.nextTick(() => s.resume());
      }
      const t = tlsConnect({
        socket: s,
        servername: o.servername || (host.includes(':') ? undefined : host),
        ALPNProtocols: ['http/1.1'],
      });
      t.once('secureConnect', () => resolve(t));
      t.once('error', reject);
    };
    s.on('data', onData);
  });
}

type AgentCtor = new (opts: { connect: (o: ConnectOptions, cb: Callback) => void }) => object;
let agentCtor: AgentCtor | undefined;

/**
 * A fetch `dispatcher` whose every connection is a CONNECT tunnel through the proxy on `socketPath`.
 * Node 20 does not export undici, so the class of its own global dispatcher is used (made on the
 * first fetch; a data: URL makes it without any I/O).
 */
export async function egressDispatcher(socketPath: string): Promise<object> {
  if (!agentCtor) {
    const sym = Symbol.for('undici.globalDispatcher.1');
    const g = globalThis as unknown as Record<symbol, object | undefined>;
    if (!g[sym]) await fetch('data:,').catch(() => undefined);
    agentCtor = g[sym]?.constructor as AgentCtor | undefined;
    if (typeof agentCtor !== 'function') throw new Error('this Node.js has no fetch dispatcher to route through');
  }
  return new agentCtor({
    connect(o, cb) {
      tunnel(socketPath, o).then(
        (s) => cb(null, s),
        (e: Error) => cb(e, null),
      );
    },
  });
}
