import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { ResolvedLimits, SandboxTier } from '../sandbox/types.js';
import type { McpProtocol } from '../contract/types.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';
import { ToolboxError } from '../errors.js';
import { resolveServerCommand, type ServerBind } from './spawn.js';
import { startServerProcess } from './process.js';
import { eraHint, forgetEra, rememberEra } from './era.js';
import { attachSinks, type CallSink, type Sinks } from './sinks.js';
import { guardDepth } from './depth-guard.js';
import { liftTaskHandles } from './task-handle.js';
import { authFailure, ServerOAuth, type OpenUrl, type PreRegistered } from './oauth.js';

export type { CallSink, McpQuestion } from './sinks.js';

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
      /** With the network open: the egress proxy socket of the tool's policy (its sandbox.network and grants). */
      egressSocket?: string;
      limits: ResolvedLimits;
      pathVar?: string;
      /** The tool whose call starts the server, and its grants (for the sandbox's project-path check). */
      tool?: string;
      granted?: () => string[];
      /** Fingerprint of the server's code in the project (src/lock/tool-files.ts): edited code, another server. */
      code?: string;
      /** loader_config.protocol: the one revision offered (no negotiation). */
      protocol?: McpProtocol;
    }
  /** `project`: the project whose contract names the server (OAuth tokens are kept per project). */
  | {
      kind: 'http';
      project: string;
      url: string;
      headers: Record<string, string>;
      /** The egress proxy socket of the calling tool's policy: every request goes out through it. */
      egress?: string;
      /** loader_config.protocol: the one revision offered (no negotiation). */
      protocol?: McpProtocol;
    };

