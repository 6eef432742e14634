// OAuth for MCP servers reached over HTTP (the MCP authorization spec: protected-resource metadata,
// authorization-server metadata, dynamic client registration, authorization code with PKCE, the
// resource indicator, refresh, scope step-up, RFC 9207 issuer checks; the SDK does the protocol).
// What toolbox adds: where the person authorizes and where the result is kept.
//
// - The authorization URL goes to whoever can show it to a person (an `openUrl` the caller gives:
//   `import mcp` prints it, a terminal `toolbox run` too, a library caller may open a browser). The
//   browser comes back to a listener on 127.0.0.1 that toolbox opens for that one redirect, and the
//   callback must carry the `state` toolbox sent. Without a person (serve) nothing is asked: the call
//   fails with mcp_auth_required, telling the user to authorize once with `import mcp --url`.
// - Metadata is discovered again for every authorization (never cached: the server may have moved to
//   another authorization server, which then gets a registration of its own).
// - Registration and tokens are kept per (project real path, server URL) in the user's own state
//   folder (`~/.local/state/toolbox/mcp-oauth/`, 0700, files 0600), never in the project: a contract
//   names a URL and nothing else, a token only ever goes to the server it was issued for, and only
//   for the project it was authorized in (a cloned project's contract naming the same URL gets none).
//   Files of the older per-URL form are never read: each project authorizes once again.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { ExitCode, ToolboxError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { userStateDir } from '../util/user-dirs.js';
import { realOrUndefined } from '../util/binds.js';
import { mkdirSync } from 'node:fs';

/** Shows an authorization URL to a person (whose browser then comes back to toolbox's listener). */
export type OpenUrl = (url: string, why: string) => void | Promise<void>;

/** Client credentials registered with the authorization server out of band (no dynamic registration). */
export interface PreRegistered {
  client_id: string;
  client_secret?: string;
}

interface Stored {
  /** Registrations and tokens per authorization server (its issuer): a server may move to another one. */
  clients?: Record<string, StoredOAuthClientInformation>;
  tokens?: Record<string, StoredOAuthTokens>;
  port?: number;
  /** A client ID metadata document (an https URL) to use where the authorization server supports it. */
  metadataUrl?: string;
}

/** How long a person has to finish authorizing in the browser. */
const AUTHORIZE_MS = 5 * 60_000;

function storeFile(project: string, serverUrl: string): string | undefined {
  const base = userStateDir();
  if (!base) return undefined;
  const dir = join(base, 'mcp-oauth');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  const key = JSON.stringify(['project', project, serverUrl]);
  return join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
}

/**
 * The OAuth client of one MCP server: the SDK's provider interface over the stored record, with the
 * loopback redirect and the person who opens the authorization URL.
 */
export class ServerOAuth implements OAuthClientProvider {
  private readonly file: string | undefined;
  private record: Stored;
  private verifier = '';
  private expectedState = '';
  private listener?: { server: Server; port: number; waiting?: (p: URLSearchParams | Error) => void };
  /** The callback of the last authorization, for finishAuth. */
  pending?: URLSearchParams;

  /** The project's real path: its tokens are its own. */
  readonly project: string;

  constructor(
    project: string,
    readonly serverUrl: string,
    private readonly opts: {
      openUrl?: OpenUrl;
      preRegistered?: PreRegistered;
      metadataUrl?: string;
      signal?: AbortSignal;
    } = {},
  ) {
    this.project = realOrUndefined(project) ?? resolve(project);
    this.file = storeFile(this.project, serverUrl);
    this.record = this.read();
    if (opts.metadataUrl && opts.metadataUrl !== this.record.metadataUrl) {
      this.record.metadataUrl = opts.metadataUrl;
      this.write();
    }
  }

  /** The client ID metadata document's URL, when the user gave one (import --oauth-client-metadata-url). */
  get clientMetadataUrl(): string | undefined {
    return this.record.metadataUrl;
  }

