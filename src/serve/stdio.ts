import { randomBytes } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ServeCore } from './core.js';
import { createMcpServer } from './server.js';

/**
 * Serve one MCP client over stdin/stdout until the client closes stdin, the transport closes, or
 * `signal` aborts (SIGINT/SIGTERM). Nothing else may write to `stdout`: it is the protocol channel.
 */
export async function serveStdio(
  core: ServeCore,
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; signal?: AbortSignal },
): Promise<void> {
  const session = `serve-${process.pid}-${randomBytes(4).toString('hex')}`;
  const { server } = createMcpServer(core, session);
  const transport = new StdioServerTransport(io.stdin as never, io.stdout as never);
  let done!: () => void;
  const finished = new Promise<void>((res) => {
    done = res;
  });
  transport.onclose = () => done();
  io.stdin.once('end', () => done());
  io.stdin.once('close', () => done());
  if (io.signal?.aborted) done();
  io.signal?.addEventListener('abort', () => done(), { once: true });
  await server.connect(transport);
  await finished;
  await server.close().catch(() => undefined);
  core.endSession(session);
}
