import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Project } from '../config.js';
import { MCP_PROTOCOLS, type McpProtocol, type SandboxPolicy, type ToolContract } from '../contract/types.js';
import { ExitCode, ToolboxError, usageError } from '../errors.js';
import { isToolRunError } from '../sandbox/tool-run-error.js';
import { compareUpstream, recordImported, type UpstreamChange } from '../lock/upstream.js';
import { checkSandboxPaths, grantFor, loadUserGrants } from '../policy/grants.js';
import { loadRegistry } from '../registry/registry.js';
import { resolveLimits } from '../sandbox/limits.js';
import { toSnakeId, type ListedTool } from './contract-file.js';
import { STATUSES, writeContracts, type ImportedTool, type ImportStatus } from './import-write.js';
import { installNpmServer, installPypiServer, type ManagedServer } from './install.js';
import { openSession, type McpTarget } from './session.js';
import { authFailure, type OpenUrl } from './oauth.js';
import { envTemplate, parseLauncher, readClientConfig, type ServerSource } from './sources.js';
import { refuseDeepSchemas, tooDeepError } from './depth-guard.js';
import { resolveServerCommand, type ServerBind } from './spawn.js';

export type { ImportStatus, ImportedTool } from './import-write.js';

/** What `toolbox import mcp` was asked to do. */
export interface ImportOptions {
  /** The server command and its arguments (stdio); `npx -y PKG …` / `uvx PKG …` become managed installs. */
  command?: string[];
  /** Streamable HTTP endpoint (instead of a command). */
  url?: string;
  /** `Name: value` headers for --url; values name env vars as `${NAME}`. */
  headers?: string[];
  /** npm package (NAME[@VERSION]) to install into .toolbox/servers/ and import. */
  npm?: string;
  /** PyPI package (NAME[==VERSION]) to install into a venv under .toolbox/servers/ and import. */
  pypi?: string;
  /** A client config file: import every server it lists. */
  fromConfig?: string;
  /** Let npm run lifecycle scripts / pip build from source while installing. */
  allowScripts?: boolean;
  prefix?: string;
  /** Folder for the contracts (resolved against cwd; must be inside the registry). Default: the registry folder. */
  out?: string;
  /** Overwrite contracts a person has edited. */
  force?: boolean;
  /** Open the network for the server (written into each contract's sandbox section). */
  network?: boolean;
  /** Host paths the server needs, bound read-only (written into each contract's sandbox.paths). */
  paths?: string[];
  cwd: string;
  /** Only compare the server's tools with toolbox.lock (`--check`); write nothing. */
  check?: boolean;
  /** The environment import-time values of `${NAME}` come from (default process.env). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A --url server behind OAuth: shows the authorization link to the person (the command prints it). */
  openUrl?: OpenUrl;
  /** A client registered with the server's authorization server out of band, and the variable holding its secret. */
  oauthClientId?: string;
  oauthClientSecretEnv?: string;
  /** An https URL of a client ID metadata document describing toolbox, for authorization servers that take one. */
  oauthClientMetadataUrl?: string;
  /** Pin every imported server to this MCP revision (written into each contract's loader_config.protocol). */
  protocol?: string;
}

/** The outcome of importing one server, for the human table and --json. */
export interface ImportReport {
  /** The name the client config gives the server (--from-config only). */
  name?: string;
  server: { name: string; version: string };
  dir: string;
  /** The managed install, when the server came by package name. */
  package?: ManagedServer['package'] & { dir: string; installed: boolean; scripts: 'allowed' | 'ignored' };
  /** Host folders bound read-only for the server, and why. */
  binds: ServerBind[];
  tools: ImportedTool[];
  counts: Record<ImportStatus, number>;
  /** `--check`: what changed on the server since toolbox.lock (nothing is written). */
  upstream?: UpstreamChange[];
  /** The lock file updated with the imported tools' definitions. */
  lock?: string;
}

/** Every server of one import: the single place a caller (the command, toolbox.lock) reads what changed. */
export interface ImportResult {
  config?: string;
  servers: ImportReport[];
  counts: Record<ImportStatus, number>;
}

const PREFIX = /^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/;
const SECRET_HEADER = /auth|token|key|secret|cookie|password/i;
const toPosix = (p: string) => p.split(sep).join('/');
const inside = (root: string, p: string) => {
  const r = relative(root, p);
  return !r.startsWith('..') && !isAbsolute(r);
};
const zero = () => Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<ImportStatus, number>;

function outDir(project: Project, opts: ImportOptions): string {
  const dir = opts.out ? resolve(opts.cwd, opts.out) : project.registryDir;
  if (!inside(project.registryDir, dir)) {
    throw usageError(
      'out_outside_registry',
      `--out ${opts.out} is outside the registry folder ${project.registryDir}`,
      `Give a folder inside it, e.g. --out ${join(relative(opts.cwd, project.registryDir) || '.', 'imported')}.`,
    );
  }
  return dir;
}

