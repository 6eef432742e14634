import { ExitCode, ToolboxError } from '../errors.js';
import { unlisted } from '../sandbox/egress/policy.js';
import { egressDispatcher } from '../sandbox/egress/dispatcher.js';
import type { HttpConfig, ToolEntry } from '../contract/types.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';
import type { CallContext, Loader, LoadContext, ToolOutput } from './types.js';
import { cancelledError, limitError } from './util/outcome.js';
import { buildRequest, redactor, type HttpRequest } from './util/http-request.js';
import { envRefs, originParams } from '../contract/template.js';

const REACH: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_SOCKET: 'connection closed',
};

/** `${VAR}` placeholders must name variables the contract allow-lists in sandbox.env. */
function checkEnvAllowed(entry: ToolEntry, cfg: HttpConfig): string[] {
  const refs = [...envRefs([cfg.url, cfg.headers ?? {}, cfg.query ?? {}, cfg.body ?? null])];
  const allowed = new Set(entry.contract.sandbox?.env ?? []);
  const bad = refs.filter((r) => !allowed.has(r));
  if (bad.length > 0) {
    throw new ToolboxError(
      'env_not_allowed',
      `tool '${entry.contract.id}': loader_config uses \${${bad[0]}}, which is not in the contract's sandbox.env allow-list`,
      {
        exitCode: ExitCode.registry,
        location: { file: entry.file, line: entry.line },
        hint: `Add it to the contract: sandbox: { env: [${[...allowed, ...bad].join(', ')}] } (${entry.file}).`,
        details: { variables: bad },
      },
    );
  }
  return refs;
}

/**
 * A contract whose URL takes its scheme, host, port or user info from an argument sends nothing from
 * the environment: the caller would choose who receives the secret.
 */
function checkSecretOrigin(entry: ToolEntry, cfg: HttpConfig, refs: string[]): void {
  const chosen = originParams(cfg.url);
  if (chosen.length === 0 || refs.length === 0) return;
  throw new ToolboxError(
    'http_secret_to_argument_host',
    `tool '${entry.contract.id}' sends \${${refs[0]}} to a URL whose host comes from the argument '${chosen[0]}': the caller would choose who receives it`,
    {
      exitCode: ExitCode.registry,
      location: { file: entry.file, line: entry.line },
      hint: `Write the host in the contract's url (or take it from your environment, \${API_HOST}), or send no \${VAR} (${entry.file}).`,
      details: { parameter: chosen[0], variable: refs[0] },
    },
  );
}

/** Read the body, stopping (and aborting the request) past `cap` bytes. */
async function readCapped(res: Response, cap: number, abort: () => void): Promise<{ text: string; over: boolean }> {
  if (!res.body) return { text: '', over: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      abort();
      await reader.cancel().catch(() => undefined);
      return { text: '', over: true };
    }
    chunks.push(value);
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), over: false };
}

function isJson(contentType: string | null): boolean {
  return /^[a-z]+\/([\w.-]+\+)?json\b/i.test(contentType ?? ''); // application/json, application/problem+json
}

