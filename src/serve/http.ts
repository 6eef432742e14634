import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { ExitCode, ToolboxError } from '../errors.js';
import type { ServeCore } from './core.js';
import { createMcpServer } from './server.js';
import { META_TOOLS, toolDef } from './definitions.js';
import { headerParams, paramHeaderMismatch } from './param-headers.js';
import { DRAIN_MS, LegacySessions, type SessionCloseReason } from './sessions.js';
import { sendWebResponse, toWebRequest } from './web.js';
import { answerHealth, RETRY_AFTER_S } from './health.js';
import { requestNote, ServeMetrics, type RequestNote } from './metrics.js';
import type { RequestLogEntry } from './request-log.js';
import { ClientLimits, type ClientLimitSettings } from './client-limits.js';
import { Admission } from './admission.js';
import { peerOf, whoSends } from './identity.js';
import { paramsProblem, readableResponse } from './param-errors.js';
import { AuthGate, peerCheckWorks, type HttpAuth } from './auth.js';
import {
  checkHost,
  checkOrigin,
  DEFAULT_HTTP_LIMITS,
  messageCount,
  PerClient,
  readJsonBody,
  requestIds,
  type HttpLimits,
  type Refusal,
} from './http-guard.js';

export type { SessionCloseReason };

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
  /**
   * When this aborts the server drains: /readyz and new calls answer 503 with Retry-After, calls in
   * flight go on for up to `drainMs` (default 30 s), then it stops as on `signal`.
   */
  drainSignal?: AbortSignal;
  drainMs?: number;
  /** Told when draining begins and ends (calls still running when it ended were stopped). */
  onDrain?: (phase: 'start' | 'done', calls: number) => void;
  /** Rates and the global in-flight limit, across replicas with a shared store (client-limits.ts). */
  clients?: Omit<ClientLimitSettings, 'perClient'>;
  /** A client's address is the last one in X-Forwarded-For (set by the balancer in front). */
  trustProxy?: boolean;
  /** Told of every answered request but health checks and scrapes (`--log-format json`). */
  onRequest?: (e: RequestLogEntry) => void;
}

/** How long a draining server lets calls in flight finish (`--drain`). */
export const DEFAULT_DRAIN_MS = 30_000;
/**
 * A draining server that still gets requests keeps listening (and answering 503) until none has come
 * for this long: a balancer that still sends it calls has not yet seen /readyz fail, and a connection
 * it opens just as the listener closes would be reset with its request in it (lost, not retried).
 */
export const DRAIN_QUIET_MS = 1000;
/** A draining server waits this long before it first looks whether anything still runs. */
const DRAIN_ACCEPT_MS = 100;

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
  id: string | number | null = null,
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

/** Whether a POST body asks something that waits for an answer (a request, not a notification or a listen stream). */
function answersCall(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((m) => {
    const msg = m as { id?: unknown; method?: unknown } | undefined;
    return msg?.id !== undefined && typeof msg.method === 'string' && msg.method !== 'subscriptions/listen';
  });
}

const requestId = (body: unknown): string | number | null => requestIds(body)[0] ?? null;

/** A limit's refusal as the HTTP answer: 429 with its Retry-After. */
const limited = (r: { status: number; message: string; retryAfterS: number }): Refusal => ({
  status: r.status,
  message: r.message,
  headers: { 'retry-after': String(r.retryAfterS) },
});

/** For a 2026-07-28 tools/call: why its Mcp-Param-* headers disagree with its arguments (param-headers.ts). */
function paramHeaders(core: ServeCore, req: IncomingMessage, body: unknown): string | undefined {
  const msg = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | undefined;
  if (msg?.method !== 'tools/call' || typeof msg.params?.name !== 'string') return undefined;
  // search_tools and call_tool mirror nothing. Asking the registry for them would take the path of
  // an unknown id: a scan of every contract and a "did you mean" over every id, on each search
  // (~0.5 s per search_tools call on 10,000 tools, `npm run bench -- mcp`).
  if (core.opts.expose === 'search' && META_TOOLS.has(msg.params.name)) return undefined;
  let schema: unknown;
  try {
    schema = toolDef(core.runtime.find(msg.params.name).contract).inputSchema;
  } catch {
    return undefined; // not a registry tool (search_tools, call_tool, unknown): nothing is mirrored
  }
  const params = headerParams(schema);
  if (!params.length) return undefined;
  // A client mirrors the parameters of the tools it was listed. Under --expose search a registry tool
  // is called without being listed (found by search_tools): headers it sends must match, but none is
  // required.
  const listed = core.opts.expose === 'all';
  return paramHeaderMismatch(
    params,
    msg.params.arguments ?? {},
    (h) => {
      const v = req.headers[h];
      return Array.isArray(v) ? v.join(', ') : v;
    },
    listed,
  );
}

