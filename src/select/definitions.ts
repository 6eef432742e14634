import type { JsonSchema, ToolContract } from '../contract/types.js';
import { mcpToolDefinition, type McpToolDefinition } from '../contract/mcp-tool.js';

/** Tool-definition formats `toolbox select --format` prints, ready to paste into an API call. */
export type DefinitionFormat = 'openai' | 'anthropic' | 'mcp';
export const DEFINITION_FORMATS: readonly DefinitionFormat[] = ['openai', 'anthropic', 'mcp'];

/** An OpenAI Chat Completions tool definition. */
export interface OpenAIToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}
/** An Anthropic Messages API tool definition. */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema;
}
/** The MCP `tools/list` result shape. */
export interface McpToolList {
  tools: McpToolDefinition[];
}
/** What toDefinitions returns for each format. */
export interface DefinitionsByFormat {
  openai: OpenAIToolDefinition[];
  anthropic: AnthropicToolDefinition[];
  mcp: McpToolList;
}

/**
 * The contracts as tool definitions: OpenAI `[{ type: 'function', function: { name, description,
 * parameters } }]`, Anthropic `[{ name, description, input_schema }]`, MCP `{ tools: [{ name, title,
 * description, inputSchema, outputSchema, annotations, icons }] }`. The tool id is the name (it is
 * what `run` and the runtime accept). The OpenAI and Anthropic tool objects have no field for a
 * title, annotations or an output schema and both APIs reject unknown keys, so those formats
 * carry the MCP-only fields in nothing but the MCP format.
 */
export function toDefinitions<F extends DefinitionFormat>(
  contracts: readonly ToolContract[],
  format: F,
): DefinitionsByFormat[F];
export function toDefinitions(
  contracts: readonly ToolContract[],
  format: DefinitionFormat,
): DefinitionsByFormat[DefinitionFormat] {
  switch (format) {
    case 'openai':
      return contracts.map((c) => ({
        type: 'function' as const,
        function: { name: c.id, description: c.description, parameters: c.schema },
      }));
    case 'anthropic':
      return contracts.map((c) => ({ name: c.id, description: c.description, input_schema: c.schema }));
    case 'mcp':
      return { tools: contracts.map((c) => mcpToolDefinition(c)) };
  }
}
