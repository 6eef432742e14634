// A contract names the environment variables its tool gets (`sandbox.env`, `requires.env`). A
// cloned repository's contract that can reach the network could name GITHUB_TOKEN or
// AWS_SECRET_ACCESS_KEY and send them anywhere: credentials go to a tool with the network open only
// when the user granted them, per project and tool, in their own grants.yaml (`env: [NAME]`).
import type { ToolContract } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import type { Env } from '../util/env.js';
import { grantFor, grantHint, loadUserGrants, type UserGrants } from './grants.js';

// Shapes of credential names (matched on the upper-cased name). Too wide costs a grant; too narrow
// leaks a secret.
const CREDENTIAL: RegExp[] = [
  /^AWS_/, // every AWS variable: keys, session tokens, profiles that pick credentials
  /TOKENS?($|_)/, // GITHUB_TOKEN, NPM_TOKEN, HF_TOKEN, ..._AUTHTOKEN
  /SECRET/,
  /(^|_)(API_?|ACCESS_?|PRIVATE_?|SECRET_?|SIGNING_?|ENCRYPTION_?|MASTER_?)?KEYS?($|_)/, // *_KEY, *_API_KEY
  /APIKEY|ACCESSKEY|PRIVATEKEY/,
  /PASSWORD|PASSWD|PASSPHRASE|(^|_)PASS($|_)|(^|_)PWD$/,
  /CREDENTIAL|(^|_)CREDS?($|_)/,
  /(^|_)AUTH($|_)|AUTHORIZATION|COOKIE/,
  /(^|_)SESSION_?(ID|KEY|TOKEN)$/,
  /(DATABASE|(^|_)DB|REDIS|MONGO(DB)?|POSTGRES(QL)?|(^|_)PG|MYSQL|MARIADB|AMQP|RABBITMQ|ELASTIC(SEARCH)?|SQL)_?(URL|URI|DSN|CONN(ECTION)?(_?STR(ING)?)?)$/,
  /(^|_)DSN$|CONNECTION_?STR(ING)?/,
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
 * Credential-like variables the contract asks for while its network is open, that the user has not
 * granted to this tool of this project. Empty for a tool without network (nothing can leave). `set`
 * says whether `env` (the environment toolbox runs in) holds the variable.
 */
export function envProblems(root: string, c: ToolContract, grants: () => UserGrants, env: Env): EnvProblem[] {
  if (c.sandbox?.network !== true) return [];
  const asked: { name: string; path: (string | number)[] }[] = [];
  (c.sandbox.env ?? []).forEach((name, i) => asked.push({ name, path: ['sandbox', 'env', i] }));
  (c.requires?.env ?? []).forEach((name, i) => asked.push({ name, path: ['requires', 'env', i] }));
  const risky = asked.filter((a) => credentialLike(a.name));
  if (risky.length === 0) return [];
  const g = grants();
  const granted = new Set(grantFor(g, c.id).env);
  const missing = risky.filter((a) => !granted.has(a.name));
  const names = [...new Set(missing.map((a) => a.name))];
  return missing.map((a) => ({
    ...a,
    set: env[a.name] !== undefined && env[a.name] !== '',
    message: `tool '${c.id}' asks for ${a.name} (${a.path[0]}.env), a credential, with the network open: a contract cannot give itself your credentials`,
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
