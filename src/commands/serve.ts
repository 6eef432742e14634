import { resolveProject } from '../config.js';
import { usageError } from '../errors.js';
import { printJson, type CommandContext } from '../output/context.js';
import { takeTelemetryWarning } from '../telemetry/state.js';
import { takeStateWarnings } from '../util/state.js';

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
  const { ServeCore } = await import('../serve/core.js');
  const core = new ServeCore(project, {
    expose,
    caller: { user: opts.user as string | undefined, role: opts.role as string | undefined },
    verbose: ctx.opts.verbose,
    env: ctx.io.env,
    relay,
    ...(opts.locked ? { locked: true } : {}),
  });
  const say = (s: string) => ctx.io.stderr.write(`${ctx.style.dim('toolbox serve:')} ${s}\n`);
  try {
    const warm = await core.start();
    const traceWarning = takeTelemetryWarning();
    for (const w of [traceWarning, ...takeStateWarnings()]) if (w) say(ctx.style.yellow(w));
    const tools = core.visibleTools().length;
    say(`${tools} tools, --expose ${expose}${warm.loaded.length ? `, warm: ${warm.loaded.join(', ')}` : ''}`);
    if (ctx.opts.verbose) say(`registry ${project.registryDir}; config ${project.configFile ?? 'none (defaults)'}`);
    if (ignored) say(ctx.style.yellow(`ignoring your settings: ${ignored}`));
    for (const f of warm.failed) say(ctx.style.yellow(`warm tool '${f.id}' failed to load: ${f.error.message}`));
    if (port !== undefined) {
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
      await serveHttp(core, {
        port,
        host,
        auth: auth.auth,
        signal: ctx.io.signal,
        onListening: (url, info) => {
          if (ctx.opts.json)
            printJson(ctx, { url, expose, tools, transport: 'streamable-http', auth: authJson(auth, info) });
          say(`listening on ${url}`);
          authNotice(ctx, auth, { url, host, expose, tools, ...info });
        },
        onSessionClosed: ctx.opts.verbose ? (id, reason) => say(ctx.style.dim(`session ${id} ${reason}`)) : undefined,
      });
    } else {
      const { serveStdio } = await import('../serve/stdio.js');
      // The MCP channel is the process's own stdin/stdout (the IO sinks are text-only).
      await serveStdio(core, { stdin: process.stdin, stdout: process.stdout, signal: ctx.io.signal });
    }
  } finally {
    await core.close();
  }
  say('stopped');
  return 0;
}
