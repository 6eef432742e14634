// What a running tool may send to the MCP client through `serve`, per call: log and progress
// notifications up to a count and a byte budget (then one warning says the rest were dropped),
// and sampling and elicitation requests only within the limits the user set (their own
// config.yaml or serve's flags, never the project): a bounded number per call, maxTokens no higher
// than the cap, includeContext no wider than allowed, a bounded request size. A tool's wishes
// beyond them are trimmed (maxTokens, includeContext) or refused (count, size) with a message the
// tool sees as an exception.
import type { ToolClient } from '../loaders/types.js';
import { ExitCode, ToolboxError, type Location } from '../errors.js';
import { loadUserConfig, type UserConfig } from '../policy/user-config.js';
import { DEFAULT_PAGE_SIZE } from './paging.js';

export const CONTEXTS = ['none', 'thisServer', 'allServers'] as const;
export type IncludeContext = (typeof CONTEXTS)[number];

/** Per-call limits of what a tool relays to the client. */
export interface RelayLimits {
  /** Log and progress notifications together. */
  notifications: { maxCount: number; maxBytes: number };
  sampling: { maxRequests: number; maxTokens: number; includeContext: IncludeContext; maxRequestBytes: number };
  elicitation: { maxRequests: number };
  /** Not a relay limit, but the same user's `serve:` section: tools per page of tools/list. */
  tools: { pageSize: number };
}

export const DEFAULT_RELAY_LIMITS: RelayLimits = {
  notifications: { maxCount: 1000, maxBytes: 256 * 1024 },
  sampling: { maxRequests: 5, maxTokens: 1024, includeContext: 'none', maxRequestBytes: 64 * 1024 },
  elicitation: { maxRequests: 5 },
  tools: { pageSize: DEFAULT_PAGE_SIZE },
};

/** serve's flags that set relay limits (they win over the user's config). */
export interface RelayFlags {
  samplingRequests?: unknown;
  samplingMaxTokens?: unknown;
  samplingContext?: unknown;
  pageSize?: unknown;
}

// The settings of the user's `serve:` section: section → key → what its value is.
const KEYS: Record<string, Record<string, 'count' | 'context'>> = {
  notifications: { max_count: 'count', max_bytes: 'count' },
  sampling: { max_requests: 'count', max_tokens: 'count', include_context: 'context', max_request_bytes: 'count' },
  elicitation: { max_requests: 'count' },
  tools: { page_size: 'count' },
};
const camel = (s: string) => s.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * The limits in force: the defaults, then the `serve:` section of the user's config.yaml, then the
 * flags. A bad value is user_config_invalid (exit 3, at its line:column) or a usage error (exit 2).
 */
export function resolveRelayLimits(user: UserConfig, flags: RelayFlags = {}): RelayLimits {
  const out: RelayLimits = structuredClone(DEFAULT_RELAY_LIMITS);
  const serve = user.data.serve;
  const bad = (path: string[], msg: string) => {
    const loc: Location | undefined = user.locate(['serve', ...path]);
    const where = loc ? `${loc.file}:${loc.line ?? 1}:${loc.column ?? 1}: ` : '';
    return new ToolboxError('user_config_invalid', `${where}serve.${path.join('.')} ${msg}`, {
      exitCode: ExitCode.registry,
      ...(loc ? { location: loc } : {}),
      hint: `Sections: ${Object.entries(KEYS)
        .map(([s, k]) => `${s}: { ${Object.keys(k).join(', ')} }`)
        .join('; ')}.`,
    });
  };
  if (serve !== undefined) {
    if (!serve || typeof serve !== 'object' || Array.isArray(serve)) throw bad([], 'must be a mapping');
    for (const [section, body] of Object.entries(serve as Record<string, unknown>)) {
      const keys = KEYS[section];
      if (!keys) throw bad([section], `is not a setting of serve (${Object.keys(KEYS).join(', ')})`);
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad([section], 'must be a mapping');
      for (const [key, v] of Object.entries(body as Record<string, unknown>)) {
        const kind = keys[key];
        if (!kind) throw bad([section, key], `is not a setting of serve.${section} (${Object.keys(keys).join(', ')})`);
        if (kind === 'count' && !isCount(v)) throw bad([section, key], 'must be a whole number ≥ 0');
        if (section === 'tools' && v === 0) throw bad([section, key], 'must be at least 1');
        if (kind === 'context' && !CONTEXTS.includes(v as IncludeContext))
          throw bad([section, key], `must be one of ${CONTEXTS.join(', ')}`);
        (out as unknown as Record<string, Record<string, unknown>>)[section]![camel(key)] = v;
      }
    }
  }
  const usage = (flag: string, want: string, v: unknown) =>
    new ToolboxError('invalid_option', `${flag} ${String(v)}: expected ${want}`, { exitCode: ExitCode.usage });
  const count = (flag: string, v: unknown) => {
    const n = Number(v);
    if (!/^\d+$/.test(String(v)) || !Number.isSafeInteger(n)) throw usage(flag, 'a whole number ≥ 0', v);
    return n;
  };
  if (flags.samplingRequests !== undefined)
    out.sampling.maxRequests = count('--sampling-requests', flags.samplingRequests);
  if (flags.samplingMaxTokens !== undefined)
    out.sampling.maxTokens = count('--sampling-max-tokens', flags.samplingMaxTokens);
  if (flags.pageSize !== undefined) {
    out.tools.pageSize = count('--page-size', flags.pageSize);
    if (out.tools.pageSize < 1) throw usage('--page-size', 'a whole number ≥ 1', flags.pageSize);
  }
  if (flags.samplingContext !== undefined) {
    if (!CONTEXTS.includes(flags.samplingContext as IncludeContext))
      throw usage('--sampling-context', CONTEXTS.join(', '), flags.samplingContext);
    out.sampling.includeContext = flags.samplingContext as IncludeContext;
  }
  return out;
}

