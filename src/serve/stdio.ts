import { randomBytes } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio as serveStdioEntry, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { DEFAULT_SESSION_IDLE_MS, type ServeCore } from './core.js';
import { createMcpServer } from './server.js';
import { LegacySession } from './session.js';
import { DRAIN_MS } from './sessions.js';

/**
 * Serve one MCP client over stdin/stdout until the client closes stdin or `signal` aborts
 * (SIGINT/SIGTERM). The connection's first message chooses the revision: `server/discover` or any
 * request with the 2026-07-28 `_meta` envelope is served statelessly, `initialize` opens a
 * 2025-11-25 session for the life of the process. Nothing else may write to `stdout`: it is the
 * protocol channel.
 */
export async function serveStdio(
  core: ServeCore,
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; signal?: AbortSignal },
): Promise<void> {
  const name = `serve-${process.pid}-${randomBytes(4).toString('hex')}`;
  let session: LegacySession | undefined;
  let pinned: Server | undefined;
  const transport = new StdioServerTransport(io.stdin as never, io.stdout as never);
  const handle = serveStdioEntry(
    ({ era }) => {
      if (era === 'legacy') session ??= new LegacySession(name, name, core.store, DEFAULT_SESSION_IDLE_MS);
      pinned = createMcpServer(core, era === 'legacy' ? { era, session: session! } : { era });
      return pinned;
    },
    { transport },
  );
  // A registry edit reaches the client: list_changed on a 2025 session, on subscriptions/listen otherwise.
  const unwatch = core.onToolsChanged(() => void pinned?.sendToolListChanged().catch(() => undefined));
  const why = await new Promise<'client' | 'signal'>((done) => {
    io.stdin.once('end', () => done('client'));
    io.stdin.once('close', () => done('client'));
    if (io.signal?.aborted) done('signal');
    io.signal?.addEventListener('abort', () => done('signal'), { once: true });
  });
  unwatch();
  if (why === 'signal') {
    // Stopped while the client is still there: its calls in flight end now and are answered
    // (server_stopping) before the connection closes.
    core.beginStop();
    await core.drained(DRAIN_MS);
    await new Promise((r) => setTimeout(r, 50)); // the SDK writes each answer right after its handler returns
  }
  await handle.close().catch(() => undefined);
  core.endSession(name);
  await session?.end().catch(() => undefined);
}
