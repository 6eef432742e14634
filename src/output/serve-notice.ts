// What `serve --http` tells people about authentication: how clients pass the token (the token
// itself only once, when it was just made, and only to a terminal), and loud warnings when a
// server answers more than its user.
import type { ResolvedAuth } from '../serve/auth.js';
import type { CommandContext } from './context.js';

interface ListenInfo {
  url: string;
  host: string;
  expose: string;
  tools: number;
  /** Whether local clients of other users are refused (the check works here and was not turned off). */
  sameUser: boolean;
}

/** The `auth` member of `serve --http --json`'s document: how clients authenticate, never the token. */
export function authJson(r: ResolvedAuth, info: { sameUser: boolean }): Record<string, unknown> {
  if (r.source === 'none') return { mode: 'none' };
  return {
    mode: 'token',
    source: r.source,
    ...(r.file ? { file: r.file, created: Boolean(r.created) } : {}),
    sameUser: info.sameUser,
  };
}

/** The lines for people on stderr, after `listening on …`. */
export function authNotice(
  ctx: CommandContext,
  r: ResolvedAuth,
  info: ListenInfo,
  /** Where serve's messages go (`--log-format json` makes each a JSON line). */
  out?: (s: string) => void,
): void {
  const say = out ?? ((s: string) => ctx.io.stderr.write(`${ctx.style.dim('toolbox serve:')} ${s}\n`));
  const loud = (lines: string[]) =>
    out
      ? lines.forEach((l) => out(l))
      : ctx.io.stderr.write(`${lines.map((l) => ctx.style.bold(ctx.style.red(`toolbox serve: ${l}`))).join('\n')}\n`);
  const what =
    info.expose === 'all'
      ? `list and call all ${info.tools} tools`
      : `find and call all ${info.tools} tools (through search_tools and call_tool)`;
  if (r.source === 'none') {
    const loopback = /^(127\.|localhost$|::1$|\[::1\]$)/.test(info.host);
    const who = loopback
      ? 'every user of this machine, and every sandboxed tool allowed the network,'
      : `anyone who can reach ${info.host === '0.0.0.0' || info.host === '::' ? 'any network interface of this machine' : `the address ${info.host}`}`;
    loud([
      `WARNING: --no-auth: NO AUTHENTICATION on ${info.url}.`,
      `${who[0]!.toUpperCase()}${who.slice(1)} can ${what} of this registry, running them on this machine as this user.`,
      ...(loopback ? [] : ['DNS-rebinding protection (Host header check) is off for non-loopback hosts.']),
      'Drop --no-auth to require the token in your state folder (clients send Authorization: Bearer <token>).',
    ]);
    return;
  }
  if (r.created && ctx.io.stderr.isTTY) {
    // Shown once: later starts only say where it is.
    const t = r.auth === 'none' ? '' : (r.auth.token ?? '');
    say(ctx.style.bold(`new token for HTTP clients (shown once, kept in ${r.file}): ${t}`));
  } else if (r.created) say(`made a token for HTTP clients in ${r.file} (readable only by you)`);
  const where = r.source === 'env' ? 'the value of the variable given to --token-env' : `the token in ${r.file}`;
  say(`clients must send Authorization: Bearer <${where}>`);
  if (r.file) say(ctx.style.dim(`  e.g. --header "Authorization: Bearer $(cat ${r.file})"`));
  const wanted = r.auth !== 'none' && r.auth.sameUser;
  if (wanted && !info.sameUser)
    say(
      ctx.style.yellow(
        'cannot tell which user a local client runs as on this system (no /proc/net/tcp): the token alone guards the server',
      ),
    );
  else if (!wanted)
    say(
      ctx.style.yellow('--allow-other-users: local clients of other users are answered too when they send the token'),
    );
}
