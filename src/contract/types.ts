/** JSON Schema as plain data (draft 2020-12 or draft-07). */
export type JsonSchema = { [key: string]: unknown };

/** The loader types toolbox knows. Adding one: a file in src/loaders/ and a line in its map. */
export const LOADER_TYPES = ['python_function', 'node_module', 'command', 'http', 'mcp'] as const;

/** The flags a `requires.bins` version probe may use: it runs a host program, so never free text from a contract. */
export const VERSION_FLAGS = ['--version', '-version', '-V', '-v', 'version'] as const;
export type LoaderType = (typeof LOADER_TYPES)[number];

export interface PythonFunctionConfig {
  module: string;
  function: string;
  python?: string;
}
export interface NodeModuleConfig {
  module: string;
  function?: string;
}
export interface CommandConfig {
  argv: string[];
  stdin?: string;
  parse?: 'auto' | 'json' | 'text';
}
export interface HttpConfig {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}
/**
 * The MCP revisions `loader_config.protocol` (and `import mcp --protocol`) may pin an upstream to:
 * 2026-07-28 (server/discover, stateless) or a 2025-era one (initialize), newest first.
 */
export const MCP_PROTOCOLS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type McpProtocol = (typeof MCP_PROTOCOLS)[number];

export interface McpConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  tool: string;
  /** The one revision toolbox offers the server (no negotiation); unset: 2026-07-28 when offered, else 2025. */
  protocol?: McpProtocol;
  /** The package the server was installed from by `import mcp` (pinned version and integrity). */
  package?: { registry: 'npm' | 'pypi'; name: string; version: string; integrity?: string };
}

/** The contract's `sandbox` section: what the default policy is loosened or tightened to. */
export interface SandboxPolicy {
  /**
   * Open the network (default: closed): `true` for any public host, or the hosts the tool may reach
   * (`api.open-meteo.com`, `*.github.com`, `host:port`). Always through toolbox's egress proxy, in a
   * network namespace of the tool's own; loopback and private addresses only by the user's grant.
   */
  network?: boolean | string[];
  /** Names of host environment variables passed to the tool (values are never logged). */
  env?: string[];
  /** Memory limit: bytes as a number, or '256M', '1G'. */
  memory?: number | string;
  /** CPU time limit in seconds. */
  cpu?: number;
  /** Max processes/threads. */
  processes?: number;
  /** Max size of any file the tool writes ('16M'). */
  file_size?: number | string;
  /** Max open files. */
  open_files?: number;
  /** Max bytes of output (stdout + result) before the tool is killed ('1M'). */
  output?: number | string;
  /** Extra host paths bound read-only (relative paths are resolved against the project root). */
  paths?: string[];
}

export interface BinRequirement {
  name: string;
  version?: string;
  version_flag?: string;
}

/** Runtime dependencies, checked by `toolbox deps` and before `run`. */
export interface Requires {
  /** PEP 508 lines, or a path (relative to the contract file) of a requirements.txt. */
  python?: string[] | string;
  /** Package names with semver ranges: ["lodash@^4"] or { lodash: "^4" }. */
  node?: string[] | Record<string, string>;
  bins?: (string | BinRequirement)[];
  env?: string[];
}

export interface Permissions {
  roles?: string[];
  users?: string[];
}

/**
 * Hints about a tool's behaviour for MCP clients (MCP `ToolAnnotations`). They are hints, not
 * guarantees: clients must not rely on them for security, and toolbox does not enforce them.
 */
export interface ToolAnnotations {
  /** The tool does not change its environment (default false). */
  readOnlyHint?: boolean;
  /** When not read-only: the tool may destroy or overwrite data (default true). */
  destructiveHint?: boolean;
  /** When not read-only: calling again with the same arguments has no further effect (default false). */
  idempotentHint?: boolean;
  /** The tool talks to an open world (the internet), not a closed domain (default true). */
  openWorldHint?: boolean;
}

/** An icon a client may show beside the tool (MCP `Icon`). */
export interface ToolIcon {
  /** https: URL or data: URI. */
  src: string;
  mimeType?: string;
  /** Sizes such as "48x48", or "any" for scalable formats. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** One tool contract, as written in its YAML file. */
export interface ToolContract {
  id: string;
  name: string;
  /** Display title for MCP clients (default: `name`). */
  title?: string;
  description: string;
  schema: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: ToolIcon[];
  provider?: string;
  loader: LoaderType;
  loader_config: Record<string, unknown>;
  version?: string;
  tags?: string[];
  examples?: string[];
  output_schema?: JsonSchema;
  format?: string;
  /** Seconds, or a duration string such as '500ms', '2m'. */
  timeout?: number | string;
  sandbox?: SandboxPolicy;
  requires?: Requires;
  permissions?: Permissions | string[];
  warm?: boolean;
  /** Cap, in o200k tokens, on what one result puts in front of the model (default: config, else 20,000). */
  max_result_tokens?: number;
  /** How `toolbox serve` offers the tool to MCP clients. */
  mcp?: McpOptions;
}

/** A contract's `mcp` section. */
export interface McpOptions {
  /** Client capabilities the tool cannot work without (checked before it runs). */
  client_capabilities?: ('elicitation' | 'sampling' | 'roots')[];
  /**
   * Calls may become MCP tasks for clients that support them; `required`: only such clients may call;
   * `forbidden`: never (as without the key). Shown to clients as `execution.taskSupport`; for an `mcp`
   * tool it is the server's own (copied by `import mcp`), and `required` makes the loader call it as a task.
   */
  task?: 'forbidden' | 'optional' | 'required';
}

/** A contract together with where it came from. */
export interface ToolEntry {
  contract: ToolContract;
  /** Absolute path of the contract file. */
  file: string;
  /** 1-based line of the contract's `id` key, for messages. */
  line?: number;
}

/** Whether a contract opens the network (`true` or a host list). */
export function networkOpen(s: SandboxPolicy | undefined): boolean {
  return s?.network === true || (Array.isArray(s?.network) && s.network.length > 0);
}