/** An open connection to one MCP server. */
export interface McpSession {
  client: Client;
  /** The server's name and version (from `initialize`, or the `server/discover` result's serverInfo). */
  server: { name: string; version: string };
  /** The revision in use: 2026-07-28 (stateless, `_meta` on every request) or a 2025 one (initialize). */
  protocolVersion: string;
  /** True on 2026-07-28 and later: questions come back as input-required results, not as requests. */
  modern: boolean;
  tier: SandboxTier;
  /** Host folders bound read-only for a stdio server, and why (for --verbose). */
  binds: ServerBind[];
  /** The last bytes the server wrote on stderr (stdio only). */
  stderr: LogTail;
  readonly closed: boolean;
  /**
   * A call in flight: its progress notifications (by the progressToken returned, which the request
   * must carry) go to its sink, and while it is the only call on this connection, so do the server's
   * questions (2025: elicitation/sampling/roots requests) and log messages. `leave` when it is done.
   */
  enter(sink: CallSink): { progressToken: string; leave(): void };
  /** Run a request, sent again (at most twice) after the person authorized more access during it. */
  withAuth<T>(send: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * What toolbox tells a server it can do: it answers elicitation (forms), sampling and roots by
 * passing them on to whoever called the tool (serve's MCP client, the person at a terminal). A
 * server that hides tools from clients without these (server-everything) lists them all.
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };

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

/** The server's identity for the revision hint: what it is, never what it was given to work on. */
export function serverIdentity(t: McpTarget): string {
  return t.kind === 'http' ? JSON.stringify(['http', t.url]) : JSON.stringify(['stdio', t.root, t.command, t.args]);
}

interface OpenOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  nodeBinary: string;
  /** Shows an OAuth authorization URL to a person; without it a server that needs one fails (mcp_auth_required). */
  openUrl?: OpenUrl;
  /** OAuth client credentials registered out of band (import --oauth-client-id). */
  preRegistered?: PreRegistered;
  /** A client ID metadata document URL to use with authorization servers that support them. */
  oauthMetadataUrl?: string;
}

/**
 * Connect: 2026-07-28 when the server offers it (`server/discover`), else 2025 (`initialize`).
 * The choice is made by probing once; a 2025 answer is kept as a hint (era.ts) so the next
 * connection starts with `initialize`, and the hint is dropped and the server probed again when
 * that fails. stdio servers start inside the sandbox (startServerProcess); HTTP ones are reached
 * with fetch from this process. Throws ToolRunError when the server does not come up.
 */
export async function openSession(target: McpTarget, opts: OpenOptions): Promise<McpSession> {
  if (target.protocol) {
    // A pinned revision: offered alone, nothing probed, nothing remembered.
    const pinned = await connectOnce(target, opts, 'pinned');
    if (pinned.session) return pinned.session;
    throw openFailure(pinned, target.protocol);
  }
  const identity = serverIdentity(target);
  const hinted = eraHint(identity) === 'legacy';
  let attempt = await connectOnce(target, opts, hinted ? 'legacy' : 'auto');
  if (!attempt.session && hinted && !opts.signal?.aborted && !isTimeout(attempt.error)) {
    // The hint is stale (the server moved on, or answers differently now): probe again.
    forgetEra(identity);
    attempt = await connectOnce(target, opts, 'auto');
  } else if (!attempt.session && attempt.quitOnProbe && !opts.signal?.aborted) {
    // A 2025 server that exits on a request it does not know: start it again and initialize.
    attempt = await connectOnce(target, opts, 'legacy');
  }
  if (!attempt.session) throw openFailure(attempt);
  rememberEra(identity, attempt.session.modern ? 'modern' : 'legacy');
  return attempt.session;
}

/** What a failed connection attempt is reported as. */
function openFailure(attempt: Exclude<Attempt, { session: McpSession }>, pinned?: string): unknown {
  const cause = (attempt.error as { cause?: unknown })?.cause;
  if (attempt.error instanceof ToolboxError) return attempt.error;
  if (cause instanceof ToolboxError) return cause;
  const auth = authFailure(attempt.error);
  if (auth) return auth;
  return startFailure(attempt.what, attempt.error, attempt.stderr, pinned);
}

type Attempt =
  | { session: McpSession; what: string }
  | { session?: undefined; error: unknown; quitOnProbe: boolean; what: string; stderr: LogTail };

/**
 * How the SDK client negotiates: 'auto' probes with server/discover and falls back to initialize;
 * a pinned 2025-era revision is offered alone in initialize (no probe; a server that answers with
 * another revision is refused); a pinned 2026-07-28 must be offered by server/discover (no fallback).
 */
function negotiation(target: McpTarget, mode: 'auto' | 'legacy' | 'pinned', probeMs: number) {
  // On stdio a server that stays silent on the probe is a 2025 one: do not spend the call's time on it.
  const probe = target.kind === 'stdio' ? { probe: { timeoutMs: probeMs } } : {};
  if (mode !== 'pinned' || !target.protocol) return { versionNegotiation: { mode: 'auto' as const, ...probe } };
  if (target.protocol >= MODERN) return { versionNegotiation: { mode: { pin: target.protocol }, ...probe } };
  return { versionNegotiation: { mode: 'legacy' as const }, supportedProtocolVersions: [target.protocol] };
}

/** The first revision of the 2026-07-28 era (revisions are dates: later ones sort after it). */
const MODERN = '2026-07-28';

async function connectOnce(target: McpTarget, opts: OpenOptions, mode: 'auto' | 'legacy' | 'pinned'): Promise<Attempt> {
  // The SDK client costs ~300 ms to import: only processes that talk MCP pay it.
  const { Client } = await import('@modelcontextprotocol/client');
  const stdioProbeMs = Math.max(1000, Math.min(10_000, Math.floor(opts.timeoutMs / 3)));
  const newClient = () =>
    new Client(
      { name: 'toolbox', version: '0.1.0' },
      {
        capabilities: CLIENT_CAPABILITIES,
        ...negotiation(target, mode, stdioProbeMs),
        // Questions in an input-required result go to the caller of the tool (loaders/mcp.ts), by their keys.
        inputRequired: { autoFulfill: false },
      },
    );
  let client = newClient();
  let sinks: Sinks = attachSinks(client);
  const stderr = new LogTail();
  let closed = false;
  const watch = () => {
    client.onclose = () => {
      closed = true;
    };
    // Transport errors (a stray stdout line) are reported per request; keep the session alive.
    client.onerror = () => {};
  };
  watch();
  let reauthorized = async () => false;
  let oauth: ServerOAuth | undefined;
  let tier: SandboxTier = 'none';
  let kill = async () => {};
  let what: string;
  let binds: ServerBind[] = [];
  const connectOpts = {
    signal: opts.signal,
    timeout: opts.timeoutMs,
    ...(mode === 'legacy' ? { prior: { kind: 'legacy' as const } } : {}),
  };
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
      project: {
        root: target.root,
        paths: resolved.projectPaths,
        granted: target.granted,
        tool: target.tool,
        reasons: Object.fromEntries(resolved.binds.map((b) => [b.path, b.why])),
      },
      network: target.network,
      ...(target.egressSocket ? { egress: { socket: target.egressSocket, bridge: 'wrap' as const } } : {}),
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
    const transport = guardDepth(new ProcessTransport(proc), liftTaskHandles);
    try {
      await abortable(client.connect(transport, connectOpts), opts.signal);
    } catch (error) {
      const quitOnProbe = mode === 'auto' && transport.ended;
      await kill();
      return { error, quitOnProbe, what, stderr };
    }
  } else {
    what = target.url;
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const auth = new ServerOAuth(target.project, target.url, {
      openUrl: opts.openUrl,
      preRegistered: opts.preRegistered,
      metadataUrl: opts.oauthMetadataUrl,
      signal: opts.signal,
    });
    oauth = auth;
    await auth.listen();
    const fetchVia = await fetchThrough(target.egress);
    let transport = guardDepth(
      new StreamableHTTPClientTransport(new URL(target.url), {
        requestInit: { headers: target.headers },
        authProvider: auth,
        fetch: fetchVia,
      }),
      liftTaskHandles,
    );
    // The person authorized during a request: redeem the code on this transport (RFC 9207 issuer checked).
    const redeem = async (): Promise<boolean> => {
      const p = auth.pending;
      if (!p) return false;
      auth.pending = undefined;
      await transport.finishAuth(p);
      return true;
    };
    reauthorized = redeem;
    for (let round = 0; ; round++) {
      try {
        await abortable(client.connect(transport, connectOpts), opts.signal);
        break;
      } catch (error) {
        await client.close().catch(() => undefined);
        // A 401 sent the person to authorize: with the code redeemed, connect again on a fresh client.
        // At most three authorizations in all (with the transport's own step-up), never a loop.
        const again = round < 2 && !opts.signal?.aborted && (await redeem().catch((e: unknown) => e));
        if (again !== true) {
          auth.close();
          return { error: again instanceof Error ? again : error, quitOnProbe: false, what, stderr };
        }
        client = newClient();
        sinks = attachSinks(client);
        watch();
        transport = guardDepth(
          new StreamableHTTPClientTransport(new URL(target.url), {
            requestInit: { headers: target.headers },
            authProvider: auth,
            fetch: fetchVia,
          }),
          liftTaskHandles,
        );
      }
    }
  }
  const modern = client.getProtocolEra() === 'modern';
  if (!modern && client.getServerCapabilities()?.logging) {
    // 2025 servers send log messages only at or above a level set for the whole session; the
    // caller's own client filters what it asked for (serve forwards only at or above its level).
    await client.setLoggingLevel('debug', { timeout: opts.timeoutMs, signal: opts.signal }).catch(() => undefined);
  }
  const v = client.getServerVersion();
  const session: McpSession = {
    client,
    server: { name: v?.name ?? 'mcp', version: v?.version ?? '' },
    protocolVersion: client.getNegotiatedProtocolVersion() ?? '',
    modern,
    tier,
    binds,
    stderr,
    get closed() {
      return closed;
    },
    enter: (sink) => sinks.enter(sink),
    async withAuth(send) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await send();
        } catch (e) {
          if (attempt < 2 && (await reauthorized())) continue;
          throw e;
        }
      }
    },
    async close() {
      closed = true;
      await client.close().catch(() => undefined);
      oauth?.close();
      await kill();
    },
  };
  return { session, what };
}

