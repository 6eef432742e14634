// What `serve --http` checks before a request may cost anything: a bearer token (when one is set),
// the Origin header (the MCP Streamable HTTP transport asks servers to refuse foreign origins), and
// the body, read whole within a size and time limit before the request counts as a session. A slow
// or abusive client then holds a socket, not a session slot.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DEFAULT_ADMISSION } from './admission.js';

/** Limits of the HTTP transport (defaults in DEFAULT_HTTP_LIMITS). */
export interface HttpLimits {
  /** Time to receive the request headers (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** Time to receive the whole body once headers are in. */
  bodyTimeoutMs: number;
  /** Largest request body accepted. */
  maxBodyBytes: number;
  /**
   * JSON-RPC messages one client (an MCP session; before it has one, a non-loopback address) may have
   * in flight: each message of a batch counts.
   */
  maxPerClient: number;
  /** Messages in flight per principal: one token from one peer, every client it speaks for together. */
  maxPerPrincipal: number;
  /** Messages in flight on this replica. */
  maxInFlight: number;
  /** How long a request over a bound waits in line before it is refused (429, Retry-After). */
  queueMs: number;
  /** Requests waiting in line on this replica. */
  maxQueued: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxPerClient: DEFAULT_ADMISSION.perClient,
  maxPerPrincipal: DEFAULT_ADMISSION.perPrincipal,
  maxInFlight: DEFAULT_ADMISSION.global,
  queueMs: DEFAULT_ADMISSION.queueMs,
  maxQueued: DEFAULT_ADMISSION.maxQueued,
};

/** A refusal: HTTP status, JSON-RPC error message, extra headers. */
export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** Close the connection once the refusal is sent (the body was not read to its end). */
  drop?: boolean;
  /** The JSON-RPC error code (default -32000). */
  code?: number;
}

const LOOPBACK_NAME = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <token>` compared in constant time; undefined when it matches (or no token is set). */
export function checkToken(req: IncomingMessage, token: string | undefined): Refusal | undefined {
  if (token === undefined) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (m && timingSafeEqual(digest(m[1]!.trim()), digest(token))) return undefined;
  return {
    status: 401,
    message: 'Unauthorized: send Authorization: Bearer <token>',
    headers: { 'www-authenticate': 'Bearer' },
  };
}

/**
 * A browser page on another site must not drive the server: a request carrying an Origin is
 * accepted only from the server's own origins (`allowedHosts`: host:port forms it answers to).
 */
export function checkOrigin(req: IncomingMessage, allowedHosts: string[]): Refusal | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  try {
    const u = new URL(origin);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && allowedHosts.includes(u.host)) return undefined;
  } catch {
    /* not a URL: refused below */
  }
  return { status: 403, message: `Forbidden: origin ${origin} is not allowed` };
}

/**
 * DNS rebinding: while bound to loopback, a request must name the server by a loopback Host
 * (`allowedHosts`: host:port forms it answers to), else a page on another site that resolved its
 * own name to 127.0.0.1 could drive it.
 */
export function checkHost(req: IncomingMessage, allowedHosts: string[]): Refusal | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  if (allowedHosts.includes(host)) return undefined;
  // A loopback name on another port is no rebinding (a page's Host is the name it resolved): a load
  // balancer on this machine forwards its own front's Host.
  if (LOOPBACK_NAME.test(host)) return undefined;
  return { status: 403, message: `Forbidden: Host ${req.headers.host ?? '(none)'} is not this server` };
}

/** Read the whole body within the limits and parse it as JSON; a Refusal when it is too slow, too big or not JSON. */
export function readJsonBody(req: IncomingMessage, limits: HttpLimits): Promise<{ body: unknown } | Refusal> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: { body: unknown } | Refusal) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.removeAllListeners('data');
      resolve(r);
    };
    const timer = setTimeout(() => {
      finish({ status: 408, message: `Request body not received within ${limits.bodyTimeoutMs / 1000} s`, drop: true });
    }, limits.bodyTimeoutMs);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limits.maxBodyBytes) {
        finish({ status: 413, message: `Request body larger than ${limits.maxBodyBytes} bytes`, drop: true });
      } else chunks.push(c);
    });
    req.on('error', () => finish({ status: 400, message: 'Request body could not be read' }));
    req.on('aborted', () => finish({ status: 400, message: 'Request aborted' }));
    req.on('end', () => {
      try {
        finish({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        finish({ status: 400, code: -32700, message: 'Parse error: the body is not JSON' });
      }
    });
  });
}

/** Counts requests in flight per client (a session, or an address); a JSON-RPC batch counts each of its messages. */
export class PerClient {
  private readonly n = new Map<string, number>();
  constructor(private readonly max: number) {}
  /** Take `count` slots for `key` at once; undefined when that would pass `max`. The returned release is idempotent. */
  take(key: string, count = 1): (() => void) | undefined {
    const cur = this.n.get(key) ?? 0;
    if (cur + count > this.max) return undefined;
    this.n.set(key, cur + count);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const v = (this.n.get(key) ?? count) - count;
      if (v <= 0) this.n.delete(key);
      else this.n.set(key, v);
    };
  }
}

/** How many JSON-RPC messages a POST body carries (a batch is an array of them). */
export function messageCount(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

/** The ids of the JSON-RPC requests in a body (one message or a batch). */
export function requestIds(body: unknown): (string | number)[] {
  return (Array.isArray(body) ? body : [body]).flatMap((m) => {
    const msg = m as { id?: unknown; method?: unknown } | undefined;
    return typeof msg?.method === 'string' && (typeof msg.id === 'string' || typeof msg.id === 'number')
      ? [msg.id]
      : [];
  });
}
