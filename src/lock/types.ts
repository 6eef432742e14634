/** One tool in toolbox.lock: what the model sees, what runs, what it may touch, what it depends on. */
export interface LockEntry {
  /** sha256 of each model-visible field (name, title, description, schema, annotations, output_schema). */
  model: Record<string, string>;
  runs: {
    loader: string;
    /** sha256 of loader_config. */
    loader_config: string;
    /** The local implementation file (python module, node module, command script) and its content hash. */
    implementation?: { file: string; sha256: string };
    /** Every file of the tool's code (lock/code.ts): path → hash; `implementation.sha256` is their digest. */
    files?: Record<string, string>;
  };
  /** What the tool needs installed, in clear: `bins`, `python` (a requirements file by its hash), `node`. */
  requires?: Record<string, unknown>;
  /** The sandbox grant, in clear so a review sees it: network, env names, paths, limits, timeout. */
  sandbox: Record<string, unknown>;
  /** Resolved dependency versions found by `toolbox deps` ("python:requests": "2.32.3"). */
  deps?: Record<string, string>;
  /** For imported MCP tools: the server's tool definition at import time. */
  upstream?: UpstreamRecord;
}

/** An MCP server's definition of one tool, as hashes per field (so a check can say what changed). */
export interface UpstreamRecord {
  server: string;
  tool: string;
  /** sha256 per field of the tools/list entry (description, inputSchema, title, annotations, outputSchema). */
  fields: Record<string, string>;
}

/** The whole toolbox.lock. */
export interface LockFile {
  version: 1;
  tools: Record<string, LockEntry>;
}

/** What kind of change: a grant (loudest), what the model sees, what runs, a dependency, a tool added/removed. */
export type DriftKind = 'grant' | 'model' | 'runs' | 'deps' | 'upstream' | 'tool';

/** One difference between toolbox.lock and the registry as it is now. */
export interface Drift {
  tool: string;
  kind: DriftKind;
  /** Dotted field: "sandbox.network", "model.description", "runs.implementation", "deps.python:requests". */
  field: string;
  before?: unknown;
  after?: unknown;
  /** For `runs.implementation`: each file added, removed or changed ("my_tools/helper.py changed"). */
  files?: string[];
  /** "send_email: sandbox.network false → true". */
  message: string;
}