/**
 * fetch, with a GET sent once more when the connection broke before any answer (a kept-alive socket
 * the server had just closed: undici's "fetch failed"). Metadata discovery makes several GETs in a row.
 */
async function steadyFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (e) {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'GET' || init?.signal?.aborted || (e as Error)?.name !== 'TypeError') throw e;
    return fetch(input, init);
  }
}

/**
 * steadyFetch, through a tool's egress proxy when the session serves a contract's tool (the proxy
 * resolves the server's name and dials only an address the tool's policy allows: the host's loopback
 * and private addresses only by the user's grant). `import mcp --url` (the user's own command) has none.
 */
async function fetchThrough(egress: string | undefined): Promise<typeof steadyFetch> {
  if (!egress) return steadyFetch;
  const { egressDispatcher } = await import('../sandbox/egress/dispatcher.js');
  const dispatcher = await egressDispatcher(egress);
  // `dispatcher` is undici's own option to Node's fetch (not in the DOM RequestInit type).
  return (input, init) => steadyFetch(input, { ...init, dispatcher } as RequestInit);
}

/** `p`, or its rejection as soon as `signal` aborts (the version probe does not always watch the signal). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function isTimeout(e: unknown): boolean {
  const err = e as Error & { code?: unknown };
  return (
    err?.name === 'AbortError' ||
    err?.code === 'REQUEST_TIMEOUT' ||
    err?.code === -32001 ||
    /timed out/i.test(err?.message ?? '')
  );
}

function startFailure(what: string, e: unknown, stderr: LogTail, pinned?: string): ToolRunError {
  const err = e as Error & { code?: number };
  if (isTimeout(e)) {
    return new ToolRunError({
      kind: 'limit',
      limit: 'timeout',
      message: `MCP server '${what}' did not answer in time`,
      logs: stderr.tail(),
    });
  }
  const tail = stderr.tail(600).trim();
  return new ToolRunError({
    kind: 'failed',
    message: `could not start MCP server '${what}'${pinned ? ` at the pinned revision ${pinned} (loader_config.protocol)` : ''}: ${err?.message ?? String(e)}${tail ? `\n--- server stderr ---\n${tail}` : ''}`,
    logs: stderr.tail(),
  });
}