/**
 * Serve MCP over Streamable HTTP at `/mcp`, both revisions on the one endpoint, chosen per request
 * as the specification describes: a request carrying the 2026-07-28 `_meta` envelope is served
 * statelessly by a fresh server instance (any replica could answer it); anything else (initialize,
 * Mcp-Session-Id, GET/DELETE) belongs to a 2025-11-25 session (sessions.ts). Bound to loopback by
 * default, with DNS-rebinding protection (Host header checked) while it is.
 */
export async function serveHttp(core: ServeCore, opts: HttpOptions): Promise<void> {
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
  const bodies = new PerClient(limits.maxPerClient);
  const admission = new Admission({
    perClient: limits.maxPerClient,
    perPrincipal: limits.maxPerPrincipal,
    global: limits.maxInFlight,
    queueMs: limits.queueMs,
    maxQueued: limits.maxQueued,
  });
  /** A refusal answered to every request of the body (its ids), with Retry-After on 429 and 503. */
  const refuse = (res: ServerResponse, r: Refusal, body?: unknown, code = r.code ?? -32000) => {
    if (r.drop) res.once('finish', () => res.req.socket.destroy());
    const headers: Record<string, string> = { ...r.headers, ...(r.drop ? { connection: 'close' } : {}) };
    if ((r.status === 429 || r.status === 503) && !headers['retry-after']) headers['retry-after'] = '1';
    const ids = requestIds(body);
    const error = (id: string | number | null) => ({ jsonrpc: '2.0', error: { code, message: r.message }, id });
    const payload = Array.isArray(body) && ids.length ? ids.map(error) : error(ids[0] ?? null);
    res.writeHead(r.status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
  };
  const sessions = new LegacySessions(core, opts.onSessionClosed);
  let inFlight = 0;
  let draining = false;
  /** When the last request other than a health check arrived. */
  let lastRequest = 0;
  /** POST requests received and not answered yet. */
  let posts = 0;
  const fresh = new Set<Socket>();
  // Deployment-wide limits: asked only when there is something to enforce beyond this replica's own.
  const clientLimits = new ClientLimits(
    { perClient: limits.maxPerClient, perPrincipal: limits.maxPerPrincipal, queueMs: limits.queueMs, ...opts.clients },
    core.shared,
  );
  const deploymentLimits = Boolean(
    core.shared || opts.clients?.global || opts.clients?.clientRate || opts.clients?.globalRate,
  );
  const modern = createMcpHandler(() => createMcpServer(core, { era: 'modern' }), {
    legacy: 'reject',
    bus: core.events,
    maxRequestBodySize: limits.maxBodyBytes,
  });
  const unwatch = core.onToolsChanged(() => {
    for (const server of sessions.servers()) void server.sendToolListChanged().catch(() => undefined);
  });

  const metrics = (core.metrics ??= new ServeMetrics({
    sandbox: () => core.sandbox?.tier,
    draining: () => draining,
    shared: () => core.shared?.status().health,
  }));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Health checks first: no token, nothing revealed but a status word (health.ts).
    if (answerHealth(req, res, core, draining)) return;
    // Every other request is counted and, with onRequest, logged once answered; the calls it makes
    // note their tool and outcome in its RequestNote.
    const began = process.hrtime.bigint();
    const note: RequestNote = {};
    res.once('close', () => {
      if (note.scrape) return;
      metrics.httpAnswered(res.statusCode);
      opts.onRequest?.({
        time: new Date().toISOString(),
        client: peerOf(req, Boolean(opts.trustProxy)).replace(/^a:/, ''),
        method: note.method ?? req.method ?? '?',
        ...(note.tool !== undefined ? { tool: note.tool } : {}),
        outcome: note.outcome ?? (res.statusCode < 400 ? 'ok' : `http_${res.statusCode}`),
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - began) / 1e6,
      });
    });
    return requestNote.run(note, () => handleRequest(req, res, note));
  };

  const handleRequest = async (req: IncomingMessage, res: ServerResponse, note: RequestNote) => {
    lastRequest = Date.now();
    // A POST counts from its arrival (its body and the deployment's limits may still be read when
    // SIGTERM comes) until its answer is sent: a drain never cuts a request it has not answered.
    if (req.method === 'POST') {
      posts++;
      res.once('close', () => posts--);
    }
    if (draining) res.setHeader('connection', 'close'); // the balancer reconnects to another replica
    // Cheap checks first, before reading a body or counting anything against the sessions.
    const hosts = allowedHosts(opts.host, port);
    const denied =
      (await gate.check(req)) ??
      (loopback ? checkHost(req, hosts) : undefined) ??
      checkOrigin(req, loopback ? hosts : [...hosts, req.headers.host ?? '']);
    if (denied) return refuse(res, denied);
    // Prometheus's scrape: behind the token like everything but the health checks (tool ids and
    // failure counts are the deployment's business), not counted against the client's limits.
    if ((req.url ?? '/').split('?')[0] === '/metrics') {
      note.scrape = true;
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return jsonRpcError(res, 405, 'Method not allowed: GET /metrics');
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(req.method === 'HEAD' ? undefined : metrics.render());
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/mcp') return jsonRpcError(res, 404, 'Not found: the MCP endpoint is /mcp');
    // A POST body is read whole (size and time capped) before the request counts as anyone's: slow
    // bodies hold only sockets (from another machine, at most maxPerClient of them per address).
    let parsed: unknown;
    if (req.method === 'POST') {
      const peer = peerOf(req, Boolean(opts.trustProxy));
      const reading = peer === 'local' ? () => undefined : bodies.take(peer);
      if (!reading) return refuse(res, { status: 429, message: 'Too many requests being sent from this address' });
      const b = await readJsonBody(req, limits).finally(reading);
      if (!('body' in b)) return refuse(res, b);
      parsed = b.body;
      note.method = rpcMethod(parsed);
    }
    // In flight: per client (a session, or a stateless client), per principal, per replica, with a
    // short wait in line before a refusal; each message of a batch counts.
    const who = whoSends(req, parsed, Boolean(opts.trustProxy));
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const admitted = await admission.take(who, messageCount(parsed), gone.signal);
    if (typeof admitted !== 'function') return refuse(res, limited(admitted), parsed);
    res.once('close', admitted);
    // Malformed params of a method serve answers: 400, in words (never a validator's dump).
    const problem = Array.isArray(parsed) ? undefined : paramsProblem(parsed);
    if (problem) return refuse(res, { status: 400, code: -32602, message: `Invalid params: ${problem}` }, parsed);
    // Draining: nothing new starts here (a notification, a DELETE still reach their session).
    if (draining && (answersCall(parsed) || req.method === 'GET'))
      return refuse(
        res,
        {
          status: 503,
          message: 'This server is shutting down: send the request again (another replica will answer)',
          headers: { 'retry-after': String(RETRY_AFTER_S) },
        },
        parsed,
      );
    if (deploymentLimits && req.method === 'POST' && answersCall(parsed)) {
      const taken = await clientLimits.take(who, messageCount(parsed), gone.signal);
      if (typeof taken !== 'function') return refuse(res, limited(taken), parsed);
      res.once('close', taken);
    }
    // Requests being answered (not GET streams, not subscriptions/listen): stopping waits for them.
    if (answersCall(parsed)) {
      inFlight++;
      res.once('close', () => inFlight--);
    }
    const request = toWebRequest(req, res);
    if (req.method === 'POST' && !(await isLegacyRequest(request, parsed))) {
      const mismatch = paramHeaders(core, req, parsed);
      if (mismatch) return jsonRpcError(res, 400, `Header mismatch: ${mismatch}`, -32020, {}, requestId(parsed));
      // The client's key travels as the request's authentication info: the call queue's fair share.
      const authInfo = { token: '', clientId: who.client, scopes: [] };
      return sendWebResponse(
        res,
        await readableResponse(await modern.fetch(request, { parsedBody: parsed, authInfo })),
      );
    }
    const refused = await sessions.handle(req, res, request, parsed, who);
    if (refused) refuse(res, refused, parsed);
  };
  const http = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    (req, res) => {
      fresh.delete(req.socket);
      handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) jsonRpcError(res, 500, `internal error: ${(e as Error).message}`);
        else res.end();
      });
    },
  );
  // Connections accepted whose first request has not come yet: a balancer that opened one just
  // before SIGTERM is about to send its request, which a drain must not cut (a kept-alive connection
  // that carried requests already does not count: its client is told `connection: close`).
  http.on('connection', (socket: Socket) => {
    fresh.add(socket);
    socket.once('close', () => fresh.delete(socket));
  });
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
    unwatch();
    sessions.closeAll('shutdown');
    throw e;
  }
  port = (http.address() as { port: number }).port;
  // The same-user check needs the owners of connections; where they cannot be read, the token alone.
  if (gate.auth.sameUser && !(await peerCheckWorks(opts.host, port))) gate.auth.sameUser = false;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  opts.onListening?.(`http://${shownHost}:${port}/mcp`, { sameUser: Boolean(gate.auth.sameUser) });
  await new Promise<void>((resolve) => {
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      unwatch();
      clientLimits.close();
      // Stopping: no new connection; every call in flight ends now and is answered (server_stopping)
      // before the connections close, so no client is left waiting for an answer that will not come.
      http.close(() => resolve());
      core.beginStop();
      const until = Date.now() + DRAIN_MS;
      while (inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      sessions.closeAll('shutdown');
      void modern.close().catch(() => undefined);
      http.closeAllConnections();
    };
    // Draining (SIGTERM): refuse new calls, let those in flight finish (up to drainMs), then stop.
    const drain = async () => {
      if (draining || stopped) return;
      draining = true;
      opts.onDrain?.('start', Math.max(inFlight, core.active));
      // Idle connections are not closed here: one just accepted, its request not read yet, counts as
      // idle, and closing it would lose that request (a balancer cannot tell it ran nothing). Every
      // answer from now on says `connection: close`, so kept-alive clients leave after their next one.
      const until = Date.now() + (opts.drainMs ?? DEFAULT_DRAIN_MS);
      const began = Date.now();
      // Requests that keep coming while draining mean a balancer still sends them: wait until it stops.
      const sent = () => lastRequest >= began && Date.now() - lastRequest < DRAIN_QUIET_MS;
      const busy = () => inFlight > 0 || posts > 0 || fresh.size > 0 || core.active > 0 || sent();
      // Connections a balancer opened just before SIGTERM may still wait in the kernel's queue, not
      // accepted yet: let them in (and be counted) before deciding that nothing is running.
      await new Promise((r) => setTimeout(r, DRAIN_ACCEPT_MS));
      while (busy() && Date.now() < until && !stopped) await new Promise((r) => setTimeout(r, 25));
      opts.onDrain?.('done', Math.max(inFlight, core.active));
      await stop();
    };
    if (opts.signal?.aborted) void stop();
    else opts.signal?.addEventListener('abort', () => void stop(), { once: true });
    if (opts.drainSignal?.aborted) void drain();
    else opts.drainSignal?.addEventListener('abort', () => void drain(), { once: true });
  });
}

/** The JSON-RPC method of a body (`batch` for several), for the request log. */
function rpcMethod(body: unknown): string | undefined {
  if (Array.isArray(body)) return 'batch';
  const m = (body as { method?: unknown } | undefined)?.method;
  return typeof m === 'string' && m.length <= 64 ? m : undefined;
}

function allowedHosts(host: string, port: number): string[] {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  hosts.add(host.includes(':') ? `[${host.replace(/^\[|\]$/g, '')}]:${port}` : `${host}:${port}`);
  return [...hosts];
}
