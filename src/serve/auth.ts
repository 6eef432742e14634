// Who may talk to `serve --http`: a client that sends the bearer token and, on this machine, runs
// as the same user as the server. The token lives in the user's own state folder (0700, file 0600),
// made on first use; the user check reads the owner of the client's socket (peer-uid.ts), so a
// token that leaked (a client's command line is visible to every local user) is still refused to
// other users. `--no-auth` turns both off, for those who mean it.
import { closeSync, constants, fstatSync, linkSync, openSync, readSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { ExitCode, ToolboxError } from '../errors.js';
import { nodeCrypto } from '../util/builtins.js';
import { userStateDir } from '../util/user-dirs.js';
import { checkToken, type Refusal } from './http-guard.js';
import { peerUid } from './peer-uid.js';

/** How requests are authenticated. */
export interface HttpAuth {
  /** The bearer token every request must carry; undefined means no authentication (`--no-auth`). */
  token?: string;
  /** Refuse clients on this machine that run as another user (Linux; checked per connection). */
  sameUser?: boolean;
}

export const TOKEN_FILE = 'serve-token';
const MIN_TOKEN = 16;
const TOKEN_RE = /^[A-Za-z0-9._~+/=-]{16,512}$/;

const unsafe = (file: string, why: string) =>
  new ToolboxError('serve_token_unsafe', `the serve token file ${file} ${why}`, {
    exitCode: ExitCode.registry,
    hint: `Remove it (toolbox serve makes a new one, readable only by you), or pass --token-env NAME.`,
  });

/** Read the token file without following a symlink; undefined when it does not exist. */
function readToken(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw unsafe(file, code === 'ELOOP' ? 'is a symlink' : `cannot be read (${code})`);
  }
  try {
    const st = fstatSync(fd);
    const me = process.getuid?.();
    if (!st.isFile()) throw unsafe(file, 'is not a regular file');
    if (me !== undefined && st.uid !== me) throw unsafe(file, 'belongs to another user');
    if ((st.mode & 0o077) !== 0) throw unsafe(file, 'is readable or writable by other users');
    const buf = Buffer.alloc(1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const token = buf.subarray(0, n).toString('utf8').trim();
    if (!TOKEN_RE.test(token)) throw unsafe(file, 'does not hold a token (16 to 512 URL-safe characters)');
    return token;
  } finally {
    closeSync(fd);
  }
}

/**
 * The user's `serve --http` token: read from `<state>/toolbox/serve-token`, or made there (32 random
 * bytes, base64url, mode 0600) when there is none. `created` says whether it is new (then shown once).
 * Written beside and hard-linked into place, so a reader never sees half a token and two servers
 * starting at once agree on one.
 */
export function userToken(): { token: string; file: string; created: boolean } {
  const dir = userStateDir();
  if (!dir)
    throw new ToolboxError('serve_token_unavailable', 'no private state folder for the serve token', {
      exitCode: ExitCode.registry,
      hint: 'Make ~/.local/state/toolbox (or $XDG_STATE_HOME/toolbox) a folder only you can enter, or pass --token-env NAME.',
    });
  const file = join(dir, TOKEN_FILE);
  const existing = readToken(file);
  if (existing) return { token: existing, file, created: false };
  const token = nodeCrypto().randomBytes(32).toString('base64url');
  const tmp = `${file}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return { token: readToken(file)!, file, created: false }; // another server made it first
  } finally {
    unlinkSync(tmp);
  }
  return { token, file, created: true };
}

/** A token from `--token-env NAME`: the variable must be set and long enough to resist guessing. */
export function envToken(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v || v.length < MIN_TOKEN)
    throw new ToolboxError(
      'token_env_invalid',
      `--token-env ${name}: the variable is ${v ? `shorter than ${MIN_TOKEN} characters` : 'not set'}`,
      { exitCode: ExitCode.usage, hint: `Set it to a long random value, e.g. export ${name}=$(openssl rand -hex 32).` },
    );
  return v;
}

/** What `serve --http` was told about authentication, resolved (the token read or made). */
export interface ResolvedAuth {
  auth: HttpAuth | 'none';
  /** Where the token came from. */
  source: 'file' | 'env' | 'none';
  /** The token file (source 'file'), and whether it was made just now. */
  file?: string;
  created?: boolean;
}

/**
 * The command's flags as an HttpAuth: by default the user's token file and the same-user check;
 * `--token-env NAME` a token of the user's choosing; `--no-auth` none. A non-loopback address
 * needs an explicit choice (`--token-env` or `--no-auth`): the generated token is for this machine.
 */
export function resolveHttpAuth(o: {
  env: NodeJS.ProcessEnv;
  tokenEnv?: string;
  noAuth?: boolean;
  allowOtherUsers?: boolean;
  loopback: boolean;
  host: string;
}): ResolvedAuth {
  const conflict = (a: string, b: string) =>
    new ToolboxError('conflicting_options', `give ${a} or ${b}, not both`, {
      exitCode: ExitCode.usage,
      hint: '--no-auth turns authentication off entirely.',
    });
  if (o.noAuth && o.tokenEnv !== undefined) throw conflict('--token-env', '--no-auth');
  if (o.noAuth && o.allowOtherUsers) throw conflict('--allow-other-users', '--no-auth');
  if (o.noAuth) return { auth: 'none', source: 'none' };
  const sameUser = !o.allowOtherUsers;
  if (o.tokenEnv !== undefined) return { auth: { token: envToken(o.env, o.tokenEnv), sameUser }, source: 'env' };
  if (!o.loopback)
    throw new ToolboxError(
      'serve_needs_token',
      `refusing to serve on ${o.host} without a token of your own: anyone who can reach it could try to run the tools`,
      {
        exitCode: ExitCode.usage,
        hint: 'Set a long random token in an environment variable and pass --token-env NAME (clients send Authorization: Bearer <token>), or bind --host 127.0.0.1.',
      },
    );
  const t = userToken();
  return { auth: { token: t.token, sameUser }, source: 'file', file: t.file, created: t.created };
}

const LOOPBACK_PEER = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The per-request check: the token (401 without it), then, for a client on this machine, its user
 * (403 when another user's, or when a loopback client's owner cannot be found). The owner is looked
 * up once per connection.
 */
export class AuthGate {
  private readonly owners = new WeakMap<Socket, Promise<number | undefined>>();
  private readonly me = process.getuid?.();

  constructor(readonly auth: HttpAuth) {}

  async check(req: IncomingMessage): Promise<Refusal | undefined> {
    if (this.auth.token === undefined) return undefined;
    const bad = checkToken(req, this.auth.token);
    if (bad || !this.auth.sameUser || this.me === undefined) return bad;
    const s = req.socket;
    let owner = this.owners.get(s);
    if (!owner) {
      owner = peerUid(s);
      this.owners.set(s, owner);
    }
    const uid = await owner;
    if (uid === this.me) return undefined;
    if (uid === undefined && !LOOPBACK_PEER.test(s.remoteAddress ?? '')) return undefined; // another machine
    return {
      status: 403,
      message:
        uid === undefined
          ? 'Forbidden: cannot tell which user this local client runs as'
          : 'Forbidden: this server answers only clients run by the user who started it',
    };
  }
}

/**
 * Whether the owner of a connection can be read here: connect to the listening server and look the
 * connection up (it must be ours). False on systems without /proc/net/tcp, or where it lies.
 */
export async function peerCheckWorks(host: string, port: number): Promise<boolean> {
  const h = host.replace(/^\[|\]$/g, '');
  // A wildcard address is reached on loopback (IPv6 may be off: then over IPv4).
  const targets = h === '0.0.0.0' ? ['127.0.0.1'] : h === '::' ? ['::1', '127.0.0.1'] : [h];
  for (const target of targets) {
    const sock = await new Promise<Socket | undefined>((resolve) => {
      const s = connect(port, target, () => resolve(s));
      s.once('error', () => resolve(undefined));
    });
    if (!sock) continue;
    try {
      // Seen from our side of the probe: its server end is also ours.
      return (await peerUid(sock)) === process.getuid?.();
    } finally {
      sock.destroy();
    }
  }
  return false;
}
