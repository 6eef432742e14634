// Where state shared between toolbox processes lives: `--state URL`, else $TOOLBOX_STATE_URL, else
// `state:` in the user's own config (~/.config/toolbox/config.yaml), never the project's (a cloned
// project must not point a user's calls at its Redis). A URL's password is a secret: every text made
// from it for people goes through redactUrl() / redactText().
import { readFileSync } from 'node:fs';
import { ExitCode, ToolboxError } from '../errors.js';
import { loadUserConfig } from '../policy/user-config.js';

/** A parsed state URL. `shown` is the URL without its password: the only form ever printed. */
export interface StateUrl {
  /** The URL as given (credentials included): for the client only. */
  url: string;
  shown: string;
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** Key prefix: deployments sharing one Redis database keep apart by it (`?ns=NAME`, default toolbox). */
  ns: string;
  /** Where it came from: the flag, the environment, or the user's config file. */
  source: 'flag' | 'env' | 'config';
}

export const STATE_ENV = 'TOOLBOX_STATE_URL';
/** Credentials from the environment when the URL has none (kept out of command lines and `ps`). */
export const STATE_USER_ENV = 'TOOLBOX_STATE_USERNAME';
export const STATE_PASSWORD_ENV = 'TOOLBOX_STATE_PASSWORD';
/**
 * A file holding the password (a container secret: compose's /run/secrets/…, a Kubernetes Secret
 * volume), for when it should not sit in any process's environment. Named by the user's environment,
 * never by a project.
 */
export const STATE_PASSWORD_FILE_ENV = 'TOOLBOX_STATE_PASSWORD_FILE';

/** The password in the file $TOOLBOX_STATE_PASSWORD_FILE names (one trailing newline dropped). */
function passwordFromFile(env: Record<string, string | undefined>, shown: string): string | undefined {
  const file = env[STATE_PASSWORD_FILE_ENV];
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ToolboxError(
      'state_password_file_unreadable',
      `state URL ${shown}: ${STATE_PASSWORD_FILE_ENV}=${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      {
        exitCode: ExitCode.usage,
        hint: `Point ${STATE_PASSWORD_FILE_ENV} at a file this user can read (its content is the password), or unset it.`,
      },
    );
  }
  return text.replace(/\r?\n$/, '') || undefined;
}

const bad = (shown: string, why: string) =>
  new ToolboxError('state_url_invalid', `state URL ${shown}: ${why}`, {
    exitCode: ExitCode.usage,
    hint: 'Give redis://[user[:password]@]host[:port][/db] or rediss:// for TLS (credentials may come from TOOLBOX_STATE_USERNAME / TOOLBOX_STATE_PASSWORD or TOOLBOX_STATE_PASSWORD_FILE instead).',
  });

const SCHEME = /[a-z][a-z0-9+.-]*:\/\//gi;
// A username is shown only when it is plainly one (no character a URL would have to escape).
const PLAIN_USER = /^[A-Za-z0-9._~-]*$/;

/** `user:***` (or `:***`) for credentials `cred` that hold a password, else `***` (a lone username may be a token). */
function maskCredentials(cred: string): string {
  const colon = cred.indexOf(':');
  if (colon < 0) return '***';
  const user = cred.slice(0, colon);
  return PLAIN_USER.test(user) ? `${user}:***` : '***';
}

/**
 * The text with the credentials of every `scheme://…@` URL in it replaced by `***`. A password may
 * hold `/`, `#`, `?`, `@` or `%` (written raw, the URL may not even parse): everything from the
 * scheme up to the LAST `@` before the next white space counts as credentials, so a password (even
 * one holding `://`) is never half shown. An `@` in a URL's path or query hides that part too: the safe side.
 */
export function redactUrl(text: string): string {
  const starts = [...text.matchAll(SCHEME)].map((m) => ({ at: m.index, len: m[0].length }));
  if (!starts.length) return text;
  let out = '';
  let pos = 0;
  for (const { at, len } of starts) {
    if (at < pos) continue;
    const begin = at + len;
    // Up to white space, not to the next scheme: a password may hold `x://` itself (what follows
    // inside the credentials is skipped above). Two URLs with no space between hide the first's host.
    const ws = text.slice(begin).search(/\s/);
    const end = ws < 0 ? text.length : begin + ws;
    const lastAt = text.lastIndexOf('@', end - 1);
    out += text.slice(pos, begin);
    if (lastAt >= begin) {
      out += `${maskCredentials(text.slice(begin, lastAt))}@`;
      pos = lastAt + 1;
    } else pos = begin;
  }
  return out + text.slice(pos);
}

/**
 * One state URL as given (whole, even when it is not a valid URL, with spaces or without `//`),
 * shown without its credentials: everything between the scheme and the last `@`.
 */
export function redactStateUrl(text: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:(\/\/?)?/i.exec(text)?.[0] ?? '';
  const lastAt = text.lastIndexOf('@');
  if (lastAt < scheme.length) return redactUrl(text);
  return `${text.slice(0, scheme.length)}${maskCredentials(text.slice(scheme.length, lastAt))}@${text.slice(lastAt + 1)}`;
}

/** Any text (an error message from the client library) with URL credentials and the given secrets removed. */
export function redactText(text: string, secrets: (string | undefined)[] = []): string {
  let out = text;
  // Longest first, so that a secret holding another is removed whole.
  const list = [...new Set(secrets.filter((s): s is string => !!s && s.length >= 3))].sort(
    (a, b) => b.length - a.length,
  );
  for (const s of list) out = out.split(s).join('***');
  return redactUrl(out);
}

/**
 * The warning for a state URL without a password (none in the URL, none in TOOLBOX_STATE_PASSWORD):
 * whatever reaches that Redis reads and writes the deployment's shared state. Shows only `shown`.
 */
export function noPasswordWarning(url: StateUrl): { message: string; fix: string } | undefined {
  if (url.password) return undefined;
  return {
    message: `state URL ${url.shown} has no password: anything that reaches that Redis can read and write the deployment's shared state (breakers, client limits, the call log, the requestState signing key; results and tasks are sealed, but can be deleted)`,
    fix: `Set a password on the Redis (requirepass, or an ACL user) and give it in ${STATE_PASSWORD_ENV} (kept out of command lines), or in the URL as redis://:PASSWORD@host; keep the Redis reachable only by the replicas.`,
  };
}

const NS_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Parse a state URL. Throws state_url_invalid (exit 2) for anything but redis:// or rediss://. */
export function parseStateUrl(
  text: string,
  source: StateUrl['source'],
  env: Record<string, string | undefined> = {},
): StateUrl {
  const shownRaw = redactStateUrl(text.trim());
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    throw bad(shownRaw, 'not a URL');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw bad(shownRaw, `unsupported scheme ${u.protocol}`);
  // With credentials in the text, a part the parser found elsewhere (path, query, host) may be a
  // piece of the password (`redis://pw#x@h` has host `pw`): such parts are refused, never quoted.
  const hasAt = text.includes('@');
  const quote = (v: string) => (hasAt ? '' : ` '${v}'`);
  if (hasAt && !u.username && !u.password)
    throw bad(shownRaw, "an '@' outside the credentials (write @, /, ? or # in a password as %40, %2F, %3F, %23)");
  if (u.hash) throw bad(shownRaw, "a '#' fragment (write # in a password as %23)");
  if (!u.hostname) throw bad(shownRaw, 'no host');
  const port = u.port ? Number(u.port) : 6379;
  const path = u.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path))
    throw bad(shownRaw, `database${quote(path)} is not a number (0-15 by default)`);
  const ns = u.searchParams.get('ns') ?? 'toolbox';
  if (!NS_RE.test(ns)) throw bad(shownRaw, `ns${quote(ns)} must be 1-64 letters, digits, '_', '.' or '-'`);
  for (const k of u.searchParams.keys())
    if (k !== 'ns') throw bad(shownRaw, `unknown parameter${quote(k)} (only ns= is understood)`);
  const decode = (v: string, what: string) => {
    try {
      return decodeURIComponent(v);
    } catch {
      throw bad(shownRaw, `the ${what} is not valid percent-encoding (write a literal % as %25)`);
    }
  };
  const username = decode(u.username, 'username') || env[STATE_USER_ENV] || undefined;
  const password =
    decode(u.password, 'password') || env[STATE_PASSWORD_ENV] || passwordFromFile(env, shownRaw) || undefined;
  return {
    url: text.trim(),
    shown: shownRaw,
    tls: u.protocol === 'rediss:',
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port,
    db: path === '' ? 0 : Number(path),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ns,
    source,
  };
}

