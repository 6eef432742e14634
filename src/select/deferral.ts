// What the providers' own tool-search hooks take, so that toolbox can be the client-side search
// behind them (tools are declared up front with `defer_loading: true`; a search returns which to load):
// - Anthropic Messages: the search tool's `tool_result` holds `tool_reference` blocks,
//   `{ "type": "tool_reference", "tool_name": "…" }`; the API expands each into the deferred tool's
//   definition.
// - OpenAI Responses (tool search with `execution: "client"`): a `tool_search_output` item,
//   `{ "type": "tool_search_output", "call_id", "execution": "client", "status": "completed",
//   "tools": [function definitions] }`, answering the model's `tool_search_call`.
import type { JsonSchema, ToolContract } from '../contract/types.js';
import { objectSchema, type AnthropicToolDefinition } from './definitions.js';

/** `toolbox select --format` values for the deferral hooks. */
export const DEFERRAL_FORMATS = ['tool-reference', 'tool-search-output'] as const;
export type DeferralFormat = (typeof DEFERRAL_FORMATS)[number];

/** An Anthropic `tool_result` block answering a custom tool-search tool call. */
export interface AnthropicToolReferenceResult {
  type: 'tool_result';
  tool_use_id: string;
  content: ({ type: 'tool_reference'; tool_name: string } | { type: 'text'; text: string })[];
}

/** An OpenAI Responses `tool_search_output` input item. */
export interface OpenAIToolSearchOutput {
  type: 'tool_search_output';
  call_id: string;
  execution: 'client';
  status: 'completed';
  tools: { type: 'function'; name: string; description: string; parameters: JsonSchema; strict: false }[];
}

/** The Anthropic answer to a search: one `tool_reference` per selected tool (a text block when none matched). */
export function toolReferenceResult(ids: readonly string[], toolUseId = ''): AnthropicToolReferenceResult {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: ids.length
      ? ids.map((id) => ({ type: 'tool_reference' as const, tool_name: id }))
      : [{ type: 'text', text: 'No tool matches this search.' }],
  };
}

/** The OpenAI answer to a client-executed `tool_search_call`: the selected tools' definitions. */
export function toolSearchOutput(contracts: readonly ToolContract[], callId = ''): OpenAIToolSearchOutput {
  return {
    type: 'tool_search_output',
    call_id: callId,
    execution: 'client',
    status: 'completed',
    // strict: false (the API's FunctionTool asks for a value): contract schemas are plain JSON Schema,
    // not written for strict mode, and toolbox validates every call's arguments against them anyway.
    tools: contracts.map((c) => ({
      type: 'function',
      name: c.id,
      description: c.description,
      parameters: c.schema,
      strict: false,
    })),
  };
}

/** Anthropic definitions marked `defer_loading: true` (the catalog a `tool_reference` points into). */
export function deferredAnthropicTools(
  contracts: readonly ToolContract[],
): (AnthropicToolDefinition & { defer_loading: true })[] {
  return contracts.map((c) => ({
    name: c.id,
    description: c.description,
    input_schema: objectSchema(c.schema),
    defer_loading: true as const,
  }));
}
