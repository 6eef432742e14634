import { MCP_PROTOCOLS, VERSION_FLAGS, type JsonSchema, type LoaderType } from './types.js';

const templated = { type: 'string', minLength: 1 };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
/** One `sandbox.network` entry: a host name (`*.` for any name below), an IPv4/[IPv6] address, optionally `:port`. */
const NETWORK_HOST =
  '^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)*[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.?(:[0-9]{1,5})?$|^\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?$';
const sizeValue = {
  anyOf: [
    { type: 'integer', minimum: 1 },
    { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?\\s*([kKmMgG][iI]?[bB]?|[bB])?$' },
  ],
};

/**
 * The `loader_config` schema of each loader type. validate checks a contract's loader_config
 * against its loader's schema, so errors name the loader.
 */
export const loaderConfigSchemas: Record<LoaderType, JsonSchema> = {
  python_function: {
    type: 'object',
    required: ['module', 'function'],
    additionalProperties: false,
    properties: {
      module: {
        type: 'string',
        pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$',
        description: 'Dotted module path, resolved with the project root on sys.path.',
      },
      function: {
        type: 'string',
        pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
        description: 'Name of the function in the module; called with the arguments as keyword arguments.',
      },
      python: {
        type: 'string',
        minLength: 1,
        description:
          'Interpreter to use (path or command; default python3). A venv path relative to the project root is allowed.',
      },
    },
  },
  node_module: {
    type: 'object',
    required: ['module'],
    additionalProperties: false,
    properties: {
      module: { type: 'string', minLength: 1, description: 'Path of the module, relative to the project root.' },
      function: {
        type: 'string',
        minLength: 1,
        description: "Export to call with the arguments object (default: 'default').",
      },
    },
  },
  command: {
    type: 'object',
    required: ['argv'],
    additionalProperties: false,
    properties: {
      argv: {
        type: 'array',
        minItems: 1,
        items: { type: 'string' },
        description:
          'Program and arguments; {{param}} placeholders are substituted per element, never through a shell.',
      },
      stdin: { type: 'string', description: "Text written to the program's stdin ({{param}} placeholders allowed)." },
      parse: {
        enum: ['auto', 'json', 'text'],
        description: 'How stdout becomes the result (auto: JSON when it parses).',
      },
    },
  },
  http: {
    type: 'object',
    required: ['url'],
    additionalProperties: false,
    properties: {
      method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] },
      url: { ...templated, description: 'URL with {{param}} and ${ENV_VAR} placeholders.' },
      headers: stringMap,
      query: stringMap,
      body: { description: 'Request body: a template string, or any JSON value whose strings are templates.' },
    },
  },
  mcp: {
    type: 'object',
    required: ['tool'],
    additionalProperties: false,
    properties: {
      command: { type: 'string', minLength: 1, description: 'Command that starts a stdio MCP server.' },
      args: { type: 'array', items: { type: 'string' } },
      env: stringMap,
      url: { type: 'string', pattern: '^https?://', description: 'Streamable HTTP endpoint of the MCP server.' },
      headers: stringMap,
      tool: { type: 'string', minLength: 1, description: "The tool's name on that server." },
      protocol: {
        enum: [...MCP_PROTOCOLS],
        description:
          'Pin the MCP revision toolbox speaks to the server (no 2026-07-28 discovery when a 2025 one is pinned; no fallback to 2025 when 2026-07-28 is).',
      },
      package: {
        type: 'object',
        description: 'The package `toolbox import mcp` installed the server from (into .toolbox/servers/), pinned.',
        required: ['registry', 'name', 'version'],
        additionalProperties: false,
        properties: {
          registry: { enum: ['npm', 'pypi'] },
          name: { type: 'string', minLength: 1 },
          version: { type: 'string', minLength: 1 },
          integrity: { type: 'string', description: 'npm lockfile integrity (sha512-…) or sha256-… of the wheel.' },
          files: {
            type: 'string',
            pattern: '^sha256-',
            description: 'sha256 of every file toolbox installed; `run --locked` refuses the server when they differ.',
          },
        },
      },
    },
    oneOf: [{ required: ['command'] }, { required: ['url'] }],
  },
};

