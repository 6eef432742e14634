import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, DEFAULT_SESSION_LIVE_MS, type ServeCore } from './core.js';
import { createMcpServer } from './server.js';
import { AuthGate, peerCheckWorks, type HttpAuth } from './auth.js';
import {
  checkOrigin,
  DEFAULT_HTTP_LIMITS,
  messageCount,
  PerClient,
  readJsonBody,
  type HttpLimits,
  type Refusal,
} from './http-guard.js';

/** Why a session ended: the client closed it (DELETE), idle expiry, evicted for a new one, or the server stopped. */
export type SessionCloseReason = 'closed' | 'expired' | 'evicted' | 'shutdown';

/** Where the HTTP server listens. */
export interface HttpOptions {
  port: number;
  host: string;
  signal?: AbortSignal;
  /** Called once listening, with whether local clients' users can be checked here (auth.sameUser). */
  onListening?: (url: string, info: { sameUser: boolean }) => void;
  /** Called once per initialized session when it ends (after its pins were released). */
  onSessionClosed?: (id: string, reason: SessionCloseReason) => void;
  /**
   * Who may call: a bearer token (and, by default, only clients of the same local user), or 'none'
   * (`--no-auth`). One of `auth` or `token` is required: a server without either refuses to start.
   */
  auth?: HttpAuth | 'none';
  /** Shorthand for `auth: { token, sameUser: true }`. */
  token?: string;
  /** Header/body time limits, body size, per-client requests in flight. */
  limits?: Partial<HttpLimits>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Whether binding `host` keeps the server on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return LOOPBACK.has(h) || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  code = -32000,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** One client session: its SDK transport and Server, its runtime session (pins) and found tools. */
interface Session {
  id: string;
  transport: StreamableHTTPServerTransport;
  server: Server;
  found: Set<string>;
  /** The runtime session name (what the tool cache pins under). */
  runtimeSession: string;
  /** Last time a request started or finished. */
  lastActive: number;
  /** POST/DELETE requests still being answered (an open GET stream does not count). */
  busy: number;
  /** Open GET notification streams (they keep a session from eviction, not from expiry). */
  streams: number;
  closing?: SessionCloseReason;
}

/**
 * Serve MCP over Streamable HTTP at `/mcp`: one SDK transport and Server per client session
 * (mcp-session-id header), all sharing the process's ServeCore. Bound to loopback by default,
 * with DNS-rebinding protection (Host header checked) while it is.
 *
 * Sessions are bounded: one with no request in flight for `core.opts.sessionIdleMs` (default 30
 * min) is closed, and at most `core.opts.maxSessions` (default 100) live at once: a new client
 * evicts the least recently active session quiet for `sessionLiveMs` (default 5 min), or gets 503
 * when every session is still live. A closed
 * session's id then gets 404 (the client must initialize again, per the Streamable HTTP spec), and
 * its tool pins and found tools are released.
 */
export async function serveHttp(core: ServeCore, opts: HttpOptions): Promise<void> {
  const sessions = new Map<string, Session>();
  const idleMs = core.opts.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = core.opts.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const liveMs = core.opts.sessionLiveMs ?? DEFAULT_SESSION_LIVE_MS;
  let pending = 0; // initialize requests being answered (not yet in `sessions`)
  let port = opts.port;
  const loopback = isLoopbackHost(opts.host);
  const auth: HttpAuth | 'none' | undefined =
    opts.auth ?? (opts.token ? { token: opts.token, sameUser: true } : undefined);
  if (auth === undefined || (auth !== 'none' && !auth.token))
    throw new ToolboxError(
      'serve_needs_token',
      `refusing to serve on ${opts.host} without authentication: anyone who can reach it could run the tools`,
      {
        exitCode: ExitCode.usage,
        hint: 'Pass a bearer token (--token-env NAME; clients send Authorization: Bearer <token>), or --no-auth if you mean it.',
      },
    );
  const gate = new AuthGate(auth === 'none' ? {} : { ...auth });
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...opts.limits };
  const perClient = new PerClient(limits.maxPerClient);
  const refuse = (res: ServerResponse, r: Refusal) => {
    if (r.drop) res.once('finish', () => res.req.socket.destroy());
    jsonRpcError(res, r.status, r.message, -32000, { ...r.headers, ...(r.drop ? { connection: 'close' } : {}) });
  };

  const closeSession = (s: Session, reason: SessionCloseReason) => {
    if (s.closing) return;
    s.closing = reason;
    // transport.close() fires onclose → forget(), also reached when the client sends DELETE.
    void s.transport.close().catch(() => undefined);
    forget(s);
  };
  const forget = (s: Session) => {
    if (sessions.get(s.id) !== s) return;
    sessions.delete(s.id);
    s.found.clear();
    core.endSession(s.runtimeSession);
    void s.server.close().catch(() => undefined);
    opts.onSessionClosed?.(s.id, s.closing ?? 'closed');
  };

  const sweep = () => {
    const now = Date.now();
    for (const s of [...sessions.values()])
      if (s.busy === 0 && now - s.lastActive >= idleMs) closeSession(s, 'expired');
  };
  const sweeper = setInterval(sweep, Math.max(10, Math.min(60_000, Math.floor(idleMs / 4))));
  sweeper.unref();

