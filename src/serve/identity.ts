// Who a request of `serve --http` comes from, for the limits and the queue's fair share. Nothing a
// client says about itself is trusted alone: the principal is what the server checked (the token it
// sent and the peer it comes from: its address, or the balancer's X-Forwarded-For with
// --trust-proxy), and the client inside it is a 2025 session, or for a stateless request the
// `clientInfo` it declares (else its connection). A client that poses as many names splits only its
// own principal's share: the principal's total stays bounded (admission.ts).
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Who } from './admission.js';

const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const LOOPBACK_PEER = /^(127\.|::1$|::ffff:127\.)/;

const short = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 12);

/** The peer: the balancer's X-Forwarded-For (last hop) when trusted, else the socket's address; `local` on loopback. */
export function peerOf(req: IncomingMessage, trustProxy: boolean): string {
  const fwd = req.headers['x-forwarded-for'];
  if (trustProxy && typeof fwd === 'string' && fwd.trim()) return `a:${fwd.split(',').pop()!.trim()}`;
  const addr = req.socket.remoteAddress ?? '?';
  return LOOPBACK_PEER.test(addr) ? 'local' : `a:${addr}`;
}

/** The principal: the credential the request carried (hashed; none with --no-auth) and its peer. */
export function principalOf(req: IncomingMessage, trustProxy: boolean): string {
  const auth = req.headers.authorization;
  return `${auth ? short(auth) : '-'}|${peerOf(req, trustProxy)}`;
}

const connections = new WeakMap<Socket, string>();
let nextConnection = 0;

/** A name for the connection, stable while it lives. */
function connectionOf(socket: Socket): string {
  let id = connections.get(socket);
  if (!id) connections.set(socket, (id = `c${++nextConnection}`));
  return id;
}

/** The clientInfo a message declares: the 2026 envelope's, or an initialize's params. */
function declared(body: unknown): string | undefined {
  const first = (Array.isArray(body) ? body[0] : body) as
    { method?: unknown; params?: { clientInfo?: unknown; _meta?: Record<string, unknown> } } | undefined;
  const info = (first?.params?._meta?.[CLIENT_INFO_KEY] ??
    (first?.method === 'initialize' ? first.params?.clientInfo : undefined)) as
    { name?: unknown; version?: unknown } | undefined;
  if (typeof info?.name !== 'string' || !info.name) return undefined;
  return short(`${info.name}\0${typeof info.version === 'string' ? info.version : ''}`);
}

/**
 * Who sends `body` on `req`: a request of a 2025 session is its session's; any other one the
 * declared clientInfo's within its principal, or its connection's when it declares none.
 */
export function whoSends(req: IncomingMessage, body: unknown, trustProxy: boolean): Who {
  const principal = principalOf(req, trustProxy);
  const sid = req.headers['mcp-session-id'];
  if (typeof sid === 'string') return { principal, client: `${principal}|s:${sid}` };
  const info = declared(body);
  return { principal, client: `${principal}|${info ? `i:${info}` : connectionOf(req.socket)}` };
}

/** The clientInfo-level name of an initialize, for the per-client cap of 2025 sessions. */
export function sessionOwner(req: IncomingMessage, body: unknown, trustProxy: boolean): string {
  return whoSends(req, body, trustProxy).client;
}
