// Inside a tool's sandbox with the network open: the tool's own network namespace has no route out,
// only toolbox's egress proxy on a Unix socket (env TOOLBOX_EGRESS_SOCKET). This module makes that
// proxy usable by ordinary clients: a loopback TCP port that forwards to the socket (for
// HTTP_PROXY / HTTPS_PROXY / ALL_PROXY), and, for Node itself, global fetch and the http/https
// global agents tunnelled through CONNECT (Node 20 ignores the proxy variables).
import { createServer, connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import http from 'node:http';
import https from 'node:https';

/** What every connection to the proxy's socket starts with: its policy's token (proxy.ts). */
const preamble = (token) => `TBX1 ${token}\n`;

/** Listen on 127.0.0.1 (a free port) and pipe every connection to the proxy's socket, after the token. */
export function startBridge(socketPath, token) {
  const server = createServer((c) => {
    const u = connect(socketPath);
    u.write(preamble(token));
    c.pipe(u);
    u.pipe(c);
    const end = () => {
      c.destroy();
      u.destroy();
    };
    c.on('error', end);
    u.on('error', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(server.address().port);
    });
  });
}

/** The proxy variables every ordinary client reads (curl, requests, urllib, pip, git, Go, ...). */
export function proxyEnv(port) {
  const url = `http://127.0.0.1:${port}`;
  const socks = `socks5h://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: socks,
    all_proxy: socks,
    NO_PROXY: '',
    no_proxy: '',
  };
}

/** A socket to host:port through the proxy's CONNECT (TLS on top when `tls`). */
function tunnel(socketPath, token, host, port, tls, servername, alpn) {
  return new Promise((resolve, reject) => {
    const s = connect(socketPath);
    const target = host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
    let buf = Buffer.alloc(0);
    const fail = (e) => {
      s.destroy();
      reject(e);
    };
    s.once('error', fail);
    s.on('connect', () => s.write(`${preamble(token)}CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    const onData = (d) => {
      buf = Buffer.concat([buf, d]);
      const i = buf.indexOf('\r\n\r\n');
      if (i < 0) return;
      s.off('data', onData);
      const head = buf.subarray(0, i).toString('latin1');
      const body = buf.subarray(i + 4).toString('utf8');
      if (!/^HTTP\/1\.[01] 200/.test(head)) {
        const e = new Error(body.trim() || head.split('\r\n')[0]);
        e.code = /^HTTP\/1\.[01] 403/.test(head) ? 'EGRESS_REFUSED' : 'EGRESS_FAILED';
        return fail(e);
      }
      s.off('error', fail);
      s.pause();
      // Paused, a plain socket would stay paused under its new reader (http's parser): the origin
      // answers only after the request, so nothing is lost by flowing again once it is attached.
      if (!tls) {
        resolve(s);
        return process.nextTick(() => s.resume());
      }
      const t = tlsConnect({
        socket: s,
        servername: servername || (host.includes(':') ? undefined : host),
        ALPNProtocols: alpn,
      });
      t.once('secureConnect', () => resolve(t));
      t.once('error', reject);
    };
    s.on('data', onData);
  });
}

/** Route global fetch and http(s).globalAgent through the proxy. */
export async function installNodeProxy(socketPath, token) {
  const sym = Symbol.for('undici.globalDispatcher.1');
  // Node 20 makes its (internal undici) global Agent on first use; a data: URL does that without I/O.
  if (!globalThis[sym]) await globalThis.fetch('data:,').catch(() => {});
  const Agent = globalThis[sym]?.constructor;
  if (typeof Agent === 'function') {
    globalThis[sym] = new Agent({
      connect(opts, cb) {
        const tls = opts.protocol === 'https:';
        tunnel(socketPath, token, opts.hostname, Number(opts.port) || (tls ? 443 : 80), tls, opts.servername, [
          'http/1.1',
        ]).then(
          (s) => cb(null, s),
          (e) => cb(e, null),
        );
      },
    });
  }
  for (const [mod, tls] of [
    [http, false],
    [https, true],
  ]) {
    mod.globalAgent.createConnection = (o, cb) => {
      tunnel(
        socketPath,
        token,
        o.host || o.hostname || 'localhost',
        Number(o.port) || (tls ? 443 : 80),
        tls,
        o.servername,
        undefined,
      ).then(
        (s) => cb(null, s),
        (e) => cb(e),
      );
      return undefined;
    };
  }
}

/** Everything a Node program needs before the tool's code runs. */
export async function setupEgress() {
  const socketPath = process.env.TOOLBOX_EGRESS_SOCKET;
  if (!socketPath) return;
  // Taken out of the environment before the tool's code runs: its subprocesses reach the proxy
  // through the bridge's port, which writes the token for them.
  const token = process.env.TOOLBOX_EGRESS_TOKEN ?? '';
  delete process.env.TOOLBOX_EGRESS_TOKEN;
  const port = await startBridge(socketPath, token);
  Object.assign(process.env, proxyEnv(port));
  await installNodeProxy(socketPath, token);
}
