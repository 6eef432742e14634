// The egress proxy's wire side: one Unix socket per tool policy, speaking HTTP forward proxy
// (absolute-URI requests), CONNECT, and SOCKS5 (CONNECT command) on the same socket (a SOCKS5
// greeting starts with byte 5, an HTTP request with a letter). Every destination goes through
// decide() first; a refusal is answered (403 / SOCKS reply 2) and logged for the runtime, and is
// never dialled.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { decide, type EgressPolicy, type Refusal, type Resolver } from './policy.js';

/**
 * Every connection starts with `TBX1 <token>\n`, the token of the listener's policy. A tool is given
 * only its own (TOOLBOX_EGRESS_TOKEN, beside the socket): on tier unshare, where a tool sees the
 * host's file system and so every policy's socket, another tool's socket does not know it, and the
 * tool cannot borrow that tool's grants. The runners, the bridge and toolbox's own host-side
 * requests (dispatcher.ts) write it; nothing else speaks to these sockets.
 */
export const PREAMBLE = 'TBX1 ';
const PREAMBLE_MAX = 96;
const tokens = new Map<string, string>();

/** The token of the listener on `socket` in this process (what a client writes first), if any. */
export function egressToken(socket: string): string | undefined {
  return tokens.get(socket);
}

/** The first bytes a client sends on `socket`. */
export function preambleFor(socket: string): string {
  const t = tokens.get(socket);
  if (!t) throw new Error(`no egress listener on ${socket} in this process`);
  return `${PREAMBLE}${t}\n`;
}

const MAX_HEAD = 64 * 1024;
const MAX_CONNECTIONS = 256;
const DIAL_TIMEOUT_MS = 30_000;

/** Counters shared by every listener of one proxy (tests assert that a refusal never dialled). */
export interface ProxyStats {
  dials: number;
  refused: number;
}

/** One listener: its socket, its policy and what it refused. */
export class Listener {
  readonly refusals: Refusal[] = [];
  /** How many refusals were ever logged (a caller keeps the count at a call's start). */
  total = 0;
  /** Connections in flight (client and upstream sides), destroyed by close(). */
  readonly sockets = new Set<Socket>();
  private open = 0;
  /** What a client of this listener writes first (PREAMBLE + it + newline). */
  readonly token = randomBytes(16).toString('hex');
  constructor(
    readonly server: Server,
    readonly socket: string,
    readonly policy: EgressPolicy,
  ) {}

  /** Refusals logged since `mark` (a value of `total` taken earlier). */
  since(mark: number): Refusal[] {
    return this.refusals.slice(Math.max(0, this.refusals.length - (this.total - mark)));
  }

  log(r: Refusal): void {
    this.refusals.push(r);
    if (this.refusals.length > 100) this.refusals.shift();
    this.total++;
  }

  /** Stop listening and cut every connection. */
  close(): Promise<void> {
    if (tokens.get(this.socket) === this.token) tokens.delete(this.socket);
    for (const s of this.sockets) s.destroy();
    return new Promise((r) => this.server.close(() => r()));
  }

  track(s: Socket): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  enter(): boolean {
    if (this.open >= MAX_CONNECTIONS) return false;
    this.open++;
    return true;
  }
  leave(): void {
    this.open--;
  }
}

function pipeBoth(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end);
  b.on('error', end);
  a.on('close', end);
  b.on('close', end);
}

/** Accept connections on `socket` for `policy`. */
export function listen(socket: string, policy: EgressPolicy, resolve: Resolver, stats: ProxyStats): Promise<Listener> {
  const server = createServer({ allowHalfOpen: false });
  const l = new Listener(server, socket, policy);
  server.on('connection', (c) => {
    c.unref();
    c.on('error', () => c.destroy());
    if (!l.enter()) return void c.destroy();
    c.once('close', () => l.leave());
    l.track(c);
    void authenticated(c, l).then((first) => {
      if (!first) return;
      if (first[0] === 5) void socks(c, first, l, resolve, stats);
      else void http(c, first, l, resolve, stats);
    });
  });
  return new Promise((res, rej) => {
    server.once('error', rej);
    server.listen(socket, () => {
      server.unref();
      tokens.set(socket, l.token);
      res(l);
    });
  });
}