/** The server did not come up or answer: exit 4 (5 on a timeout), with what to try. */
function serverError(e: unknown): unknown {
  const deep = tooDeepError(e, 'import mcp');
  if (deep) return deep;
  const auth = authFailure(e);
  if (auth) return auth;
  if (!isToolRunError(e)) return e;
  const timeout = e.kind === 'limit';
  return new ToolboxError(timeout ? 'mcp_server_timeout' : 'mcp_server_failed', e.message, {
    exitCode: timeout ? ExitCode.limit : ExitCode.toolFailed,
    hint: 'The server runs in the sandbox, as it will for every call: if it needs the network pass --network; if it needs host folders pass --path DIR; run it by hand to see its own errors.',
    cause: e,
  });
}

async function listTools(target: McpTarget, opts: ImportOptions) {
  const env = opts.env ?? process.env;
  const secret = opts.oauthClientSecretEnv ? env[opts.oauthClientSecretEnv] : undefined;
  const s = await openSession(target, {
    signal: opts.signal,
    // A person authorizing in a browser takes longer than a server takes to answer.
    timeoutMs: opts.timeoutMs ?? (target.kind === 'http' && opts.openUrl ? 300_000 : 30_000),
    nodeBinary: process.execPath,
    ...(opts.openUrl ? { openUrl: opts.openUrl } : {}),
    ...(opts.oauthClientMetadataUrl ? { oauthMetadataUrl: opts.oauthClientMetadataUrl } : {}),
    ...(opts.oauthClientId
      ? { preRegistered: { client_id: opts.oauthClientId, ...(secret ? { client_secret: secret } : {}) } }
      : {}),
  }).catch((e: unknown) => {
    throw serverError(e);
  });
  try {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.withAuth(() =>
        s.client.listTools(cursor ? { cursor } : undefined, {
          signal: opts.signal,
          timeout: opts.timeoutMs ?? 30_000,
        }),
      );
      tools.push(...(page.tools as unknown as ListedTool[]));
      cursor = page.nextCursor;
    } while (cursor);
    return { server: s.server, tools };
  } catch (e) {
    throw serverError(e);
  } finally {
    await s.close();
  }
}

/** Expand `${NAME}` from the import-time environment (never written anywhere). */
const expandNow = (v: string, env: NodeJS.ProcessEnv) =>
  v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, n: string) => env[n] ?? '');

/**
 * Project paths in a stdio command, as the contract stores them: the command and a node/python
 * script relative to the project root (resolved there at run time); another argument naming an
 * existing folder or file of the project becomes `${PROJECT_ROOT}/…` and is bound read-only.
 */
function projectPaths(project: Project, cwd: string, command: string, args: string[]) {
  const rel = (abs: string) => toPosix(relative(project.root, abs)) || '.';
  const looksLikePath = (a: string) => a === '.' || a === '..' || a.includes('/');
  const stored =
    looksLikePath(command) && inside(project.root, resolve(cwd, command)) ? rel(resolve(cwd, command)) : command;
  const script = /^(node|nodejs|python(\d+(\.\d+)?)?)$/.test(command.split('/').pop()!)
    ? args.findIndex((a) => !a.startsWith('-'))
    : -1;
  const paths: string[] = [];
  const out = args.map((a, i) => {
    if (!looksLikePath(a) || a.includes('${')) return a;
    const abs = resolve(cwd, a);
    if (!existsSync(abs) || !inside(project.root, abs)) return a;
    if (i === script && args[i - 1] !== '-m') return rel(abs);
    paths.push(rel(abs));
    return rel(abs) === '.' ? '${PROJECT_ROOT}' : `\${PROJECT_ROOT}/${rel(abs)}`;
  });
  return { command: stored, args: out, paths };
}

