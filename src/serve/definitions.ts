import type { ToolContract } from '../contract/types.js';
import { mcpToolDefinition, type McpToolDefinition } from '../contract/mcp-tool.js';
import { inert } from '../util/inert.js';

/** A tool as MCP clients see it in tools/list. */
export type McpToolDef = McpToolDefinition;

export const SEARCH_TOOL = 'search_tools';
export const CALL_TOOL = 'call_tool';
export const META_TOOLS = new Set([SEARCH_TOOL, CALL_TOOL]);

/**
 * A contract as an MCP tool: the id is the name (ids already fit MCP's name rules). Its words (title,
 * description, the schemas' titles and descriptions) go to the client and its model without control
 * sequences, C0/C1 controls or bidi overrides (a client may print them to a terminal; none has a use
 * in a description); the schemas' values (enum, const, default, pattern) stay exact.
 */
export function toolDef(c: ToolContract): McpToolDef {
  const d = mcpToolDefinition(c);
  return {
    ...d,
    ...(d.title !== undefined ? { title: inert(d.title) } : {}),
    description: inert(d.description),
    inputSchema: inertWords(d.inputSchema) as McpToolDef['inputSchema'],
    ...(d.outputSchema ? { outputSchema: inertWords(d.outputSchema) as McpToolDef['outputSchema'] } : {}),
  };
}

// JSON Schema keywords whose value is a schema, a list of schemas, or a map of names to schemas.
const ONE = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A schema with its `title` and `description` words made inert, walking only into subschemas. */
function inertWords(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if ((k === 'title' || k === 'description') && typeof v === 'string') out[k] = inert(v);
    else if (ONE.has(k)) out[k] = inertWords(v);
    else if (LIST.has(k) && Array.isArray(v)) out[k] = v.map(inertWords);
    else if (MAP.has(k) && v && typeof v === 'object' && !Array.isArray(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, inertWords(s)]));
    else out[k] = v;
  }
  return out;
}

/**
 * The two tools of `--expose search`: however large the registry, the client pays for these
 * definitions only, and fetches the rest on demand.
 */
export function metaToolDefs(toolCount: number, top: number): McpToolDef[] {
  return [
    {
      name: SEARCH_TOOL,
      title: 'Search tools',
      description:
        `Find tools for a task in a registry of ${toolCount} tools. Describe what you need in plain words (any language); ` +
        `returns the best matches with their full definitions (name, description, inputSchema). Use it first whenever you need ` +
        `a capability you do not see in your tool list. Found tools can then be called directly, or through ${CALL_TOOL}.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            minLength: 1,
            description: 'What you want to do, e.g. "weather in Beijing tomorrow" or "convert 3 miles to km".',
          },
          top: { type: 'integer', minimum: 1, maximum: 20, description: `How many tools to return (default ${top}).` },
          cursor: {
            type: 'string',
            description: 'The nextCursor of a previous search with the same query: its next page of matches.',
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
    },
    {
      name: CALL_TOOL,
      title: 'Call a tool',
      description:
        `Call a registry tool by its id with arguments matching its inputSchema (get both from ${SEARCH_TOOL}). ` +
        'The arguments are validated and the tool runs sandboxed; failures come back as an error result with a reason.',
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', minLength: 1, description: `The tool's name as returned by ${SEARCH_TOOL}.` },
          arguments: {
            type: 'object',
            description: "The tool's arguments, matching its inputSchema.",
            additionalProperties: true,
          },
        },
        required: ['id'],
        additionalProperties: false,
      },
    },
  ];
}
