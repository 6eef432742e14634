import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ExitCode, ToolboxError } from '../errors.js';
import type { ServeCore } from './core.js';
import { createMcpServer } from './server.js';

/** Where the HTTP server listens. */
export interface HttpOptions { port: number; host: string; signal?: AbortSignal; onListening?: (url: string) => void }

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serve MCP over Streamable HTTP at `/mcp`: one SDK transport and Server per client session
 * (mcp-session-id header), all sharing the process's ServeCore. Bound to loopback by default,
 * with DNS-rebinding protection (Host header checked) while it is.
 */
export async function serveHttp(core: ServeCore, opts: HttpOptions): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = opts.port;
  const loopback = LOOPBACK.has(opts.host);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/mcp') return jsonRpcError(res, 404, 'Not found: the MCP endpoint is /mcp');
    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (known) return known.handleRequest(req, res);
    if (sid !== undefined) return jsonRpcError(res, 404, 'Unknown or expired session; initialize again');
    if (req.method !== 'POST') return jsonRpcError(res, 400, 'No session: send initialize first');
    let session = '';
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => { sessions.set(id, transport); },
      ...(loopback ? { enableDnsRebindingProtection: true, allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      if (session) core.endSession(session);
    };
    session = `mcp-${randomUUID()}`;
    const { server } = createMcpServer(core, session);
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // A request that did not initialize a session leaves nothing behind.
    if (!transport.sessionId) await server.close().catch(() => undefined);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, `internal error: ${(e as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) => reject(new ToolboxError('serve_listen_failed', `cannot listen on ${opts.host}:${opts.port}: ${e.code ?? e.message}`, {
      exitCode: ExitCode.usage,
      hint: e.code === 'EADDRINUSE' ? 'Pick another port with --http PORT (0 picks a free one).' : undefined,
    })));
    http.listen(opts.port, opts.host, () => resolve());
  });
  port = (http.address() as { port: number }).port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  opts.onListening?.(`http://${shownHost}:${port}/mcp`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      for (const t of sessions.values()) void t.close().catch(() => undefined);
      http.closeAllConnections();
      http.close(() => resolve());
    };
    if (opts.signal?.aborted) stop();
    else opts.signal?.addEventListener('abort', stop, { once: true });
  });
}