/** Import one server: install it when it comes by name, list its tools in the sandbox, write contracts. */
async function importServer(project: Project, src: ServerSource, opts: ImportOptions): Promise<ImportReport> {
  const env = opts.env ?? process.env;
  const launcher = src.command ? parseLauncher(src.command) : undefined;
  const s: ServerSource = launcher ? { ...src, ...launcher } : src;
  let managed: ManagedServer | undefined;
  if (s.npm)
    managed = await installNpmServer(project, s.npm, {
      allowScripts: opts.allowScripts,
      bin: s.bin,
      env,
      signal: opts.signal,
    });
  else if (s.pypi)
    managed = await installPypiServer(project, s.pypi, {
      allowScripts: opts.allowScripts,
      bin: s.bin,
      env,
      signal: opts.signal,
    });

  const sandbox: SandboxPolicy = {};
  const envNames = new Set<string>();
  const pin = opts.protocol ? { protocol: opts.protocol as McpProtocol } : {};
  const paths = (opts.paths ?? []).map((p) => resolve(opts.cwd, p));
  if (opts.network || s.url) sandbox.network = true;
  let target: McpTarget;
  let loaderBase: Record<string, unknown>;
  let binds: ServerBind[] = [];
  if (s.url) {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.headers ?? {})) {
      const t = envTemplate(v);
      if (t.literal && SECRET_HEADER.test(k))
        throw usageError(
          'header_secret_literal',
          `header '${k}' carries a literal value`,
          `Name an environment variable instead: --header '${k}: Bearer \${TOKEN_NAME}'. Contracts never hold secrets.`,
        );
      t.names.forEach((n) => envNames.add(n));
      headers[k] = t.value;
    }
    target = {
      kind: 'http',
      project: project.root,
      url: s.url,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, expandNow(v, env)])),
      ...pin,
    };
    loaderBase = { url: s.url, ...(Object.keys(headers).length ? { headers } : {}), ...pin };
  } else {
    const [cmd, ...rawArgs] = managed ? [join(project.root, managed.command), ...(s.command ?? [])] : s.command!;
    const pp = projectPaths(project, src.cwd ?? opts.cwd, cmd!, rawArgs);
    paths.push(...pp.paths.map((p) => resolve(project.root, p)));
    const runEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.env ?? {})) {
      envNames.add(k);
      const t = envTemplate(v);
      t.names.forEach((n) => envNames.add(n));
      // A literal value from a client config is used only for this listing, never written.
      runEnv[k] = env[k] ?? (t.literal ? v : expandNow(t.value, env));
    }
    const stored = paths.map((p) => (inside(project.root, p) ? toPosix(relative(project.root, p)) || '.' : p));
    if (stored.length) sandbox.paths = [...new Set(stored)];
    // The same rule the runtime applies to every call: a contract binds only paths inside the project.
    const bad = checkSandboxPaths(project.root, opts.prefix ?? '', sandbox.paths ?? [], Boolean(opts.network), {
      tools: {},
      legacy: [],
    })[0];
    if (bad)
      throw usageError(
        bad.code,
        `--path ${bad.path}: ${bad.message}`,
        `${bad.hint.split(' To allow it')[0].replace(/\.$/, '')}. Copy what the server needs into the project, or import it and add a grant per tool (docs/sandbox.md).`,
      );
    const args = pp.args.map((a) => a.replace(/\$\{PROJECT_ROOT\}/g, project.root));
    binds = [
      ...resolveServerCommand(project.root, pp.command, args, { pathVar: env.PATH, nodeBinary: process.execPath })
        .binds,
      ...(opts.paths ?? []).map((p) => ({ path: resolve(opts.cwd, p), why: 'given with --path (sandbox.paths)' })),
      ...pp.paths.map((p) => ({
        path: resolve(project.root, p),
        why: "named in the server's arguments (sandbox.paths)",
      })),
    ];
    target = {
      kind: 'stdio',
      root: project.root,
      command: pp.command,
      args,
      env: runEnv,
      readOnlyPaths: [...new Set(paths)],
      network: Boolean(opts.network),
      limits: resolveLimits(sandbox, undefined, opts.timeoutMs),
      pathVar: env.PATH,
      // No tool ids yet: what the user granted every tool of this project ("*") applies.
      granted: () => grantFor(loadUserGrants(project.root), '*').paths,
      ...pin,
    };
    loaderBase = { command: pp.command, args: pp.args, ...pin, ...(managed ? { package: managed.package } : {}) };
  }
  const { server, tools } = await listTools(target, opts);
  refuseDeepSchemas(server.name, tools);
  const base = {
    ...(src.name ? { name: src.name } : {}),
    server,
    dir: outDir(project, opts),
    ...(managed
      ? {
          package: {
            ...managed.package,
            dir: managed.dir,
            installed: managed.installed,
            scripts: managed.scripts ? ('allowed' as const) : ('ignored' as const),
          },
        }
      : {}),
    binds,
  };
  if (opts.check) return { ...base, tools: [], counts: zero(), upstream: compareUpstream(project, server.name, tools) };
  if (!tools.length)
    throw new ToolboxError('import_no_tools', `MCP server '${server.name}' lists no tools`, {
      exitCode: ExitCode.findings,
    });
  const requires: ToolContract['requires'] = envNames.size ? { env: [...envNames].sort() } : undefined;
  const key = (c: Record<string, unknown>) =>
    JSON.stringify((c.package as { name?: string } | undefined)?.name ?? c.url ?? [c.command, c.args]);
  const dir = base.dir;
  const written = writeContracts(
    tools,
    {
      dir,
      prefix: opts.prefix ?? (src.name ? `${toSnakeId('', src.name).slice(0, 40)}_` : ''),
      provider: server.name,
      loaderBase,
      sandbox,
      requires,
      force: Boolean(opts.force),
      existing: loadRegistry(project, { cache: false }).byId,
      sameServer: (c) => key(c) === key(loaderBase),
    },
    !s.url,
  );
  const counts = zero();
  for (const t of written.tools) counts[t.status]++;
  // toolbox.lock follows every import: the contracts toolbox stands behind and the server's definitions.
  const lock = written.locked.length ? recordImported(project, server.name, written.locked) : undefined;
  return { ...base, tools: written.tools, counts, ...(lock ? { lock } : {}) };
}

