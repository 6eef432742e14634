import { printJson, type CommandContext } from '../output/context.js';
import type { ServeCore } from '../serve/core.js';
import { parseRate, type ClientLimitSettings } from '../serve/client-limits.js';
import { requireDuration } from '../runtime/duration.js';
import { usageError } from '../errors.js';
import type { RequestLogEntry } from '../serve/request-log.js';

/** `serve --http`'s own flags, checked before anything starts. */
export interface HttpFlags {
  drainMs: number;
  clients: Omit<ClientLimitSettings, 'perClient'>;
  trustProxy: boolean;
  logFormat: 'text' | 'json';
}

export function parseHttpFlags(opts: Record<string, unknown>): HttpFlags {
  const drainMs = opts.drain === undefined ? 30_000 : requireDuration(String(opts.drain), '--drain');
  let global: number | undefined;
  if (opts.globalInFlight !== undefined) {
    global = Number(opts.globalInFlight);
    if (!Number.isInteger(global) || global < 1)
      throw usageError(
        'invalid_limit',
        `--global-in-flight ${String(opts.globalInFlight)} is not a positive whole number`,
        'Give how many requests may be in flight at once across the deployment, e.g. --global-in-flight 200.',
      );
  }
  return {
    drainMs,
    clients: {
      ...(global ? { global } : {}),
      ...(opts.clientRate !== undefined ? { clientRate: parseRate(String(opts.clientRate), '--client-rate') } : {}),
      ...(opts.globalRate !== undefined ? { globalRate: parseRate(String(opts.globalRate), '--global-rate') } : {}),
    },
    trustProxy: Boolean(opts.trustProxy),
    logFormat: opts.logFormat === 'json' ? 'json' : 'text',
  };
}

/** `--log-format json`: one line per answered request on stderr (request-log.ts). */
async function requestLogger(ctx: CommandContext): Promise<(e: RequestLogEntry) => void> {
  const { requestLine, replicaName } = await import('../serve/request-log.js');
  const replica = replicaName(ctx.io.env);
  return (e) => ctx.io.stderr.write(`${requestLine(e, replica)}\n`);
}

/**
 * The HTTP half of `toolbox serve`: authentication resolved, the server run until SIGINT (stop now)
 * or SIGTERM (drain: new calls refused with 503, calls in flight finish within --drain, exit 0).
 */
export async function serveHttpCommand(
  ctx: CommandContext,
  core: ServeCore,
  opts: Record<string, unknown>,
  o: { port: number; expose: string; tools: number; flags: HttpFlags; say: (s: string) => void },
): Promise<void> {
  const { serveHttp, isLoopbackHost } = await import('../serve/http.js');
  const { resolveHttpAuth } = await import('../serve/auth.js');
  const { authJson, authNotice } = await import('../output/serve-notice.js');
  const host = String(opts.host ?? '127.0.0.1');
  const auth = resolveHttpAuth({
    env: ctx.io.env,
    ...(opts.tokenEnv !== undefined ? { tokenEnv: String(opts.tokenEnv) } : {}),
    noAuth: opts.auth === false,
    allowOtherUsers: Boolean(opts.allowOtherUsers),
    loopback: isLoopbackHost(host),
    host,
  });
  // SIGTERM drains; SIGINT (Ctrl+C) and anything else stop at once.
  const stop = new AbortController();
  const drain = new AbortController();
  const onSignal = () => (ctx.io.signal?.reason === 'SIGTERM' ? drain.abort() : stop.abort());
  if (ctx.io.signal?.aborted) onSignal();
  else ctx.io.signal?.addEventListener('abort', onSignal, { once: true });
  const { say } = o;
  const { style } = ctx;
  await serveHttp(core, {
    port: o.port,
    host,
    auth: auth.auth,
    signal: stop.signal,
    drainSignal: drain.signal,
    drainMs: o.flags.drainMs,
    clients: o.flags.clients,
    trustProxy: o.flags.trustProxy,
    ...(o.flags.logFormat === 'json' ? { onRequest: await requestLogger(ctx) } : {}),
    onDrain: (phase, calls) => {
      if (phase === 'start')
        say(`draining: no new calls; ${calls} in flight may finish within ${o.flags.drainMs / 1000} s`);
      else if (calls) say(style.yellow(`drained: ${calls} calls still running were stopped`));
      else say('drained: every call in flight finished');
    },
    onListening: (url, info) => {
      if (ctx.opts.json)
        printJson(ctx, {
          url,
          expose: o.expose,
          tools: o.tools,
          transport: 'streamable-http',
          auth: authJson(auth, info),
          ...(core.shared ? { state: core.shared.status() } : {}),
          sandbox: core.sandbox?.tier ?? null,
        });
      say(`listening on ${url} (health: /healthz, /readyz)`);
      authNotice(ctx, auth, { url, host, expose: o.expose, tools: o.tools, ...info }, say);
    },
    onSessionClosed: ctx.opts.verbose ? (id, reason) => say(style.dim(`session ${id} ${reason}`)) : undefined,
  });
  // A drain that ran its course is a clean stop: exit 0, not 130.
  if (drain.signal.aborted && !stop.signal.aborted) ctx.io.stoppedGracefully?.();
}
