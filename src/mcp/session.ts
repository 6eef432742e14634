import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ResolvedLimits, SandboxTier } from '../sandbox/types.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';
import { resolveServerCommand, type ServerBind } from './spawn.js';
import { startServerProcess } from './process.js';

/** Where an MCP server is: a stdio command (run in the sandbox) or a Streamable HTTP URL. */
export type McpTarget =
  | {
      kind: 'stdio';
      root: string;
      command: string;
      args: string[];
      env: Record<string, string>;
      readOnlyPaths: string[];
      network: boolean;
      limits: ResolvedLimits;
      pathVar?: string;
      /** The tool whose call starts the server, and its grants (for the sandbox's project-path check). */
      tool?: string;
      granted?: () => string[];
    }
  | { kind: 'http'; url: string; headers: Record<string, string> };

/** An open connection to one MCP server. */
export interface McpSession {
  client: Client;
  /** The server's name and version from `initialize`. */
  server: { name: string; version: string };
  tier: SandboxTier;
  /** Host folders bound read-only for a stdio server, and why (for --verbose). */
  binds: ServerBind[];
  /** The last bytes the server wrote on stderr (stdio only). */
  stderr: LogTail;
  readonly closed: boolean;
  close(): Promise<void>;
}

/** Keeps the last `max` characters of a stream, and lets a caller read what came since a mark. */
export class LogTail {
  private text = '';
  private dropped = 0;
  constructor(private readonly max = 64 * 1024) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.max) {
      const cut = this.text.length - this.max;
      this.text = this.text.slice(cut);
      this.dropped += cut;
    }
  }
  mark(): number {
    return this.dropped + this.text.length;
  }
  since(mark: number): string {
    return this.text.slice(Math.max(0, mark - this.dropped));
  }
  tail(chars = 2000): string {
    return this.text.slice(-chars);
  }
}

/**
 * Connect and initialise. stdio servers start inside the sandbox (startServerProcess); HTTP ones
 * are reached with fetch from this process. Throws ToolRunError when the server does not come up.
 */
export async function openSession(
  target: McpTarget,
  opts: { signal?: AbortSignal; timeoutMs: number; nodeBinary: string },
): Promise<McpSession> {
  // The SDK client costs ~300 ms to import: only processes that talk MCP pay it.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client({ name: 'toolbox', version: '0.1.0' }, { capabilities: {} });
  const stderr = new LogTail();
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  // Transport errors (a stray stdout line) are reported per request; keep the session alive.
  client.onerror = () => {};
  let tier: SandboxTier = 'none';
  let kill = async () => {};
  let what: string;
  let binds: ServerBind[] = [];
  if (target.kind === 'stdio') {
    const resolved = resolveServerCommand(target.root, target.command, target.args, {
      pathVar: target.pathVar,
      nodeBinary: opts.nodeBinary,
    });
    what = [target.command, ...target.args].join(' ');
    binds = [
      ...resolved.binds,
      ...target.readOnlyPaths.map((path) => ({ path, why: 'sandbox.paths of the contract' })),
    ];
    const started = await startServerProcess({
      command: resolved.command,
      args: resolved.args,
      env: { ...resolved.env, ...target.env },
      readOnlyPaths: [...resolved.readOnlyPaths, ...target.readOnlyPaths],
      project: { root: target.root, paths: resolved.projectPaths, granted: target.granted, tool: target.tool },
      network: target.network,
      limits: target.limits,
    });
    tier = started.tier;
    const proc = started.proc;
    proc.stderr.on('data', (c: Buffer) => stderr.push(c.toString('utf8')));
    kill = async () => {
      proc.kill();
      await proc.exited.catch(() => undefined);
    };
    const { ProcessTransport } = await import('./transport.js');
    try {
      await client.connect(new ProcessTransport(proc), { signal: opts.signal, timeout: opts.timeoutMs });
    } catch (e) {
      await kill();
      throw startFailure(what, e, stderr);
    }
  } else {
    what = target.url;
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const transport = new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: target.headers },
    });
    try {
      await client.connect(transport, { signal: opts.signal, timeout: opts.timeoutMs });
    } catch (e) {
      await client.close().catch(() => undefined);
      throw startFailure(what, e, stderr);
    }
  }
  const v = client.getServerVersion();
  return {
    client,
    server: { name: v?.name ?? 'mcp', version: v?.version ?? '' },
    tier,
    binds,
    stderr,
    get closed() {
      return closed;
    },
    async close() {
      closed = true;
      await client.close().catch(() => undefined);
      await kill();
    },
  };
}

function startFailure(what: string, e: unknown, stderr: LogTail): ToolRunError {
  const err = e as Error & { code?: number };
  if (err.name === 'AbortError' || /timed out/i.test(err.message ?? '') || err.code === -32001) {
    return new ToolRunError({
      kind: 'limit',
      limit: 'timeout',
      message: `MCP server '${what}' did not answer initialize in time`,
      logs: stderr.tail(),
    });
  }
  const tail = stderr.tail(600).trim();
  return new ToolRunError({
    kind: 'failed',
    message: `could not start MCP server '${what}': ${err.message ?? String(e)}${tail ? `\n--- server stderr ---\n${tail}` : ''}`,
    logs: stderr.tail(),
  });
}
