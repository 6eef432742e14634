import type { JsonSchema, ToolContract } from '../contract/types.js';
import { mcpToolDefinition, type McpToolDefinition } from '../contract/mcp-tool.js';
import { NAME_RULES, portableName } from '../contract/provider-names.js';
import { ExitCode, ToolboxError } from '../errors.js';

/** Tool-definition formats `toolbox select --format` prints, ready to paste into an API call. */
export type DefinitionFormat = 'openai' | 'anthropic' | 'mcp';
export const DEFINITION_FORMATS: readonly DefinitionFormat[] = ['openai', 'anthropic', 'mcp'];

/** An OpenAI Chat Completions tool definition. */
export interface OpenAIToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}
/** A tool's input schema where the API requires an object schema (Anthropic's `input_schema`). */
export type ObjectSchema = { type: 'object'; [key: string]: unknown };
/** An Anthropic Messages API tool definition. */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: ObjectSchema;
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

/** The arguments schema as the APIs type it: an object schema (a tool's arguments are always an object). */
export function objectSchema(schema: JsonSchema | undefined): ObjectSchema {
  return { ...(schema ?? {}), type: 'object' };
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
  // Refuse rather than rename: a renamed tool would come back from the model under a name that
  // `run` and the runtime do not know.
  const bad = contracts.filter((c) => !NAME_RULES[format].pattern.test(c.id)).map((c) => c.id);
  if (bad.length)
    throw new ToolboxError(
      'name_not_allowed',
      `${bad.map((b) => `'${b}'`).join(', ')} cannot be used as ${format} tool name(s): ${format} allows ${NAME_RULES[format].allowed}`,
      {
        exitCode: ExitCode.usage,
        hint: `Rename the tool(s) (e.g. '${portableName(bad[0]!)}'), or use --format mcp. \`toolbox validate\` lists every such id (rule id-provider-name).`,
        details: { ids: bad, format },
      },
    );
  switch (format) {
    case 'openai':
      return contracts.map((c) => ({
        type: 'function' as const,
        function: { name: c.id, description: c.description, parameters: c.schema },
      }));
    case 'anthropic':
      return contracts.map((c) => ({ name: c.id, description: c.description, input_schema: objectSchema(c.schema) }));
    case 'mcp':
      return { tools: contracts.map((c) => mcpToolDefinition(c)) };
  }
}