/** The JSON Schema of a tool contract file (published as schemas/contract.schema.json). */
export const contractSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://toolbox.dev/schemas/contract.schema.json',
  title: 'toolbox tool contract',
  type: 'object',
  required: ['id', 'name', 'description', 'schema', 'loader', 'loader_config'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    id: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$',
      description: 'Unique tool id (letters, digits, _ . -; at most 64 characters).',
    },
    name: { type: 'string', minLength: 1, description: 'Human-readable name, any language.' },
    title: {
      type: 'string',
      minLength: 1,
      description: 'Display title MCP clients show (default: name). Sent as the MCP tool `title`.',
    },
    description: {
      type: 'string',
      description: 'What the tool does and when to use it. The selector and the model read this.',
    },
    schema: { type: 'object', description: 'JSON Schema (draft 2020-12 or draft-07) of the input object.' },
    provider: { type: 'string' },
    loader: { enum: ['python_function', 'node_module', 'command', 'http', 'mcp'] },
    loader_config: { type: 'object' },
    version: { type: 'string' },
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    examples: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: 'Queries that should select this tool (checked by validate).',
    },
    output_schema: {
      type: 'object',
      description:
        'JSON Schema of the result. MCP clients get it as `outputSchema` (when its type is object) and the result as structuredContent.',
    },
    annotations: {
      type: 'object',
      additionalProperties: false,
      description: "Hints about the tool's behaviour for MCP clients (not enforced, not a security boundary).",
      properties: {
        readOnlyHint: { type: 'boolean', description: 'The tool does not change its environment (default false).' },
        destructiveHint: {
          type: 'boolean',
          description: 'When not read-only: it may destroy or overwrite data (default true).',
        },
        idempotentHint: {
          type: 'boolean',
          description:
            'When not read-only: repeating a call with the same arguments has no further effect (default false).',
        },
        openWorldHint: {
          type: 'boolean',
          description: 'It reaches an open world such as the internet (default true).',
        },
      },
    },
    icons: {
      type: 'array',
      description: 'Icons MCP clients may show beside the tool.',
      items: {
        type: 'object',
        required: ['src'],
        additionalProperties: false,
        properties: {
          src: { type: 'string', pattern: '^(https://|data:)', description: 'An https: URL or a data: URI.' },
          mimeType: { type: 'string', minLength: 1 },
          sizes: { type: 'array', items: { type: 'string', pattern: '^([0-9]+x[0-9]+|any)$' } },
          theme: { enum: ['light', 'dark'] },
        },
      },
    },
    format: { type: 'string', description: 'Template turning the result into text: {{field}}, {{a.b}}, {{.}}.' },
    timeout: {
      anyOf: [
        { type: 'number', exclusiveMinimum: 0 },
        { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?\\s*(ms|s|m|h)?$' },
      ],
      description: 'Wall-clock limit: seconds, or 500ms / 10s / 2m.',
    },
    sandbox: {
      type: 'object',
      additionalProperties: false,
      properties: {
        network: {
          anyOf: [
            { type: 'boolean' },
            {
              type: 'array',
              minItems: 1,
              uniqueItems: true,
              items: { type: 'string', pattern: NETWORK_HOST },
            },
          ],
          description:
            "Open the network through the egress proxy: true (any public host) or the hosts the tool may reach (api.example.com, *.github.com, host:port). Loopback and private addresses only by the user's grant.",
        },
        env: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
        memory: sizeValue,
        cpu: { type: 'number', exclusiveMinimum: 0 },
        processes: { type: 'integer', minimum: 1 },
        file_size: sizeValue,
        open_files: { type: 'integer', minimum: 8 },
        output: sizeValue,
        paths: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
    },
    requires: {
      type: 'object',
      additionalProperties: false,
      properties: {
        python: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        node: { anyOf: [{ type: 'array', items: { type: 'string' } }, stringMap] },
        bins: {
          type: 'array',
          items: {
            anyOf: [
              { type: 'string', minLength: 1 },
              {
                type: 'object',
                required: ['name'],
                additionalProperties: false,
                properties: {
                  name: { type: 'string' },
                  version: { type: 'string' },
                  // The probe runs a host program: its argument is one of these, never free text from a contract.
                  version_flag: { enum: [...VERSION_FLAGS] },
                },
              },
            ],
          },
        },
        env: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
      },
    },
    permissions: {
      anyOf: [
        { type: 'array', items: { type: 'string' } },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            roles: { type: 'array', items: { type: 'string' } },
            users: { type: 'array', items: { type: 'string' } },
          },
        },
      ],
    },
    warm: { type: 'boolean' },
    max_result_tokens: { type: 'integer', minimum: 100 },
    mcp: {
      type: 'object',
      additionalProperties: false,
      description: 'How `toolbox serve` offers the tool to MCP clients.',
      properties: {
        client_capabilities: {
          type: 'array',
          uniqueItems: true,
          items: { enum: ['elicitation', 'sampling', 'roots'] },
          description:
            'Client capabilities the tool cannot work without: a client that did not declare them is refused before the tool runs (MCP error -32021 on 2026-07-28).',
        },
        task: {
          enum: ['forbidden', 'optional', 'required'],
          description:
            "Calls may become MCP tasks (io.modelcontextprotocol/tasks) for clients that support them: when the tool calls background(), or when still running after a second. required: a client without tasks is refused. forbidden: never a task (as without the key). Shown to clients as execution.taskSupport; `import mcp` copies the server's, and the mcp loader calls a `required` tool of a 2025-11-25 server as a task.",
        },
      },
    },
  },
  allOf: (Object.keys(loaderConfigSchemas) as LoaderType[]).map((t) => ({
    if: { properties: { loader: { const: t } }, required: ['loader'] },
    then: { properties: { loader_config: loaderConfigSchemas[t] } },
  })),
};