/** The limits for a server of the project at `root`: the user's config.yaml (if it counts) and the flags. */
export function relayLimitsFor(root: string, flags: RelayFlags): { relay: RelayLimits; ignored?: string } {
  const user = loadUserConfig(root);
  return { relay: resolveRelayLimits(user, flags), ...(user.ignored ? { ignored: user.ignored } : {}) };
}

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '');

/** A sampling or elicitation request as it may go to the client, or the reason it may not. */
function vet(
  method: string,
  params: Record<string, unknown>,
  limits: RelayLimits,
  asked: { sampling: number; elicitation: number },
): Record<string, unknown> {
  const where = '(limits: the serve section of ~/.config/toolbox/config.yaml, or serve --sampling-* flags)';
  if (method === 'elicitation/create') {
    if (++asked.elicitation > limits.elicitation.maxRequests)
      throw new Error(
        `elicitation refused: more than ${limits.elicitation.maxRequests} questions in one call ${where}`,
      );
    return params;
  }
  if (method !== 'sampling/createMessage') return params;
  const s = limits.sampling;
  if (++asked.sampling > s.maxRequests)
    throw new Error(
      s.maxRequests === 0
        ? `sampling refused: this server relays no sampling requests ${where}`
        : `sampling refused: more than ${s.maxRequests} sampling requests in one call ${where}`,
    );
  const size = bytesOf(params);
  if (size > s.maxRequestBytes)
    throw new Error(`sampling refused: the request is ${size} bytes, more than ${s.maxRequestBytes} ${where}`);
  const out = { ...params };
  const max = typeof out.maxTokens === 'number' && out.maxTokens > 0 ? out.maxTokens : s.maxTokens;
  out.maxTokens = Math.min(max, s.maxTokens);
  const ctx = out.includeContext;
  if (ctx !== undefined && CONTEXTS.indexOf(ctx as IncludeContext) > CONTEXTS.indexOf(s.includeContext))
    out.includeContext = s.includeContext;
  else if (ctx !== undefined && !CONTEXTS.includes(ctx as IncludeContext)) out.includeContext = 'none';
  return out;
}

/**
 * `client` for one call of `tool`, within `limits`: notifications counted and capped (one warning
 * when the cap is reached), questions vetted. Progress and log share one budget.
 */
export function limitRelay(client: ToolClient, limits: RelayLimits, tool: string): ToolClient {
  const n = limits.notifications;
  let count = 0;
  let bytes = 0;
  let capped = false;
  const asked = { sampling: 0, elicitation: 0 };
  const admit = (payload: unknown): boolean => {
    if (capped) return false;
    const size = bytesOf(payload);
    if (count < n.maxCount && bytes + size <= n.maxBytes) {
      count++;
      bytes += size;
      return true;
    }
    capped = true;
    void client.log?.({
      level: 'warning',
      logger: 'toolbox',
      data: `toolbox: tool '${tool}' sent more log and progress notifications than this server relays for one call (${n.maxCount} messages, ${n.maxBytes} bytes); the rest of this call's notifications are dropped`,
    });
    return false;
  };
  const out: ToolClient = { ...client };
  if (client.progress) {
    const progress = client.progress.bind(client);
    out.progress = (p) => (admit(p) ? progress(p) : undefined);
  }
  if (client.log) {
    const log = client.log.bind(client);
    out.log = (m) => (admit(m) ? log(m) : undefined);
  }
  if (client.request) {
    const request = client.request.bind(client);
    out.request = (method, params) => {
      try {
        return request(method, vet(method, params, limits, asked) as never);
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }
  // Questions asked together (a client API that batches them) are vetted one by one, all or none.
  const ask = (client as { ask?: (qs: { method: string; params: Record<string, unknown> }[]) => Promise<unknown[]> })
    .ask;
  if (ask) {
    (out as { ask?: unknown }).ask = (qs: { method: string; params: Record<string, unknown> }[]) => {
      try {
        return ask.call(
          client,
          qs.map((q) => ({ ...q, params: vet(q.method, q.params, limits, asked) })),
        );
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }
  return out;
}