/**
 * Connect to each MCP server asked for, list its tools and write one contract per tool. Never
 * overwrites a file a person has edited (unless force); never takes an id another contract uses.
 */
export async function importMcp(project: Project, opts: ImportOptions): Promise<ImportResult> {
  const byName = Boolean(opts.npm || opts.pypi);
  const command = opts.command?.length && !byName ? opts.command : undefined;
  const given = [opts.url, command, opts.npm, opts.pypi, opts.fromConfig].filter(Boolean);
  if (given.length !== 1) {
    throw usageError(
      'import_source_missing',
      given.length ? 'give one server source: a command, --url, --npm, --pypi or --from-config' : 'no MCP server given',
      'Use `toolbox import mcp -- npx -y <package> [args…]`, `-- <command> [args…]`, `--url http://host/mcp` or `--from-config FILE`.',
    );
  }
  if (opts.prefix !== undefined && opts.prefix !== '' && !PREFIX.test(opts.prefix))
    throw usageError(
      'bad_prefix',
      `--prefix '${opts.prefix}' cannot start a tool id`,
      'A prefix is letters, digits, _ . - and starts with a letter or _, e.g. --prefix ev_.',
    );
  outDir(project, opts); // a bad --out fails before anything is installed or started
  if (opts.protocol !== undefined && !(MCP_PROTOCOLS as readonly string[]).includes(opts.protocol))
    throw usageError(
      'bad_protocol',
      `--protocol ${opts.protocol} is not an MCP revision toolbox speaks`,
      `Give one of ${MCP_PROTOCOLS.join(', ')} (e.g. --protocol 2025-11-25 for a server that cannot ask its questions at 2026-07-28).`,
    );
  if ((opts.oauthClientId || opts.oauthClientSecretEnv || opts.oauthClientMetadataUrl) && !opts.url)
    throw usageError(
      'oauth_without_url',
      'the --oauth-* options apply to --url imports only',
      'Drop them, or import with --url.',
    );
  if (opts.oauthClientMetadataUrl && !/^https:\/\/[^/]+\/./.test(opts.oauthClientMetadataUrl))
    throw usageError(
      'bad_oauth_metadata_url',
      `--oauth-client-metadata-url ${opts.oauthClientMetadataUrl} is not an https URL with a path`,
      'Give the https address where the client ID metadata document is published, e.g. https://example.com/toolbox-client.json.',
    );
  if (opts.oauthClientSecretEnv && !(opts.env ?? process.env)[opts.oauthClientSecretEnv])
    throw usageError(
      'oauth_secret_missing',
      `--oauth-client-secret-env ${opts.oauthClientSecretEnv}: that variable is not set`,
      `Set it in your shell: export ${opts.oauthClientSecretEnv}=… (the secret is kept in your own state folder, never in the project).`,
    );
  if (opts.headers?.length && !opts.url)
    throw usageError(
      'header_without_url',
      '--header applies to --url imports only',
      'Drop --header, or import with --url.',
    );
  const sources: ServerSource[] = opts.fromConfig
    ? readClientConfig(resolve(opts.cwd, opts.fromConfig), opts.cwd)
    : [
        {
          // With --npm / --pypi, what follows `--` is the server's own arguments.
          command: opts.command ?? [],
          npm: opts.npm,
          pypi: opts.pypi,
          url: opts.url,
          headers: Object.fromEntries(
            (opts.headers ?? []).map((h) => {
              const i = h.indexOf(':');
              if (i < 1)
                throw usageError(
                  'bad_header',
                  `--header '${h}' is not 'Name: value'`,
                  "Write it as --header 'Authorization: Bearer ${TOKEN}'.",
                );
              return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
            }),
          ),
        },
      ];
  const servers: ImportReport[] = [];
  for (const src of sources) servers.push(await importServer(project, src, opts));
  const counts = zero();
  for (const r of servers) for (const s of STATUSES) counts[s] += r.counts[s];
  return { ...(opts.fromConfig ? { config: resolve(opts.cwd, opts.fromConfig) } : {}), servers, counts };
}
