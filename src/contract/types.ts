/** JSON Schema as plain data (draft 2020-12 or draft-07). */
export type JsonSchema = { [key: string]: unknown };

/** The loader types toolbox knows. Adding one: a file in src/loaders/ and a line in its map. */
export const LOADER_TYPES = ['python_function', 'node_module', 'command', 'http', 'mcp'] as const;
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
export interface McpConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  tool: string;
}

/** The contract's `sandbox` section: what the default policy is loosened or tightened to. */
export interface SandboxPolicy {
  /** Open the network (default: closed). */
  network?: boolean;
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

/** One tool contract, as written in its YAML file. */
export interface ToolContract {
  id: string;
  name: string;
  description: string;
  schema: JsonSchema;
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
}

/** A contract together with where it came from. */
export interface ToolEntry {
  contract: ToolContract;
  /** Absolute path of the contract file. */
  file: string;
  /** 1-based line of the contract's `id` key, for messages. */
  line?: number;
}
