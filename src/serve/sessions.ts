// 2025-11-25 clients over Streamable HTTP: one SDK transport and server instance per session
// (Mcp-Session-Id), bounded in number and idle time. 2026-07-28 requests never come here.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_CLIENT,
  DEFAULT_SESSION_IDLE_MS,
  DEFAULT_SESSION_LIVE_MS,
  type ServeCore,
} from './core.js';
import type { Who } from './admission.js';
import { createMcpServer } from './server.js';
import { LegacySession } from './session.js';
import { sendWebResponse } from './web.js';
import { requestIds } from './http-guard.js';
import { SessionEventStore, SSE_RETRY_MS } from './event-store.js';

/** Why a session ended: the client closed it (DELETE), idle expiry, evicted for a new one, or the server stopped. */
export type SessionCloseReason = 'closed' | 'expired' | 'evicted' | 'shutdown';

interface Live {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  state: LegacySession;
  /** Last time a request started or finished. */
  lastActive: number;
  /** POST/DELETE requests still being answered (an open GET stream does not count). */
  busy: number;
  /** Open GET notification streams (they keep a session from eviction, not from expiry). */
  streams: number;
  /** The client whose session it is (admission.ts's client key of its initialize). */
  owner: string;
  /** It opened a notification stream: once none is open any more, its client went away. */
  hadStream: boolean;
  closing?: SessionCloseReason;
}

/** How long a closing session (or the server stopping) waits for its calls' answers to go out. */
export const DRAIN_MS = 3000;

/** What the HTTP front answers itself: a status and a JSON-RPC error. */
export interface SessionRefusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * The live 2025 sessions of one `serve --http`. A session with no request in flight for
 * `sessionIdleMs` (default 30 min) is closed, and at most `maxSessions` (default 100) live at once:
 * a new client evicts the least recently active session quiet for `sessionLiveMs` (default 5 min),
 * or gets 503 when every session is still live.
 * A closed session's id then gets 404 (the client must initialize again), and its tool pins and
 * found tools are released.
 */