  private read(): Stored {
    if (!this.file) return {};
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as Stored;
      return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
    } catch {
      return {};
    }
  }

  private write(): void {
    if (this.file) writeFileAtomic(this.file, JSON.stringify(this.record), 0o600);
  }

  /** Whether a person can be asked to authorize (otherwise a needed authorization is an error). */
  get interactive(): boolean {
    return Boolean(this.opts.openUrl);
  }

  /** Open the loopback listener the browser comes back to (before the SDK asks for redirectUrl). */
  async listen(): Promise<void> {
    if (this.listener || !this.opts.openUrl) return;
    const server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (u.pathname !== '/callback') return void res.writeHead(404).end();
      const l = this.listener;
      if (u.searchParams.get('state') !== this.expectedState || !l?.waiting) {
        res
          .writeHead(400, { 'content-type': 'text/plain' })
          .end('toolbox: this authorization was not asked for here.\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('toolbox: authorized. You can close this page.\n');
      l.waiting(u.searchParams);
    });
    const port = await new Promise<number>((resolve, reject) => {
      const tryPort = (p: number) => {
        server.once('error', (e: NodeJS.ErrnoException) => (p && e.code === 'EADDRINUSE' ? tryPort(0) : reject(e)));
        server.listen(p, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
      };
      tryPort(this.record.port ?? 0);
    });
    server.unref();
    this.listener = { server, port };
    if (this.record.port !== port) {
      this.record.port = port;
      this.write();
    }
  }

  close(): void {
    this.listener?.server.close();
    this.listener = undefined;
  }

  get redirectUrl(): string | undefined {
    return this.listener ? `http://127.0.0.1:${this.listener.port}/callback` : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'toolbox',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    // Given by the user for this import: used as it is (no registration).
    if (this.opts.preRegistered) return { ...this.opts.preRegistered };
    const c = this.record.clients?.[ctx?.issuer ?? ''];
    if (!c) return undefined;
    // A registration made for another redirect address (the port moved) is made again.
    const uris = (c as { redirect_uris?: string[] }).redirect_uris;
    if (uris && this.redirectUrl && !uris.includes(this.redirectUrl)) return undefined;
    return c;
  }

  saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    (this.record.clients ??= {})[ctx?.issuer ?? ''] = info;
    this.write();
  }

  tokens(ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    const all = this.record.tokens ?? {};
    // Before the authorization server is known (the first request), the one set of tokens there is.
    if (!ctx) return Object.values(all).length === 1 ? Object.values(all)[0] : undefined;
    return all[ctx.issuer];
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    this.record.tokens = { [ctx?.issuer ?? '']: tokens };
    this.write();
  }

  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') delete this.record.clients;
    if (scope === 'all' || scope === 'tokens') delete this.record.tokens;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
    this.write();
  }

  /** Send the person to the authorization server and wait for the browser to come back. */
  async redirectToAuthorization(url: URL): Promise<void> {
    const open = this.opts.openUrl;
    if (!open || !this.listener) throw authRequired(this.serverUrl);
    const l = this.listener;
    const came = new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error('no authorization came back in 5 minutes')), AUTHORIZE_MS);
      const onAbort = () => done(new Error('authorization cancelled'));
      const done = (p: URLSearchParams | Error) => {
        clearTimeout(timer);
        this.opts.signal?.removeEventListener('abort', onAbort);
        l.waiting = undefined;
        if (p instanceof Error) reject(p);
        else resolve(p);
      };
      this.opts.signal?.addEventListener('abort', onAbort, { once: true });
      l.waiting = done;
    });
    await open(url.toString(), `authorize toolbox with the MCP server ${this.serverUrl}`);
    const params = await came;
    const error = params.get('error');
    if (error) {
      throw new ToolboxError('mcp_auth_failed', `the authorization server refused: ${error}`, {
        exitCode: ExitCode.toolFailed,
        hint: params.get('error_description') ?? 'Try again, and accept the access toolbox asks for.',
      });
    }
    this.pending = params;
  }
}

export function authRequired(serverUrl: string): ToolboxError {
  return new ToolboxError('mcp_auth_required', `the MCP server ${serverUrl} needs you to authorize toolbox`, {
    exitCode: ExitCode.toolFailed,
    hint: `Authorize once for this project with \`toolbox import mcp --url ${serverUrl}\` run in it (it shows a link to open); the tokens are kept in your own state folder, for this project only.`,
  });
}

/** An error of the SDK that says the server refused toolbox's authorization, as a ToolboxError; else undefined. */
export function authFailure(e: unknown): ToolboxError | undefined {
  const name = (e as Error)?.name;
  if (name !== 'UnauthorizedError' && name !== 'InsufficientScopeError' && name !== 'IssuerMismatchError')
    return undefined;
  return new ToolboxError(
    'mcp_auth_failed',
    `the MCP server refused toolbox's authorization: ${(e as Error).message}`,
    {
      exitCode: ExitCode.toolFailed,
      hint: 'Authorize again when asked and accept the access toolbox asks for; a server that keeps refusing needs its administrator.',
      cause: e,
    },
  );
}
