import type { ToolContract } from '../contract/types.js';

/** Tool-definition formats `toolbox select --format` prints, ready to paste into an API call. */
export type DefinitionFormat = 'openai' | 'anthropic' | 'mcp';
export const DEFINITION_FORMATS: readonly DefinitionFormat[] = ['openai', 'anthropic', 'mcp'];

/**
 * The contracts as tool definitions: OpenAI `[{ type: 'function', function: { name, description,
 * parameters } }]`, Anthropic `[{ name, description, input_schema }]`, MCP `{ tools: [{ name,
 * description, inputSchema }] }`. The tool id is the name (it is what `run` and the runtime accept).
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
      return { tools: contracts.map((c) => ({ name: c.id, description: c.description, inputSchema: c.schema })) };
  }
}