/**
 * The state URL in force: `--state URL` (flag), else $TOOLBOX_STATE_URL, else `state:` in the user's
 * config (only when it is theirs and outside the project: policy/user-config.ts's rules). Undefined
 * without any: state stays in `.toolbox/`. `--state off` (or an empty value) turns a URL from the
 * environment or config off for one command.
 */
export function resolveStateUrl(o: {
  flag?: string;
  env: Record<string, string | undefined>;
  /** Read the user's config file (false in tests that must not see the machine's). */
  userConfig?: boolean;
  /** The project: a config file inside it does not count. */
  projectRoot?: string;
}): StateUrl | undefined {
  if (o.flag !== undefined) {
    if (o.flag === '' || o.flag === 'off') return undefined;
    return parseStateUrl(o.flag, 'flag', o.env);
  }
  const fromEnv = o.env[STATE_ENV];
  if (fromEnv !== undefined)
    return fromEnv === '' || fromEnv === 'off' ? undefined : parseStateUrl(fromEnv, 'env', o.env);
  if (o.userConfig === false) return undefined;
  // The same reader, and the same rules for whether the file counts, as every user-only setting.
  const user = loadUserConfig(o.projectRoot);
  if (user.ignored || !('state' in user.data)) return undefined;
  const value = user.data.state;
  if (typeof value !== 'string' || !value.trim()) {
    const at = user.locate(['state']);
    throw new ToolboxError(
      'user_config_invalid',
      `${user.file}${at ? `:${at.line}:${at.column}` : ''}: state: needs a URL (redis://host:port/db)`,
      {
        exitCode: ExitCode.registry,
        hint: 'Write `state: redis://host:6379/0` in your own toolbox config, or remove the line.',
      },
    );
  }
  return parseStateUrl(value.trim(), 'config', o.env);
}