  /**
   * Room for one more session: if full, evict the least recently active session that is no longer
   * live (no request in flight, no open stream, quiet for `sessionLiveMs`). A newcomer never
   * evicts a live session: it gets 503 instead.
   */
  const makeRoom = (): boolean => {
    sweep();
    if (sessions.size + pending < maxSessions) return true;
    let oldest: Session | undefined;
    const quietSince = Date.now() - liveMs;
    for (const s of sessions.values())
      if (
        s.busy === 0 &&
        s.streams === 0 &&
        s.lastActive <= quietSince &&
        (!oldest || s.lastActive < oldest.lastActive)
      )
        oldest = s;
    if (!oldest) return false;
    closeSession(oldest, 'evicted');
    return sessions.size + pending < maxSessions;
  };

  const track = (s: Session, req: IncomingMessage, res: ServerResponse) => {
    s.lastActive = Date.now();
    if (req.method === 'GET') {
      s.streams++;
      res.once('close', () => s.streams--);
      return;
    }
    s.busy++;
    res.once('close', () => {
      s.busy--;
      s.lastActive = Date.now();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Cheap checks first, before reading a body or counting anything against the sessions.
    const denied =
      (await gate.check(req)) ??
      checkOrigin(
        req,
        loopback ? allowedHosts(opts.host, port) : [...allowedHosts(opts.host, port), req.headers.host ?? ''],
      );
    if (denied) return refuse(res, denied);
    // In flight per client: per session once it has one, else per remote address (not on loopback,
    // where every local client shares one address and the body time limit bounds the cost).
    const sid0 = req.headers['mcp-session-id'];
    const addr = req.socket.remoteAddress ?? '?';
    const key = typeof sid0 === 'string' ? `s:${sid0}` : isLoopbackHost(addr) ? undefined : `a:${addr}`;
    const release = key === undefined ? () => undefined : perClient.take(key);
    if (!release) return refuse(res, { status: 429, message: 'Too many requests in flight from this client' });
    res.once('close', release);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/mcp') return jsonRpcError(res, 404, 'Not found: the MCP endpoint is /mcp');
    // A POST body is read whole (size and time capped) before it may touch a session.
    let parsed: unknown;
    if (req.method === 'POST') {
      const b = await readJsonBody(req, limits);
      if (!('body' in b)) return refuse(res, b);
      parsed = b.body;
      // Every message of a batch counts against the client's limit, not the one HTTP request.
      const more = messageCount(parsed) - 1;
      if (more > 0 && key !== undefined) {
        const batch = perClient.take(key, more);
        if (!batch)
          return refuse(res, {
            status: 429,
            message: `Too many requests in flight from this client: a batch of ${more + 1} messages, at most ${limits.maxPerClient} at once`,
          });
        res.once('close', batch);
      }
    }
    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (known) {
      track(known, req, res);
      return known.transport.handleRequest(req, res, parsed);
    }
    if (sid !== undefined)
      return jsonRpcError(res, 404, 'Session not found (unknown, closed or expired): initialize a new session', -32001);
    if (req.method !== 'POST') return jsonRpcError(res, 400, 'No session: send initialize first');
    if (!makeRoom()) {
      return jsonRpcError(res, 503, `Too many sessions: all ${maxSessions} sessions are in use; retry later`, -32000, {
        'retry-after': '5',
      });
    }
    const runtimeSession = `mcp-${randomUUID()}`;
    const { server, found } = createMcpServer(core, runtimeSession);
    let session: Session | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = {
          id,
          transport,
          server,
          found,
          runtimeSession,
          lastActive: Date.now(),
          busy: 1,
          streams: 0,
          closing: undefined,
        };
        res.once('close', () => {
          session!.busy--;
          session!.lastActive = Date.now();
        });
        sessions.set(id, session);
      },
      ...(loopback ? { enableDnsRebindingProtection: true, allowedHosts: allowedHosts(opts.host, port) } : {}),
    });
    transport.onclose = () => {
      if (session) forget(session);
      else core.endSession(runtimeSession);
    };
    pending++;
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, parsed);
    } finally {
      pending--;
    }
    // A request that did not initialize a session leaves nothing behind.
    if (!transport.sessionId) {
      found.clear();
      core.endSession(runtimeSession);
      await server.close().catch(() => undefined);
    }
  };
  const http = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    (req, res) => {
      handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) jsonRpcError(res, 500, `internal error: ${(e as Error).message}`);
        else res.end();
      });
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          new ToolboxError(
            'serve_listen_failed',
            `cannot listen on ${opts.host}:${opts.port}: ${e.code ?? e.message}`,
            {
              exitCode: ExitCode.usage,
              hint: e.code === 'EADDRINUSE' ? 'Pick another port with --http PORT (0 picks a free one).' : undefined,
            },
          ),
        ),
      );
      http.listen(opts.port, opts.host, () => resolve());
    });
  } catch (e) {
    clearInterval(sweeper);
    throw e;
  }
  port = (http.address() as { port: number }).port;
  // The same-user check needs the owners of connections; where they cannot be read, the token alone.
  if (gate.auth.sameUser && !(await peerCheckWorks(opts.host, port))) gate.auth.sameUser = false;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  opts.onListening?.(`http://${shownHost}:${port}/mcp`, { sameUser: Boolean(gate.auth.sameUser) });
  await new Promise<void>((resolve) => {
    const stop = () => {
      clearInterval(sweeper);
      for (const s of [...sessions.values()]) closeSession(s, 'shutdown');
      http.closeAllConnections();
      http.close(() => resolve());
    };
    if (opts.signal?.aborted) stop();
    else opts.signal?.addEventListener('abort', stop, { once: true });
  });
}

function allowedHosts(host: string, port: number): string[] {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  hosts.add(host.includes(':') ? `[${host.replace(/^\[|\]$/g, '')}]:${port}` : `${host}:${port}`);
  return [...hosts];
}
