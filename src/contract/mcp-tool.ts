import type { JsonSchema, ToolAnnotations, ToolContract, ToolIcon } from './types.js';

/** A contract as an MCP `Tool` (what tools/list returns and `select --format mcp` prints). */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  outputSchema?: { type: 'object'; [k: string]: unknown };
  annotations?: ToolAnnotations;
  icons?: ToolIcon[];
}

/**
 * The MCP outputSchema of a contract, or undefined. MCP only allows object output schemas (the
 * structured result is a JSON object), so a contract whose output_schema describes a string or an
 * array keeps it for toolbox's own check but does not announce it to MCP clients.
 */
export function mcpOutputSchema(c: ToolContract): McpToolDefinition['outputSchema'] {
  const s: JsonSchema | undefined = c.output_schema;
  if (!s || s.type !== 'object') return undefined;
  return s as McpToolDefinition['outputSchema'];
}

/** The display title: `title`, else `name` when it says more than the id. */
export function displayTitle(c: ToolContract): string | undefined {
  if (c.title) return c.title;
  return c.name && c.name !== c.id ? c.name : undefined;
}

/** The contract as an MCP tool definition; the id is the name (ids already fit MCP's name rules). */
export function mcpToolDefinition(c: ToolContract): McpToolDefinition {
  // MCP requires an object schema at the top; a contract without `type` gets it stated.
  const inputSchema = { ...(c.schema ?? {}), type: 'object' as const };
  const title = displayTitle(c);
  const outputSchema = mcpOutputSchema(c);
  return {
    name: c.id,
    ...(title ? { title } : {}),
    description: c.description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    ...(c.annotations && Object.keys(c.annotations).length ? { annotations: { ...c.annotations } } : {}),
    ...(c.icons?.length ? { icons: c.icons.map((i) => ({ ...i })) } : {}),
  };
}
