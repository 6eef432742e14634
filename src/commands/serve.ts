import { resolveProject } from '../config.js';
import { usageError } from '../errors.js';
import { printJson, type CommandContext } from '../output/context.js';
import { takeTelemetryWarning } from '../telemetry/state.js';

/**
 * `toolbox serve [--http PORT] [--host H] [--expose search|all] [--user U | --role R]`: the
 * registry as an MCP server. stdio: stdout is the protocol channel, so everything for people goes
 * to stderr. Runs until the client disconnects (stdin closes) or SIGINT/SIGTERM; then every worker
 * and server process it started is stopped.
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
  const { ServeCore } = await import('../serve/core.js');
  const core = new ServeCore(project, {
    expose,
    caller: { user: opts.user as string | undefined, role: opts.role as string | undefined },
    verbose: ctx.opts.verbose,
    env: ctx.io.env,
    ...(opts.locked ? { locked: true } : {}),
  });
  const say = (s: string) => ctx.io.stderr.write(`${ctx.style.dim('toolbox serve:')} ${s}\n`);
  try {
    const warm = await core.start();
    const traceWarning = takeTelemetryWarning();
    if (traceWarning) say(ctx.style.yellow(traceWarning));
    const tools = core.visibleTools().length;
    say(`${tools} tools, --expose ${expose}${warm.loaded.length ? `, warm: ${warm.loaded.join(', ')}` : ''}`);
    if (ctx.opts.verbose) say(`registry ${project.registryDir}; config ${project.configFile ?? 'none (defaults)'}`);
    for (const f of warm.failed) say(ctx.style.yellow(`warm tool '${f.id}' failed to load: ${f.error.message}`));
    if (port !== undefined) {
      const { serveHttp, isLoopbackHost } = await import('../serve/http.js');
      const host = String(opts.host ?? '127.0.0.1');
      const token = bearerToken(ctx, opts.tokenEnv);
      await serveHttp(core, {
        port,
        host,
        ...(token ? { token } : {}),
        signal: ctx.io.signal,
        onListening: (url) => {
          if (!isLoopbackHost(host) && !token) exposedWarning(ctx, url, host, expose, tools);
          if (ctx.opts.json) printJson(ctx, { url, expose, tools, transport: 'streamable-http' });
          say(`listening on ${url}`);
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

/** The token named by --token-env: the variable must be set, and long enough to resist guessing. */
function bearerToken(ctx: CommandContext, name: unknown): string | undefined {
  if (name === undefined) return undefined;
  const v = ctx.io.env[String(name)];
  if (!v || v.length < 16)
    throw usageError(
      'token_env_invalid',
      `--token-env ${String(name)}: the variable is ${v ? 'shorter than 16 characters' : 'not set'}`,
      `Set it to a long random value, e.g. export ${String(name)}=$(openssl rand -hex 32).`,
    );
  return v;
}

/**
 * `--host` other than loopback: anyone who can reach the port can list and call the tools, and
 * the server has no authentication of its own. Said loudly on stderr (even with --json).
 */
function exposedWarning(ctx: CommandContext, url: string, host: string, expose: string, tools: number): void {
  const where =
    host === '0.0.0.0' || host === '::' || host === '[::]'
      ? 'every network interface of this machine'
      : `the address ${host}`;
  const what =
    expose === 'all'
      ? `list and call all ${tools} tools`
      : `find and call all ${tools} tools (through search_tools and call_tool)`;
  const lines = [
    `WARNING: toolbox serve is listening on ${where} (${url}) with NO AUTHENTICATION.`,
    `Anyone who can reach this port can ${what} of this registry, running them on this machine as this user`,
    `with the permissions of the configured caller. DNS-rebinding protection (Host header check) is off for non-loopback hosts.`,
    `Prefer --host 127.0.0.1 (the default), or put the server behind a reverse proxy that authenticates clients (and TLS).`,
  ];
  const paint = (s: string) => ctx.style.bold(ctx.style.red(s));
  ctx.io.stderr.write(`${lines.map((l) => paint(`toolbox serve: ${l}`)).join('\n')}\n`);
}
