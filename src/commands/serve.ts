import { resolveProject } from '../config.js';
import { ExitCode, ToolboxError, usageError } from '../errors.js';
import type { CommandContext } from '../output/context.js';
import { takeTelemetryWarning } from '../telemetry/state.js';
import { ignoredKeysText, projectUserOnlyKeys } from '../policy/user-settings.js';
import { takeStateWarnings } from '../util/state.js';
import type { Project } from '../config.js';
import type { RelayLimits } from '../serve/relay-limits.js';
import type { SharedState } from '../state/shared.js';
import { noPasswordWarning } from '../state/url.js';
import { openState, stateNotice } from './shared-state.js';
import type { HttpFlags } from './serve-http.js';
import type { ServeSandbox } from '../serve/preflight.js';

/**
 * `toolbox serve [--http PORT [--host H] [--token-env NAME | --no-auth]] [--expose search|all] [--user U | --role R]`
 * the registry as an MCP server (HTTP clients authenticate: src/serve/auth.ts). stdio: stdout is
 * the protocol channel, so everything for people goes to stderr. Runs until the client disconnects
 * (stdin closes) or SIGINT/SIGTERM; then every worker and server process it started is stopped.
 */
export async function serveCommand(
  ctx: CommandContext,
  _args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  if (opts.user && opts.role)
    throw usageError(
      'conflicting_options',
      'give --user or --role, not both',
      "--role wins over a user's roles anyway; pass just one.",
    );
  let port: number | undefined;
  if (opts.http !== undefined) {
    port = Number(opts.http);
    if (!/^\d+$/.test(String(opts.http)) || port > 65535)
      throw usageError(
        'invalid_port',
        `--http ${String(opts.http)} is not a port`,
        'Give a number from 0 to 65535 (0 picks a free port).',
      );
  }
  const expose = opts.expose === 'all' ? 'all' : 'search';
  // What a tool may relay (notifications, sampling, elicitation): the user's settings and flags only.
  const { relay, ignored } = (await import('../serve/relay-limits.js')).relayLimitsFor(project.root, opts);
  const httpFlags = port === undefined ? undefined : (await import('./serve-http.js')).parseHttpFlags(opts);
  const { replicaName, messageLine } = await import('../serve/request-log.js');
  const replica = replicaName(ctx.io.env);
  // --log-format json: serve's own messages are JSON lines too (one stream for a log collector).
  const say =
    opts.logFormat === 'json'
      ? (s: string) => ctx.io.stderr.write(`${messageLine(s, replica)}\n`)
      : (s: string) => ctx.io.stderr.write(`${ctx.style.dim('toolbox serve:')} ${s}\n`);
  const opened = await openState(ctx, opts.state, project.root, say);
  const open = opened && noPasswordWarning(opened.state.url);
  if (open) say(ctx.style.yellow(`${open.message}. ${open.fix}`));
  try {
    return await serveWith(ctx, project, opts, { expose, port, relay, ignored, httpFlags }, opened?.state, say);
  } finally {
    await opened?.release();
  }
}

/**
 * On a non-loopback address, tier `none` means every client's calls run unconfined: a tool reads
 * the replica's environment (its token) through /proc. Refused unless --allow-unsandboxed says so.
 */
async function refuseUnsandboxed(sb: ServeSandbox, opts: Record<string, unknown>): Promise<void> {
  const host = String(opts.host ?? '127.0.0.1');
  const { isLoopbackHost } = await import('../serve/http.js');
  if (sb.tier !== 'none' || isLoopbackHost(host) || opts.allowUnsandboxed) return;
  const { sandboxCauses } = await import('../sandbox/index.js');
  const causes = await sandboxCauses();
  const forced = process.env.TOOLBOX_SANDBOX === 'none';
  const why = forced ? ' (TOOLBOX_SANDBOX=none)' : causes.length ? ` (${causes.map((c) => c.message).join('; ')})` : '';
  throw new ToolboxError(
    'serve_unsandboxed',
    `refusing to serve on ${host}: the sandbox tier here is 'none'${why}, so every client's tools would run unconfined, able to read this process's environment and files`,
    {
      exitCode: ExitCode.usage,
      hint: `${causes.length ? `Fix: ${causes.map((c) => c.fix).join('; ')}. ` : ''}Or pass --allow-unsandboxed if unconfined tools are what you mean (\`toolbox doctor\` says more).`,
    },
  );
}

async function serveWith(
  ctx: CommandContext,
  project: Project,
  opts: Record<string, unknown>,
  o: {
    expose: 'search' | 'all';
    port: number | undefined;
    relay: RelayLimits;
    ignored: string | undefined;
    httpFlags: HttpFlags | undefined;
  },
  shared: SharedState | undefined,
  say: (s: string) => void,
): Promise<number> {
  const { expose, port, relay, ignored, httpFlags } = o;
  const { ServeCore } = await import('../serve/core.js');
  const core = new ServeCore(project, {
    expose,
    caller: { user: opts.user as string | undefined, role: opts.role as string | undefined },
    verbose: ctx.opts.verbose,
    env: ctx.io.env,
    relay,
    warn: (m) => say(ctx.style.yellow(m)),
    ...(opts.locked ? { locked: true } : {}),
    ...(shared ? { shared } : {}),
  });
  // Redis going away and coming back is said as it happens: calls go on meanwhile, on local state.
  const offState = shared?.onChange((s) =>
    say(s.health === 'connected' ? ctx.style.dim(stateNotice(s)) : ctx.style.yellow(stateNotice(s))),
  );
  try {
    // The tier every call will run under, found before anything listens: named in the start line,
    // /readyz and each call's _meta; `none` on a non-loopback address is refused unless asked for.
    core.sandbox = await (await import('../serve/preflight.js')).probeServeSandbox(project.stateDir);
    if (port !== undefined) await refuseUnsandboxed(core.sandbox, opts);
    const warm = await core.start();
    const traceWarning = takeTelemetryWarning();
    for (const w of [traceWarning, ...takeStateWarnings()]) if (w) say(ctx.style.yellow(w));
    const tools = core.visibleTools().length;
    const tier = core.sandbox.tier ?? `unavailable (${core.sandbox.error?.message ?? '?'})`;
    say(
      `${tools} tools, --expose ${expose}, sandbox ${tier}${warm.loaded.length ? `, warm: ${warm.loaded.join(', ')}` : ''}`,
    );
    if (ctx.opts.verbose) say(`registry ${project.registryDir}; config ${project.configFile ?? 'none (defaults)'}`);
    if (ignored) say(ctx.style.yellow(`ignoring your settings: ${ignored}`));
    for (const line of ignoredKeysText(projectUserOnlyKeys(project))) say(ctx.style.yellow(line));
    for (const f of warm.failed) say(ctx.style.yellow(`warm tool '${f.id}' failed to load: ${f.error.message}`));
    if (port !== undefined) {
      const { serveHttpCommand } = await import('./serve-http.js');
      await serveHttpCommand(ctx, core, opts, { port, expose, tools, flags: httpFlags!, say });
    } else {
      const { serveStdio } = await import('../serve/stdio.js');
      // The MCP channel is the process's own stdin/stdout (the IO sinks are text-only).
      await serveStdio(core, { stdin: process.stdin, stdout: process.stdout, signal: ctx.io.signal });
    }
  } finally {
    offState?.();
    await core.close();
  }
  say('stopped');
  return 0;
}
