// What an agent loop shows the model: the tools selected for the user's message, in the provider's
// format (selectDefinitions), the whole catalog marked for deferred loading (deferredCatalog), and
// the search tool a model calls to load more (toolSearchTool).
import type { ToolContract } from '../contract/types.js';
import { canUse } from '../policy/permissions.js';
import { loadRegistry } from '../registry/registry.js';
import type { Runtime } from '../runtime/runtime.js';
import { deferredAnthropicTools } from '../select/deferral.js';
import { toDefinitions, type DefinitionsByFormat } from '../select/definitions.js';
import { selectTools } from '../select/index.js';
import type {
  AgentOptions,
  AnthropicSearchTool,
  OpenAIResponsesToolDefinition,
  OpenAIToolSearchTool,
  SelectForAgentOptions,
} from './types.js';

/** Formats selectDefinitions returns: those of `toolbox select --format`, plus the Responses API's. */
export interface AgentDefinitionsByFormat extends DefinitionsByFormat {
  'openai-responses': OpenAIResponsesToolDefinition[];
}
export type AgentDefinitionFormat = keyof AgentDefinitionsByFormat;

/** The contracts of the tools selected for `query` (the same ranking as `toolbox select`). */
export async function selectContracts(
  rt: Runtime,
  query: string,
  opts: SelectForAgentOptions = {},
): Promise<ToolContract[]> {
  const sel = await selectTools(rt.project, query, { top: opts.top, caller: opts.caller, session: opts.session });
  return sel.results.map((r) => r.entry.contract);
}

/**
 * The tools selected for the user's message, as definitions ready for the provider's request:
 * `openai` (Chat Completions `tools`), `openai-responses` (Responses `tools`), `anthropic`
 * (Messages `tools`) or `mcp` (a `tools/list` result). The names are the tool ids, which is what
 * runToolCall expects back. A message that matches nothing (small talk) gets an empty list.
 */
export async function selectDefinitions<F extends AgentDefinitionFormat>(
  rt: Runtime,
  query: string,
  format: F,
  opts?: SelectForAgentOptions,
): Promise<AgentDefinitionsByFormat[F]>;
export async function selectDefinitions(
  rt: Runtime,
  query: string,
  format: AgentDefinitionFormat,
  opts: SelectForAgentOptions = {},
): Promise<AgentDefinitionsByFormat[AgentDefinitionFormat]> {
  const contracts = await selectContracts(rt, query, opts);
  if (format !== 'openai-responses') return toDefinitions(contracts, format);
  // The Responses API's function tool is flat; strict: false as in toolSearchOutput (select/deferral.ts).
  return toDefinitions(contracts, 'openai').map((d) => ({
    type: 'function' as const,
    ...d.function,
    strict: false as const,
  }));
}

/**
 * Every tool the caller may use, as Anthropic definitions with `defer_loading: true`: the catalog a
 * search's `tool_reference` blocks point into. The API keeps deferred tools out of the prompt until
 * a search returns them, so a large registry costs only the search tool up front.
 */
export function deferredCatalog(rt: Runtime, opts: AgentOptions = {}): ReturnType<typeof deferredAnthropicTools> {
  const reg = loadRegistry(rt.project);
  const mine = reg.entries
    .map((e) => e.contract)
    .filter((c) => canUse(c, opts.caller ?? {}, rt.project.config))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return deferredAnthropicTools(toDefinitionsChecked(mine));
}

// The same name check as toDefinitions (a tool id the API would refuse is an error, not a rename).
function toDefinitionsChecked(contracts: ToolContract[]): ToolContract[] {
  toDefinitions(contracts, 'anthropic');
  return contracts;
}

const SEARCH_DESCRIPTION =
  'Search the tool library for tools that can help with a task, and load them. ' +
  'Describe the task in a few words (any language), e.g. "convert miles to kilometres" or "查询天气".';
const SEARCH_SCHEMA = {
  type: 'object' as const,
  properties: { query: { type: 'string', description: 'What the tool should do, in a few words.' } },
  required: ['query'],
  additionalProperties: false,
};
/** The name of the Anthropic search tool (the same as `toolbox serve`'s). */
export const SEARCH_TOOL_NAME = 'search_tools';

/** The search tool to declare when the model loads tools on demand. */
export function toolSearchTool(format: 'openai-responses'): OpenAIToolSearchTool;
export function toolSearchTool(format: 'anthropic'): AnthropicSearchTool;
export function toolSearchTool(format: 'openai-responses' | 'anthropic'): OpenAIToolSearchTool | AnthropicSearchTool {
  return format === 'anthropic'
    ? { name: SEARCH_TOOL_NAME, description: SEARCH_DESCRIPTION, input_schema: SEARCH_SCHEMA }
    : { type: 'tool_search', execution: 'client', description: SEARCH_DESCRIPTION, parameters: SEARCH_SCHEMA };
}