async function perform(
  entry: ToolEntry,
  cfg: HttpConfig,
  refs: string[],
  args: Record<string, unknown>,
  ctx: CallContext,
): Promise<ToolOutput> {
  if (!ctx.network) {
    throw new ToolboxError(
      'network_not_allowed',
      `tool '${entry.contract.id}' makes HTTP requests but its sandbox policy keeps the network closed`,
      {
        exitCode: ExitCode.permission,
        location: { file: entry.file, line: entry.line },
        hint: `Open it in the contract with \`sandbox: { network: true }\` (${entry.file}).`,
      },
    );
  }
  const missing = refs.filter((r) => ctx.env[r] === undefined);
  if (missing.length > 0) {
    throw new ToolboxError(
      'env_missing',
      `tool '${entry.contract.id}' needs environment variable ${missing.join(', ')}, which is not set`,
      {
        exitCode: ExitCode.missingDeps,
        hint: `Set ${missing[0]} in the environment toolbox runs in.`,
      },
    );
  }
  const redact = redactor(refs.map((r) => ctx.env[r]!));
  const req = buildRequest(cfg, args, ctx.env, redact);
  // A host list in sandbox.network holds for toolbox's own request too (the URL may come from an argument).
  const port = Number(req.url.port) || (req.url.protocol === 'https:' ? 443 : 80);
  const off = ctx.egress && unlisted(ctx.egress.listener.policy, req.url.hostname, port);
  if (off)
    throw new ToolboxError('network_refused', `the egress policy refused: ${off.message}`, {
      exitCode: ExitCode.permission,
      hint: off.hint,
      details: { host: off.host, port: off.port, reason: off.reason },
    });
  if (ctx.signal.aborted) throw cancelledError();
  // Every connection goes through the tool's egress proxy, as a sandboxed tool's would: it resolves
  // the name and dials only an address the policy allows (the host's loopback, private and link-local
  // addresses only by the user's grant); a refusal reaches the caller as network_refused (runtime).
  if (!ctx.egress) throw new Error(`http tool '${entry.contract.id}' has the network open but no egress proxy`);
  const dispatcher = await egressDispatcher(ctx.egress.socket);

  const local = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    local.abort();
  }, ctx.limits.timeoutMs);
  const onAbort = () => local.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const host = req.url.host;
  try {
    let res: Response;
    try {
      res = await fetchSameOrigin(req, local.signal, dispatcher);
    } catch (e) {
      if (e instanceof ToolRunError) throw e;
      if (ctx.signal.aborted) throw cancelledError();
      if (timedOut) throw limitError('timeout', ctx.limits, 'none');
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = (cause?.code && REACH[cause.code]) ?? redact(cause?.message ?? (e as Error).message);
      throw new ToolRunError({ kind: 'failed', message: `cannot reach ${host}: ${why}`, tier: 'none' });
    }
    let body: { text: string; over: boolean };
    try {
      body = await readCapped(res, ctx.limits.outputBytes, () => local.abort());
    } catch (e) {
      if (ctx.signal.aborted) throw cancelledError();
      if (timedOut) throw limitError('timeout', ctx.limits, 'none');
      throw new ToolRunError({
        kind: 'failed',
        message: `reading the response from ${host} failed: ${redact((e as Error).message)}`,
        tier: 'none',
      });
    }
    if (body.over) throw limitError('output', ctx.limits, 'none');
    if (!res.ok) {
      const excerpt = redact(body.text.replace(/\s+/g, ' ').trim().slice(0, 300));
      throw new ToolRunError({
        kind: 'failed',
        message: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} from ${host}${excerpt ? `: ${excerpt}` : ''}`,
        tier: 'none',
      });
    }
    if (req.method === 'HEAD')
      return { result: { status: res.status, headers: Object.fromEntries(res.headers) }, tier: 'none' };
    if (isJson(res.headers.get('content-type'))) {
      try {
        return { result: JSON.parse(body.text), tier: 'none' };
      } catch {
        /* a server that lies about its type: give the text */
      }
    }
    return { result: body.text, tier: 'none' };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

const MAX_REDIRECTS = 5;

/**
 * fetch, following redirects only within the same origin (scheme, host and port): a redirect to
 * another origin would carry the contract's headers (API keys) or body to a host the contract never
 * named, so it is not followed and the call fails, naming where it pointed.
 */
async function fetchSameOrigin(req: HttpRequest, signal: AbortSignal, dispatcher: object): Promise<Response> {
  let url = req.url;
  let method = req.method;
  let body = req.body;
  for (let hop = 0; ; hop++) {
    // `dispatcher` is undici's own option to Node's fetch (not in the DOM RequestInit type).
    const init = { method, headers: req.headers, body, signal, redirect: 'manual', dispatcher } as RequestInit;
    const res = await fetch(url, init);
    const loc = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || res.status === 304 || !loc) return res;
    await res.body?.cancel().catch(() => undefined);
    const next = new URL(loc, url);
    if (next.origin !== req.url.origin)
      throw new ToolRunError({
        kind: 'failed',
        message: `HTTP ${res.status} from ${url.host} redirects to another origin (${next.origin}); not followed, so the request's headers and body stay with ${req.url.origin}`,
        tier: 'none',
      });
    if (hop >= MAX_REDIRECTS)
      throw new ToolRunError({
        kind: 'failed',
        message: `more than ${MAX_REDIRECTS} redirects from ${req.url.host}`,
        tier: 'none',
      });
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = undefined;
    }
    url = next;
  }
}

/**
 * The http loader: the request is made by toolbox itself with fetch (no tool code runs, so there is
 * no child process and the reported sandbox tier is 'none'), under the contract's policy: the network
 * must be opened, `${VAR}` must be allow-listed, and the timeout and output limit apply.
 */
export const loader: Loader = {
  type: 'http',
  async load(ctx: LoadContext) {
    const cfg = ctx.entry.contract.loader_config as unknown as HttpConfig;
    const refs = checkEnvAllowed(ctx.entry, cfg);
    checkSecretOrigin(ctx.entry, cfg, refs);
    return { call: (args, call) => perform(ctx.entry, cfg, refs, args, call) };
  },
};