/**
 * Read the connection's preamble and check its token (constant time): the bytes after it (the
 * proxied protocol's first), paused; undefined when it is missing or wrong (answered 407, closed).
 */
function authenticated(c: Socket, l: Listener): Promise<Buffer | undefined> {
  const want = Buffer.from(`${PREAMBLE}${l.token}\n`);
  return new Promise((res) => {
    let buf = Buffer.alloc(0);
    const refuse = () => {
      c.off('data', onData);
      c.end(
        "HTTP/1.1 407 Proxy Authentication Required\r\nConnection: close\r\n\r\ntoolbox egress: not this socket's token\n",
      );
      res(undefined);
    };
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const nl = buf.indexOf(10);
      if (nl < 0) {
        if (buf.length > PREAMBLE_MAX) refuse();
        return;
      }
      const got = buf.subarray(0, nl + 1);
      if (got.length !== want.length || !timingSafeEqual(got, want)) return refuse();
      c.off('data', onData);
      const rest = buf.subarray(nl + 1);
      if (rest.length) {
        c.pause();
        return res(rest);
      }
      c.once('data', (first: Buffer) => {
        c.pause();
        res(first);
      });
    };
    c.on('data', onData);
  });
}

/** Decide, then dial the checked address (counted), or log the refusal. */
async function dial(
  l: Listener,
  host: string,
  port: number,
  resolve: Resolver,
  stats: ProxyStats,
): Promise<{ upstream: Socket } | { refusal: Refusal } | { error: string }> {
  const d = await decide(l.policy, host, port, resolve);
  if ('unreachable' in d) return { error: d.unreachable };
  if (!d.ok) {
    stats.refused++;
    l.log(d.refusal);
    return { refusal: d.refusal };
  }
  stats.dials++;
  return new Promise((res) => {
    const up = connect({ host: d.address.text, port, family: d.address.family });
    up.unref();
    l.track(up);
    const timer = setTimeout(() => up.destroy(new Error('connect timeout')), DIAL_TIMEOUT_MS);
    up.once('connect', () => {
      clearTimeout(timer);
      res({ upstream: up });
    });
    up.once('error', (e) => {
      clearTimeout(timer);
      res({ error: (e as NodeJS.ErrnoException).code ?? e.message });
    });
  });
}

/** Read until the end of the HTTP head; undefined when the client sent too much or went away. */
function readHead(c: Socket, first: Buffer): Promise<{ head: string; rest: Buffer } | undefined> {
  return new Promise((res) => {
    let buf = first;
    const check = () => {
      const i = buf.indexOf('\r\n\r\n');
      if (i >= 0) {
        c.off('data', onData);
        c.pause();
        res({ head: buf.subarray(0, i).toString('latin1'), rest: buf.subarray(i + 4) });
        return true;
      }
      if (buf.length > MAX_HEAD) {
        c.off('data', onData);
        res(undefined);
        return true;
      }
      return false;
    };
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      check();
    };
    if (check()) return;
    c.on('data', onData);
    c.once('close', () => res(undefined));
    c.resume();
  });
}

