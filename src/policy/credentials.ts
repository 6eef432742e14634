// A contract names the environment variables its tool gets (`sandbox.env`, `requires.env`). A
// cloned repository's contract could name GITHUB_TOKEN or AWS_SECRET_ACCESS_KEY and send them
// anywhere. A closed network does not make that safe: the tool's result leaves anyway (to the
// terminal, to serve's clients, to the model), plain, reversed or spaced out. So credentials go to a
// tool only when the user granted them, per project and tool, in their own grants.yaml (`env: [NAME]`).
import type { ToolContract } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import type { Env } from '../util/env.js';
import { grantFor, grantHint, loadUserGrants, type UserGrants } from './grants.js';

// Shapes of credential names (matched on the upper-cased name). Too wide costs a grant; too narrow
// leaks a secret.
const CREDENTIAL: RegExp[] = [
  /^AWS_/, // every AWS variable: keys, session tokens, profiles that pick credentials
  /^TOOLBOX_/, // toolbox's own: the state URL and its password, serve's token; no tool needs them
  /TOKENS?($|_)/, // GITHUB_TOKEN, NPM_TOKEN, HF_TOKEN, ..._AUTHTOKEN
  /SECRET/,
  /(^|_)(API_?|ACCESS_?|PRIVATE_?|SECRET_?|SIGNING_?|ENCRYPTION_?|MASTER_?)?KEYS?($|_)/, // *_KEY, *_API_KEY
  /APIKEY|ACCESSKEY|PRIVATEKEY/,
  /PASSWORD|PASSWD|PASSPHRASE|PASSCODE|(^|_)PASS($|_)|(^|_)PWD$/,
  /CREDENTIAL|(^|_)CREDS?($|_)|SERVICE_?ACCOUNT/,
  /(^|_)O?AUTH[NZ]?($|_)|AUTHTOKEN|AUTHKEY|AUTHORIZATION|COOKIE|BEARER|(^|_)JWT($|_)/, // not GIT_AUTHOR_NAME
  /(^|_)SESSION_?(ID|KEY|TOKEN|COOKIE)$/,
  /(^|_)(PAT|SK)($|_)/, // GITHUB_PAT, STRIPE_SK (a personal access token, a secret key)
  /PRIVATE|(^|_)SALT($|_)|MNEMONIC|(^|_)SEED_?PHRASE/,
  /(DATABASE|(^|_)DB|REDIS|MONGO(DB)?|POSTGRES(QL)?|(^|_)PG|MYSQL|MARIADB|AMQP|RABBITMQ|ELASTIC(SEARCH)?|SQL)_?(URL|URI|DSN|CONN(ECTION)?(_?STR(ING)?)?)$/,
  /(^|_)DSN($|_)|CONNECTION_?STR(ING)?|(^|_)CONN_?STR/,
  /WEBHOOK/,
  /^(SSH_AUTH_SOCK|KUBECONFIG|NETRC|DOCKER_AUTH_CONFIG|DOCKER_CONFIG|GNUPGHOME)$/,
  /^OTEL_EXPORTER_OTLP(_[A-Z]+)?_HEADERS$/,
];
// The shell's working-folder variables end in PWD, and a token count is no token.
const NOT_CREDENTIAL = /^(OLD)?PWD$|(^|_)(MAX|MIN|NUM|N)_?TOKENS?$/;

/** Whether an environment variable's name looks like a credential (`AWS_*`, `*_TOKEN`, `*PASSWORD*`, …). */
export function credentialLike(name: string): boolean {
  const n = name.toUpperCase();
  return !NOT_CREDENTIAL.test(n) && CREDENTIAL.some((r) => r.test(n));
}

// A URL with a password in it (`postgres://app:pw@db/x`, `https://user:tok@proxy:3128`), whatever
// the variable's name: PIP_INDEX_URL, HTTPS_PROXY, BROKER_URL carry them as often as DATABASE_URL.
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i;

/** Whether a variable holds a credential: its name says so, or its value is a URL with a password. */
export function credentialVar(name: string, value: string | undefined): boolean {
  return (
    credentialLike(name) ||
    (value !== undefined && !NOT_CREDENTIAL.test(name.toUpperCase()) && URL_WITH_PASSWORD.test(value))
  );
}

/** One credential a contract asks for without the user's grant, and where it asks. */
export interface EnvProblem {
  name: string;
  /** Whether the variable is set where toolbox runs: only then would a credential really go to the tool. */
  set: boolean;
  /** The contract path of the entry: ['sandbox', 'env', i] or ['requires', 'env', i]. */
  path: (string | number)[];
  message: string;
  hint: string;
}

/**
 * Credential-like variables the contract asks for that the user has not granted to this tool of this
 * project, network open or not (a closed network keeps nothing in: the result leaves). `set` says
 * whether `env` (the environment toolbox runs in) holds the variable.
 */
export function envProblems(root: string, c: ToolContract, grants: () => UserGrants, env: Env): EnvProblem[] {
  const asked: { name: string; path: (string | number)[] }[] = [];
  (c.sandbox?.env ?? []).forEach((name, i) => asked.push({ name, path: ['sandbox', 'env', i] }));
  (c.requires?.env ?? []).forEach((name, i) => asked.push({ name, path: ['requires', 'env', i] }));
  const risky = asked.filter((a) => credentialVar(a.name, env[a.name]));
  if (risky.length === 0) return [];
  const g = grants();
  const granted = new Set(grantFor(g, c.id).env);
  const missing = risky.filter((a) => !granted.has(a.name));
  const names = [...new Set(missing.map((a) => a.name))];
  return missing.map((a) => ({
    ...a,
    set: env[a.name] !== undefined && env[a.name] !== '',
    message: `tool '${c.id}' asks for ${a.name} (${a.path[0]}.env), a credential: a contract cannot give itself your credentials (with the network closed too: what the tool returns reaches the terminal, serve's clients and the model)`,
    hint: `Grant it only if you trust this tool with it. ${grantHint(g, root, c.id, `env: [${names.join(', ')}]`)}`,
  }));
}

/**
 * Throws `sandbox_env_denied` (exit 3) when the tool would get a credential set in `env` that the
 * user has not granted it (an unset one gives the tool nothing: its own check says it is missing).
 */
export function assertEnvGranted(root: string, c: ToolContract, env: Env): void {
  const first = envProblems(root, c, () => loadUserGrants(root), env).find((p) => p.set);
  if (first)
    throw new ToolboxError('sandbox_env_denied', first.message, {
      exitCode: ExitCode.registry,
      hint: first.hint,
      details: { variable: first.name, path: first.path.join('.') },
    });
}