export class LegacySessions {
  private readonly live = new Map<string, Live>();
  private pending = 0; // initialize requests being answered (not yet in `live`)
  private readonly idleMs: number;
  private readonly max: number;
  private readonly liveMs: number;
  private readonly perClient: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly core: ServeCore,
    private readonly onClosed?: (id: string, reason: SessionCloseReason) => void,
  ) {
    this.idleMs = core.opts.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.max = core.opts.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.liveMs = core.opts.sessionLiveMs ?? DEFAULT_SESSION_LIVE_MS;
    this.perClient = core.opts.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT;
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(60_000, Math.floor(this.idleMs / 4))));
    this.sweeper.unref();
  }

  get size(): number {
    return this.live.size;
  }

  /** Every live session's server (to announce a registry change). */
  servers(): Server[] {
    return [...this.live.values()].map((s) => s.server);
  }

  /**
   * Serve one 2025-era HTTP request: to its session, or (an initialize without a session id) to a
   * new one. Returns a refusal for the caller to send when there is no session to serve it.
   */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    request: Request,
    parsed: unknown,
    who: Who,
  ): Promise<SessionRefusal | undefined> {
    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? this.live.get(sid) : undefined;
    if (known) {
      this.track(known, req, res);
      cancelOnDrop(known.transport, res, parsed);
      if (req.method === 'DELETE') {
        // The client ends its session: its calls in flight are stopped and answered (session_closed)
        // before the transport closes, so none is left waiting.
        known.state.close();
        const until = Date.now() + DRAIN_MS;
        while (known.busy > 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      }
      await sendWebResponse(res, await known.transport.handleRequest(request, { parsedBody: parsed }));
      return undefined;
    }
    if (sid !== undefined)
      return {
        status: 404,
        code: -32001,
        message: 'Session not found (unknown, closed or expired): initialize a new session',
      };
    if (req.method !== 'POST') return { status: 400, code: -32000, message: 'No session: send initialize first' };
    const full = this.makeRoom(who.client);
    if (full)
      return {
        status: 503,
        code: -32000,
        message:
          full === 'client'
            ? `Too many sessions from this client: its ${this.perClient} sessions are all in use; close one (DELETE) or retry later`
            : `Too many sessions: all ${this.max} sessions are in use; retry later`,
        headers: { 'retry-after': '5' },
      };
    return this.open(res, request, parsed, who.client);
  }

  private async open(res: ServerResponse, request: Request, parsed: unknown, owner: string): Promise<undefined> {
    // The session id is the client's key to the session; the runtime name (pins, history file) is another.
    const name = randomUUID();
    const state = new LegacySession(name, `mcp-${randomUUID()}`, this.core.store, this.idleMs);
    const server = createMcpServer(this.core, { era: 'legacy', session: state });
    let session: Live | undefined;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => name,
      // Resumable streams (SEP-1699): each POST's SSE stream opens with a priming event (an id, empty
      // data and `retry:`), and a client whose stream broke resumes it with GET and Last-Event-ID.
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        session = {
          id,
          transport,
          server,
          state,
          lastActive: Date.now(),
          busy: 1,
          streams: 0,
          owner,
          hadStream: false,
        };
        res.once('close', () => {
          session!.busy--;
          session!.lastActive = Date.now();
        });
        this.live.set(id, session);
      },
    });
    transport.onclose = () => {
      if (session) this.forget(session);
      else void this.release(state);
    };
    this.pending++;
    try {
      await server.connect(transport);
      await sendWebResponse(res, await transport.handleRequest(request, { parsedBody: parsed }));
    } finally {
      this.pending--;
    }
    // A request that did not initialize a session leaves nothing behind.
    if (!session) {
      await this.release(state);
      await server.close().catch(() => undefined);
    }
    return undefined;
  }

  /** Close every session (server stopping). */
  closeAll(reason: SessionCloseReason): void {
    clearInterval(this.sweeper);
    for (const s of [...this.live.values()]) this.close(s, reason);
  }

  private close(s: Live, reason: SessionCloseReason): void {
    if (s.closing) return;
    s.closing = reason;
    s.state.close();
    // transport.close() fires onclose → forget(), also reached when the client sends DELETE.
    void s.transport.close().catch(() => undefined);
    this.forget(s);
  }

  private forget(s: Live): void {
    if (this.live.get(s.id) !== s) return;
    this.live.delete(s.id);
    void this.release(s.state);
    void s.server.close().catch(() => undefined);
    this.onClosed?.(s.id, s.closing ?? 'closed');
  }

  private async release(state: LegacySession): Promise<void> {
    this.core.endSession(state.runtime);
    await state.end().catch(() => undefined);
  }

  private sweep(): void {
    const now = Date.now();
    for (const s of [...this.live.values()])
      if (s.busy === 0 && now - s.lastActive >= this.idleMs) this.close(s, 'expired');
  }

  /**
   * Room for one more session of `owner`, or which cap is full. A client at its own cap gives up its
   * least recently active session that has nothing in flight and no stream open. Past the overall
   * cap, sessions whose client went away (its stream closed, nothing in flight) go first, then the
   * least recently active one no longer live (nothing in flight, no stream, quiet for
   * `sessionLiveMs`). A newcomer never evicts another client's live session: it gets 503 instead.
   */
  private makeRoom(owner: string): 'client' | 'server' | undefined {
    this.sweep();
    const idle = (s: Live) => s.busy === 0 && s.streams === 0;
    const oldest = (ok: (s: Live) => boolean) => {
      let found: Live | undefined;
      for (const s of this.live.values()) if (ok(s) && (!found || s.lastActive < found.lastActive)) found = s;
      return found;
    };
    const own = [...this.live.values()].filter((s) => s.owner === owner);
    if (own.length >= this.perClient) {
      const mine = oldest((s) => s.owner === owner && idle(s));
      if (!mine) return 'client';
      this.close(mine, 'evicted');
    }
    if (this.live.size + this.pending < this.max) return undefined;
    const quietSince = Date.now() - this.liveMs;
    const victim = oldest((s) => idle(s) && s.hadStream) ?? oldest((s) => idle(s) && s.lastActive <= quietSince);
    if (!victim) return 'server';
    this.close(victim, 'evicted');
    return this.live.size + this.pending < this.max ? undefined : 'server';
  }

  private track(s: Live, req: IncomingMessage, res: ServerResponse): void {
    s.lastActive = Date.now();
    if (req.method === 'GET') {
      // A client whose stream closed (it exited, or closed its transport without DELETE) went away:
      // its session is reclaimed first when a new client needs the room.
      s.streams++;
      s.hadStream = true;
      res.once('close', () => s.streams--);
      return;
    }
    s.busy++;
    res.once('close', () => {
      s.busy--;
      s.lastActive = Date.now();
    });
  }
}

/**
 * A client that closes the HTTP request of a call gives up on it (the 2025-11-25 transport has no
 * other signal for a dropped connection): stop the call as if the client had sent
 * notifications/cancelled, so the tool does not run on for nobody.
 */
function cancelOnDrop(transport: WebStandardStreamableHTTPServerTransport, res: ServerResponse, body: unknown): void {
  const ids = requestIds(body);
  if (!ids.length) return;
  res.once('close', () => {
    if (res.writableFinished) return;
    for (const requestId of ids)
      transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: 'the client closed the request' },
      });
  });
}
