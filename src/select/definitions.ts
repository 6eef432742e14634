import type { ToolContract } from '../contract/types.js';
import { mcpToolDefinition } from '../contract/mcp-tool.js';

/** Tool-definition formats `toolbox select --format` prints, ready to paste into an API call. */
export type DefinitionFormat = 'openai' | 'anthropic' | 'mcp';
export const DEFINITION_FORMATS: readonly DefinitionFormat[] = ['openai', 'anthropic', 'mcp'];

/**
 * The contracts as tool definitions: OpenAI `[{ type: 'function', function: { name, description,
 * parameters } }]`, Anthropic `[{ name, description, input_schema }]`, MCP `{ tools: [{ name, title,
 * description, inputSchema, outputSchema, annotations, icons }] }`. The tool id is the name (it is
 * what `run` and the runtime accept). The OpenAI and Anthropic tool objects have no field for a
 * title, annotations or an output schema and both APIs reject unknown keys, so those formats
 * carry the MCP-only fields in nothing but the MCP format.
 */
export function toDefinitions(contracts: readonly ToolContract[], format: DefinitionFormat): unknown {
  switch (format) {
    case 'openai':
      return contracts.map((c) => ({
        type: 'function',
        function: { name: c.id, description: c.description, parameters: c.schema },
      }));
    case 'anthropic':
      return contracts.map((c) => ({ name: c.id, description: c.description, input_schema: c.schema }));
    case 'mcp':
      return { tools: contracts.map((c) => mcpToolDefinition(c)) };
  }
}