function reply(c: Socket, status: string, body: string, extra = ''): void {
  c.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nX-Toolbox-Proxy: 1\r\n${extra}\r\n${body}`,
  );
}

function refusedText(r: Refusal): string {
  return `toolbox egress proxy refused ${r.host}:${r.port}: ${r.message}\n${r.hint}\n`;
}

/** Host and port of `host:port` / `[v6]:port`. */
function hostPort(s: string, dflt: number): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(s) ?? /^([^:]+)(?::(\d+))?$/.exec(s);
  if (!m) return undefined;
  const port = m[2] === undefined ? dflt : Number(m[2]);
  return port >= 1 && port <= 65535 ? { host: m[1]!, port } : undefined;
}

async function http(c: Socket, first: Buffer, l: Listener, resolve: Resolver, stats: ProxyStats): Promise<void> {
  const got = await readHead(c, first);
  if (!got) return void c.destroy();
  const [line = '', ...headers] = got.head.split('\r\n');
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(line);
  if (!m) return reply(c, '400 Bad Request', 'not an HTTP proxy request\n');
  const [, method, target] = m as unknown as [string, string, string];
  let dest: { host: string; port: number } | undefined;
  let path = '/';
  if (method === 'CONNECT') dest = hostPort(target, 443);
  else {
    let u: URL | undefined;
    try {
      u = new URL(target);
    } catch {
      /* origin-form: not a proxy request */
    }
    if (!u || u.protocol !== 'http:')
      return reply(c, '400 Bad Request', 'the egress proxy takes absolute http:// URLs (use CONNECT for https)\n');
    dest = hostPort(u.host, 80);
    path = u.pathname + u.search;
  }
  if (!dest) return reply(c, '400 Bad Request', `bad destination ${target}\n`);
  const r = await dial(l, dest.host, dest.port, resolve, stats);
  if ('refusal' in r) return reply(c, '403 Forbidden', refusedText(r.refusal), 'X-Toolbox-Refused: 1\r\n');
  if ('error' in r) return reply(c, '502 Bad Gateway', `toolbox egress proxy could not reach ${target}: ${r.error}\n`);
  const up = r.upstream;
  if (method === 'CONNECT') {
    c.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (got.rest.length) up.write(got.rest);
  } else {
    // One request per connection: the origin closes after its answer, so the client never reuses it.
    const kept = headers.filter((h) => !/^(proxy-[^:]*|connection|keep-alive):/i.test(h));
    up.write(`${method} ${path} HTTP/1.1\r\n${[...kept, 'Connection: close'].join('\r\n')}\r\n\r\n`);
    if (got.rest.length) up.write(got.rest);
  }
  pipeBoth(c, up);
  c.resume();
}

/** Read exactly `n` more bytes. */
function readN(c: Socket, buf: { b: Buffer }, n: number): Promise<Buffer | undefined> {
  return new Promise((res) => {
    const done = () => {
      if (buf.b.length < n) return false;
      const out = buf.b.subarray(0, n);
      buf.b = buf.b.subarray(n);
      c.off('data', onData);
      c.off('close', onClose);
      c.pause();
      res(out);
      return true;
    };
    const onData = (d: Buffer) => {
      buf.b = Buffer.concat([buf.b, d]);
      done();
    };
    const onClose = () => res(undefined);
    if (done()) return;
    c.on('data', onData);
    c.once('close', onClose);
    c.resume();
  });
}

const SOCKS = { ok: 0, fail: 1, notAllowed: 2, unreachable: 4, refused: 5, command: 7, atyp: 8 };
const socksReply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);

async function socks(c: Socket, first: Buffer, l: Listener, resolve: Resolver, stats: ProxyStats): Promise<void> {
  const buf = { b: first };
  const greet = await readN(c, buf, 2);
  if (!greet) return void c.destroy();
  const methods = await readN(c, buf, greet[1]!);
  if (!methods || !methods.includes(0)) return void c.end(Buffer.from([5, 0xff]));
  c.write(Buffer.from([5, 0]));
  const req = await readN(c, buf, 4);
  if (!req || req[0] !== 5) return void c.destroy();
  let host: string;
  if (req[3] === 1) {
    const a = await readN(c, buf, 4);
    if (!a) return void c.destroy();
    host = [...a].join('.');
  } else if (req[3] === 3) {
    const len = await readN(c, buf, 1);
    const name = len && (await readN(c, buf, len[0]!));
    if (!name) return void c.destroy();
    host = name.toString('latin1');
  } else if (req[3] === 4) {
    const a = await readN(c, buf, 16);
    if (!a) return void c.destroy();
    const w: string[] = [];
    for (let i = 0; i < 16; i += 2) w.push(a.readUInt16BE(i).toString(16));
    host = w.join(':');
  } else return void c.end(socksReply(SOCKS.atyp));
  const p = await readN(c, buf, 2);
  if (!p) return void c.destroy();
  if (req[1] !== 1) return void c.end(socksReply(SOCKS.command));
  const r = await dial(l, host, p.readUInt16BE(0), resolve, stats);
  if ('refusal' in r) return void c.end(socksReply(SOCKS.notAllowed));
  if ('error' in r) return void c.end(socksReply(r.error.includes('ECONNREFUSED') ? SOCKS.refused : SOCKS.unreachable));
  c.write(socksReply(SOCKS.ok));
  if (buf.b.length) r.upstream.write(buf.b);
  pipeBoth(c, r.upstream);
  c.resume();
}

export type { Refusal };
