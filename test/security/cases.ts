// The hostile cases of test/security/ and their outcome on each sandbox tier: the one list that
// the tests assert against (expected(id, tier)) and that docs/sandbox.md shows (table.test.ts keeps
// the doc's table equal to renderTable()).
import type { SandboxTier } from '../../src/sandbox/index.js';

/** blocked: the attack fails; refused: toolbox refuses before running anything; exposed: the tier does not stop it. */
export type Outcome = 'blocked' | 'refused' | 'exposed';

export interface HostileCase {
  /** The item of the issue that asked for it: a number (the first sandbox issue) or 'issue.item'. */
  item: number | string;
  attack: string;
  /** One outcome for every tier, or one per tier. */
  outcome: Outcome | Record<SandboxTier, Outcome>;
}

const fs: Record<SandboxTier, Outcome> = { bwrap: 'blocked', unshare: 'exposed', none: 'exposed' };
/** A tool with the network open: its own namespace and the egress proxy; tier none does not run it. */
const net: Record<SandboxTier, Outcome> = { bwrap: 'blocked', unshare: 'blocked', none: 'refused' };

export const CASES = {
  'read-project-secrets-python': {
    item: 1,
    attack: 'a Python tool reads `../.env`, `.git/config`, `.toolbox/`, another tool',
    outcome: fs,
  },
  'read-project-secrets-node': { item: 1, attack: 'a Node tool reads `../.env`', outcome: fs },
  'read-project-secrets-command': { item: 1, attack: 'a command at the project root reads `.env`', outcome: fs },
  'egress-socket-borrowed': {
    item: '33.2',
    attack:
      "a tool with the network open connects to another tool's egress socket (visible on tier unshare) to use that tool's grants",
    outcome: net,
  },
  'nested-secrets': {
    item: '34.3',
    attack:
      'a tool reads a nested `.env.local`, a vendored `.git/config`, `.npmrc`, `.aws/` (or a link to one) inside its own folder',
    outcome: fs,
  },
  'paths-outside-project': {
    item: 2,
    attack: 'a contract binds `/root/.ssh`, `../..` or a symlink to `/etc` (`sandbox.paths`)',
    outcome: 'refused',
  },
  'paths-socket': { item: 2, attack: 'a contract binds a Unix socket with the network closed', outcome: 'refused' },
  'paths-planted-grant': { item: 2, attack: 'a grants file writable by others names the tool', outcome: 'refused' },
  'paths-root-only': {
    item: 2,
    attack: 'a granted root-only file would keep the tool at uid 0',
    outcome: { bwrap: 'refused', unshare: 'exposed', none: 'exposed' },
  },
  'planted-probe-cache': {
    item: 3,
    attack: 'a repository ships `.toolbox/cache/sandbox.json` naming its own "bwrap" or tier `none`',
    outcome: 'blocked',
  },
  'planted-interpreter-cache': {
    item: 3,
    attack: 'another user plants `$TMPDIR/toolbox-interpreters-<uid>.json` with a fake Python',
    outcome: 'blocked',
  },
  'fake-bwrap-on-path': {
    item: 3,
    attack: 'a writable folder early on `PATH` holds a fake `bwrap`',
    outcome: 'blocked',
  },
  'redos-pattern': {
    item: 4,
    attack: "an argument shaped against the contract's `pattern: '^(a+)+$'`",
    outcome: 'blocked',
  },
  'regex-backtracking-only': {
    item: 4,
    attack: 'a contract pattern with lookahead or backreferences',
    outcome: 'refused',
  },
  'breaker-rejected-arguments': {
    item: 5,
    attack: 'a client sends `1/0` (the tool raises ValueError) again and again to trip the breaker for everyone',
    outcome: 'blocked',
  },
  'breaker-deep-nesting': { item: 5, attack: 'a client sends arguments nested 20,000 deep', outcome: 'blocked' },
  'breaker-nul-byte': { item: 5, attack: 'a client sends NUL bytes to a command tool', outcome: 'blocked' },
  'command-option-injection': {
    item: 9,
    attack: 'a value `--output=/tmp/x` reaches git as an option',
    outcome: 'blocked',
  },
  'breaker-undeclared-argument': {
    item: '34.4',
    attack:
      'a client calls the shipped `query_weather` with `{"zzz": 1}` again and again to trip the breaker for everyone',
    outcome: 'blocked',
  },
  'breaker-signature-typeerror': {
    item: '34.4',
    attack:
      "arguments a schema allows but the function's signature refuses (Python `TypeError: unexpected keyword`, a Node parameter that cannot be destructured)",
    outcome: 'blocked',
  },
  'locked-too-many-files': {
    item: '34.2',
    attack:
      'a tool package grows past 20,000 files after `toolbox lock` (once locked as "too many files", then unpinned)',
    outcome: 'refused',
  },
  'locked-node-modules-edited': {
    item: '34.2',
    attack:
      'a file inside an installed `node_modules/<pkg>/` (or `@scope/<pkg>/`) the tool imports is edited in place after `toolbox lock`',
    outcome: 'refused',
  },
  'locked-venv-edited': {
    item: '34.2',
    attack:
      "a module in the site-packages of the tool's project venv (`loader_config.python`) is edited, or a `.pth` file (run at start-up) is planted there",
    outcome: 'refused',
  },
  'locked-sandbox-paths-edited': {
    item: '34.2',
    attack: 'a plugin file in a project folder the contract shows the tool (`sandbox.paths`) is edited or added',
    outcome: 'refused',
  },
  'locked-packages-too-many-files': {
    item: '34.2',
    attack: 'the installed packages a tool can load grow past 50,000 files (too many to hash on each run)',
    outcome: 'refused',
  },
  'remote-schema-deep': {
    item: '34.5',
    attack: 'an MCP server lists a tool whose inputSchema is nested 900 levels deep (`import mcp`, the SDK client)',
    outcome: 'refused',
  },
  'remote-schema-cycle': {
    item: '34.5',
    attack: "an MCP server's tool schema refers to itself through a `$ref` cycle (import, validate, run, serve)",
    outcome: 'blocked',
  },
  'contract-schema-deep': {
    item: '34.5',
    attack: "a contract's own `schema` is nested 900 levels deep (validate, serve's definitions)",
    outcome: 'refused',
  },
  'state-password-special-chars': {
    item: '34.5',
    attack:
      'a Redis password holding `/`, `#`, `?`, `@` or `%` (raw URL that does not parse, encoded, password-only, user-only, rediss)',
    outcome: 'blocked',
  },
  'http-dot-segment': { item: 8, attack: 'a `{{param}}` path value of `..` climbs the URL path', outcome: 'refused' },
  'http-secret-argument-host': {
    item: '33.4',
    attack:
      'an `http` contract takes its host, port, scheme or user info from an argument (`http://{{host}}/…`) and sends `X-Api-Key: ${API_KEY}`',
    outcome: 'refused',
  },
  'http-cross-origin-redirect': {
    item: 8,
    attack: 'a 302 to another origin would receive `X-Api-Key`',
    outcome: 'blocked',
  },
  'http-encoded-secret': {
    item: 8,
    attack: 'a server echoes the API key URL-encoded or base64-encoded into an error',
    outcome: 'blocked',
  },
  'serve-slow-body-flood': {
    item: 7,
    attack: 'slow-body POSTs (one byte at a time) to evict live sessions and lock out new clients',
    outcome: 'blocked',
  },
  'serve-foreign-origin': {
    item: 7,
    attack: 'a web page on another origin posts to `serve --http`',
    outcome: 'refused',
  },
  'serve-no-token': { item: 7, attack: 'a client without the bearer token (`--token-env`)', outcome: 'refused' },
  'serve-exposed-bind': { item: 7, attack: '`serve --http --host 0.0.0.0` without a token', outcome: 'refused' },
  'serve-head-of-line': {
    item: 6,
    attack: '20 slow calls to one tool to stall an unrelated tool of another session',
    outcome: 'blocked',
  },
  'serve-queue-timeout': {
    item: 6,
    attack: 'a backlog of calls to one tool turns queue time into timeouts (and breaker failures)',
    outcome: 'blocked',
  },
  'mcp-error-leaks': {
    item: 12,
    attack: "an MCP client reads host paths, tracebacks or shell hints from a failed call's result",
    outcome: 'blocked',
  },
  'deps-local-build': {
    item: 10,
    attack: '`deps --install` of a local requirement whose setup.py runs code on the host',
    outcome: 'refused',
  },
  'serve-no-token-loopback': {
    item: '23.10',
    attack: 'a client without the token calls `serve --http` on loopback (the default now makes one)',
    outcome: 'refused',
  },
  'serve-other-user': {
    item: '23.10',
    attack: 'another local user calls `serve --http` on loopback, without the token or with a leaked one',
    outcome: 'refused',
  },
  'serve-sandboxed-tool': {
    item: '23.10',
    attack: "a tool allowed the network reads the token file and calls the user's `serve --http`",
    outcome: net,
  },
  'serve-batch-flood': {
    item: '23.10',
    attack: 'one JSON-RPC batch of 30 calls, counted as one request, to fill the queue',
    outcome: 'blocked',
  },
  'serve-queue-share': {
    item: '23.10',
    attack: "one session fills the call queue so that another session's call is refused",
    outcome: 'blocked',
  },
  'serve-stateless-flood': {
    item: '23.10',
    attack: '20 stateless (2026-07-28) calls at once from this machine, where no session limits them',
    outcome: 'blocked',
  },
  'serve-pose-as-many': {
    item: '36.1',
    attack: 'one stateless client sends each request under a new clientInfo to get more than its share',
    outcome: 'blocked',
  },
  'serve-session-hog': {
    item: '36.1',
    attack: 'one client opens every 2025 session and keeps them live, locking out the others',
    outcome: 'blocked',
  },
  'serve-evict-live-session': {
    item: '23.10',
    attack: 'new sessions past the cap evict a live client that is idle between calls',
    outcome: 'blocked',
  },
  'git-config-programs': {
    item: '23',
    attack:
      '`eval --compare REF` in a repository whose git config names a filter, fsmonitor, pager, textconv, hooks or an include',
    outcome: 'blocked',
  },
  'state-results-link': {
    item: '23.6',
    attack: 'a repository ships `.toolbox/results` as a link to another folder (root would write tool text there)',
    outcome: 'refused',
  },
  'state-call-log-link': {
    item: '23.6',
    attack: '`.toolbox/calls.jsonl` is a symlink or a hard link to another file (every call appends to it)',
    outcome: 'refused',
  },
  'state-sessions-link': {
    item: '23.6',
    attack: '`.toolbox/sessions` links to another folder (session files written there, old `.json` files pruned)',
    outcome: 'refused',
  },
  'state-fifo': {
    item: '23.6',
    attack: '`.toolbox/breaker.json` is a FIFO (every call would hang)',
    outcome: 'refused',
  },
  'state-dir-link': {
    item: '23.6',
    attack: '`.toolbox` itself links to another folder: calls are refused',
    outcome: 'refused',
  },
  'state-cache-link': {
    item: '23.6',
    attack: '`.toolbox` or `.toolbox/cache` links elsewhere: caches are ignored with a warning (not read, not written)',
    outcome: 'blocked',
  },
  'state-foreign-owner': { item: '23.6', attack: '`.toolbox/` belongs to another user', outcome: 'refused' },
  'terminal-contract-text': {
    item: '23.11',
    attack:
      "a contract's name, description or parameter text writes the clipboard (OSC 52), hides a link (OSC 8), sets the title, clears the screen or reverses text, through `show`, `list`, `select`, `validate`",
    outcome: 'blocked',
  },
  'terminal-tool-output': {
    item: '23.11',
    attack: "a tool's result or error message carries the same sequences to `run`'s terminal",
    outcome: 'blocked',
  },
  'serve-contract-text': {
    item: '23.11',
    attack: "the same sequences in a contract's title and descriptions reach an MCP client's model through `serve`",
    outcome: 'blocked',
  },
  'terminal-state-files': {
    item: '23.11',
    attack: 'a planted `.toolbox/calls.jsonl` carries them to `stats`',
    outcome: 'blocked',
  },
  'interpreter-project-script': {
    item: '23.1',
    attack:
      'a `loader_config.python` folder whose `bin/python3` is a script (`run`, `run --locked`, `deps`, `lock`, `doctor`)',
    outcome: 'refused',
  },
  'interpreter-planted-env': {
    item: '23.1',
    attack: 'a repository ships `.toolbox/envs/<id>/` with a fake `bin/python3` and a marker file',
    outcome: 'blocked',
  },
  'interpreter-venv-pth': {
    item: '23.1',
    attack: "a project venv's `.pth` file runs code when `deps` starts its Python to check packages",
    outcome: fs,
  },
  'bins-version-flag': {
    item: '23.2',
    attack: '`requires.bins` with `version_flag: "-c__import__(\'os\').system(…)"`',
    outcome: 'refused',
  },
  'bins-project-program': {
    item: '23.2',
    attack: '`requires.bins` names `./tools/fake` (or a project folder on `PATH`) with a version range',
    outcome: 'blocked',
  },
  'install-planted-npmrc': {
    item: '23.3',
    attack: '`import mcp --npm` with a planted `.npmrc` (`git=`) in `.toolbox/servers/<name>/` or the project',
    outcome: 'blocked',
  },
  'install-planted-package': {
    item: '23.3',
    attack: '`import mcp --npm` with a package planted in `.toolbox/servers/<name>/` (and a genuine-looking integrity)',
    outcome: 'blocked',
  },
  'install-planted-venv': {
    item: '23.3',
    attack: '`import mcp -- uvx` with a planted `venv/bin/python` in `.toolbox/servers/<name>/`',
    outcome: 'blocked',
  },
  'install-files-changed': {
    item: '23.3',
    attack: "a managed server's installed files edited after `toolbox lock`, then `run --locked`",
    outcome: 'refused',
  },
  'deps-find-links': {
    item: '23.4',
    attack: '`deps --install` of a requirements file with `--find-links` to an sdist whose build backend runs code',
    outcome: 'refused',
  },
  'deps-sdist-url': {
    item: '23.4',
    attack: '`deps --install` of `pkg @ http://…/pkg-1.0.tar.gz?download=1` (an sdist URL not ending in .tar.gz)',
    outcome: 'refused',
  },
  'deps-env-expansion': {
    item: '23.4',
    attack: "a requirements file puts `${TOKEN}` in an index URL so that pip sends the user's variable there",
    outcome: 'refused',
  },
  'deps-project-module': {
    item: '23.4',
    attack: '`deps --install` next to a planted `pip/` or `venv/` package that `python -m` would import',
    outcome: 'blocked',
  },
  'serve-notification-flood': {
    item: '23.11',
    attack: 'a tool sends 6,000 log and progress notifications and a 300 KiB log message in one call through `serve`',
    outcome: 'blocked',
  },
  'serve-sampling-limits': {
    item: '23.11',
    attack: "a tool asks the client's LLM 8 times with `includeContext: allServers` and `maxTokens: 1000000`",
    outcome: 'blocked',
  },
  'loader-node-modules-link': {
    item: '23.5',
    attack: '`node_modules` on the walk up from a Node tool is a link to `~/.ssh`',
    outcome: 'refused',
  },
  'loader-package-json-link': {
    item: '23.5',
    attack: '`package.json` on the walk up from a Node tool is a link to a host file',
    outcome: 'refused',
  },
  'loader-socket-link': {
    item: '23.5',
    attack: '`node_modules` is a link to a folder holding a host Unix socket (network closed)',
    outcome: 'refused',
  },
  'loader-mcp-node-modules-link': {
    item: '23.5',
    attack: 'the `node_modules` beside an MCP server script is a link to `~/.ssh`',
    outcome: 'refused',
  },
  'paths-project-secrets': {
    item: '23.7',
    attack: 'a contract binds `.env`, a nested `.env.local`, `.git` or the project folder itself (`sandbox.paths`)',
    outcome: 'refused',
  },
  'grants-other-project': {
    item: '23.7',
    attack: "a cloned project's `query_weather` asks for the path another project's `query_weather` was granted",
    outcome: 'refused',
  },
  'grants-old-form': {
    item: '23.7',
    attack: "a grants file in the old form (`tools:` keyed by tool id alone) would grant any project's tool of that id",
    outcome: 'refused',
  },
  'env-credential-network': {
    item: '23.7',
    attack:
      'a tool with the network open names `GITHUB_TOKEN` or `AWS_SECRET_ACCESS_KEY` in `sandbox.env` / `requires.env`',
    outcome: 'refused',
  },
  'env-credential-closed-network': {
    item: '33.4',
    attack:
      'a tool with the network closed names `GITHUB_TOKEN` or `TOOLBOX_STATE_URL` in `sandbox.env` and returns it reversed and spaced out',
    outcome: 'refused',
  },
  'state-project-redis': {
    item: '25.1',
    attack:
      "a cloned project's config (or a config file inside it) points the user's call log and breakers at its Redis",
    outcome: 'blocked',
  },
  'state-password-shown': {
    item: '25.1',
    attack: 'the Redis password of `--state` shows in a warning, `--verbose`, `--json`, `doctor` or an error',
    outcome: 'blocked',
  },
  'serve-forwarded-for-spoof': {
    item: '25.2',
    attack: 'a client names itself anew in `X-Forwarded-For` on every request to escape its rate limit',
    outcome: 'blocked',
  },
  'serve-health-reveals': {
    item: '25.4',
    attack: 'a caller without the token reads versions, counts or the state URL from `/healthz` and `/readyz`',
    outcome: 'blocked',
  },
  'telemetry-project-endpoint': {
    item: '23.8',
    attack:
      "a project's `telemetry.endpoint` names its own collector while the user's env holds `OTEL_EXPORTER_OTLP_HEADERS`",
    outcome: 'blocked',
  },
  'telemetry-project-capture': {
    item: '23.8',
    attack: "a project's `telemetry.capture_content: true` would record every argument on the user's collector",
    outcome: 'blocked',
  },
  'embeddings-project-endpoint': {
    item: '23.8',
    attack: "a project's `select.embeddings` sends the user's queries, with `api_key_env: EMB_KEY`, to its server",
    outcome: 'blocked',
  },
  'config-registry-outside': {
    item: '23.8',
    attack:
      "a project's config names `registry: /elsewhere/tool_registry` or `../..`: toolbox would keep `.toolbox/` and read grants there",
    outcome: 'refused',
  },
  'locked-helper-edited': {
    item: '23.9',
    attack: 'after `toolbox lock`, a helper module next to the tool is edited, then `run --locked`',
    outcome: 'refused',
  },
  'locked-shadowing-package': {
    item: '23.9',
    attack: 'after `toolbox lock`, a package folder `helper/` appears that shadows `helper.py`',
    outcome: 'refused',
  },
  'locked-planted-pyc': {
    item: '23.9',
    attack: 'a planted unchecked-hash `__pycache__/helper.cpython-3*.pyc` (Python loads it without the source)',
    outcome: 'blocked',
  },
  'locked-requires-bins': {
    item: '23.9',
    attack: "after `toolbox lock`, the contract's `requires.bins` gains a program",
    outcome: 'refused',
  },
  'locked-node-package': {
    item: '23.9',
    attack:
      "after `toolbox lock`, a Node tool's sibling module or `package.json` (`exports`, `imports`, `type`) changes",
    outcome: 'refused',
  },
  'store-result-host-file': {
    item: '33.5',
    attack:
      "a writer to serve's Redis plants a result record whose file is a host file (`/proc/self/environ`), or a link under `.toolbox/results/`",
    outcome: 'blocked',
  },
  'store-result-replaced': {
    item: '33.5',
    attack:
      "a writer to serve's Redis replaces another session's result (or task) with its own text, or with a record copied from its own id",
    outcome: 'blocked',
  },
  'state-no-password': {
    item: '33.5',
    attack: '`serve --state redis://host` without a password: anything that reaches the Redis writes the shared state',
    outcome: 'blocked',
  },
  'egress-direct-loopback': {
    item: '33.1',
    attack: "a tool with the network open connects straight to a TCP listener on the host's loopback",
    outcome: net,
  },
  'egress-abstract-socket': {
    item: '33.1',
    attack: 'a tool (network open or closed) connects to an abstract Unix socket the host listens on',
    outcome: { bwrap: 'blocked', unshare: 'blocked', none: 'exposed' },
  },
  'egress-redis': {
    item: '33.1',
    attack:
      'a tool with the network open talks to a real redis-server on loopback, directly and through the proxy (SOCKS5)',
    outcome: net,
  },
  'egress-address-spellings': {
    item: '33.2',
    attack:
      'through the proxy (HTTP, CONNECT, SOCKS5): loopback, private, link-local (169.254.169.254, fd00:ec2::254), CGNAT, multicast in every spelling (`::ffff:127.0.0.1`, `2130706433`, `0177.0.0.1`, `127.1`, NAT64, `localhost`)',
    outcome: net,
  },
  'egress-host-list': {
    item: '33.3',
    attack: 'a tool whose `sandbox.network` lists `api.example.com` asks the proxy for another host',
    outcome: net,
  },
  'egress-contract-private': {
    item: '33.3',
    attack: 'a contract lists `127.0.0.1:6379`, `localhost` or `169.254.169.254` in `sandbox.network`',
    outcome: 'refused',
  },
  'egress-http-loader': {
    item: '33.1',
    attack:
      "an `http` contract with `network: true` names `http://127.0.0.1:<port>/` (toolbox's own request, made on the host)",
    outcome: 'blocked',
  },
  'egress-granted-loopback': {
    item: '33.4',
    attack: 'a tool granted `127.0.0.1:<port>` by the user reaches another port or address of the host',
    outcome: net,
  },
  'requires-host-file': {
    item: '34.1',
    attack:
      '`requires.python` names `/proc/self/environ`, `../..` to `/etc/passwd`, a link (or a chain) to `~/.aws/credentials`, a project `.env` or a non-requirements file',
    outcome: 'refused',
  },
  'contract-link-out': {
    item: '34.1',
    attack: 'a contract file is a link out of the registry (`diag.yaml -> ~/.aws/credentials`) or to `.env`',
    outcome: 'refused',
  },
  'contract-device-fifo': {
    item: '34.1',
    attack: 'a contract file is a link to `/dev/zero` or to a FIFO (`list`, `validate`, `run` and serve would hang)',
    outcome: 'refused',
  },
  'init-gitignore-link': {
    item: '34.1',
    attack: '`toolbox init` beside a `.gitignore` that is a link to a file outside the project',
    outcome: 'refused',
  },
} satisfies Record<string, HostileCase>;

export type CaseId = keyof typeof CASES;

/** What the suite expects of a case on a tier. */
export function expected(id: CaseId, tier: SandboxTier): Outcome {
  const o = (CASES[id] as HostileCase).outcome;
  return typeof o === 'string' ? o : o[tier];
}

/** The Markdown table docs/sandbox.md carries between its `hostile-cases` markers. */
export function renderTable(): string {
  const rows = Object.entries(CASES as Record<string, HostileCase>).map(([id, c]) => {
    const cell = (t: SandboxTier) => (typeof c.outcome === 'string' ? c.outcome : c.outcome[t]);
    return `| ${c.item} | ${c.attack} | ${cell('bwrap')} | ${cell('unshare')} | ${cell('none')} | \`${id}\` |`;
  });
  return ['| item | hostile case | bwrap | unshare | none | test case |', '|---|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}
