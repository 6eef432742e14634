/**
 * toolbox as a library. The same pipeline as the CLI: `new Runtime(resolveProject({ cwd }))`, then
 * `invoke({ id, args })`. Everything here is safe to import: heavy modules load on first use.
 */
export { Runtime, type RuntimeOptions } from './runtime/runtime.js';
export type { InvokeRequest, InvokeResult } from './runtime/types.js';
export { ToolRunError } from './sandbox/tool-run-error.js';
export { resolveProject, loadConfig, type Project, type ProjectOptions, type ToolboxConfig } from './config.js';
export { loadRegistry, findTool, type Registry, type BrokenFile } from './registry/registry.js';
export { canUse, assertCanUse, callerRoles, type Caller } from './policy/permissions.js';
export { ToolboxError, ExitError, InternalError, ExitCode, type ExitCodeValue, type Location } from './errors.js';
export type {
  ToolContract,
  ToolEntry,
  JsonSchema,
  LoaderType,
  SandboxPolicy,
  ToolAnnotations,
  ToolIcon,
} from './contract/types.js';
export type {
  Loader,
  LoadedTool,
  LoadContext,
  CallContext,
  ToolOutput,
  ToolClient,
  LogLevel,
} from './loaders/types.js';
export type { ContentBlock } from './mcp/content.js';
export type { SandboxTier, SandboxInfo, ResolvedLimits, LimitHit } from './sandbox/types.js';
export { argsFromFlags } from './runtime/args.js';
export { formatResult, renderReadable, fillTemplate } from './runtime/format.js';
export { projectStats, type ToolStats } from './runtime/stats.js';
export type { CallRecord } from './runtime/call-log.js';
export { Breaker, type BreakerStatus, type BreakerState } from './runtime/breaker.js';
export {
  selectTools,
  openSelector,
  Selector,
  type Selection,
  type SelectedTool,
  type SelectOptions,
  type RankOptions,
  type WhyTerm,
} from './select/index.js';
export {
  toDefinitions,
  type DefinitionFormat,
  type DefinitionsByFormat,
  type OpenAIToolDefinition,
  type AnthropicToolDefinition,
  type ObjectSchema,
  type McpToolList,
} from './select/definitions.js';
export {
  toolReferenceResult,
  toolSearchOutput,
  deferredAnthropicTools,
  type AnthropicToolReferenceResult,
  type OpenAIToolSearchOutput,
} from './select/deferral.js';
export type { McpToolDefinition } from './contract/mcp-tool.js';
export { validateProject } from './lint/validate.js';
export {
  selectDefinitions,
  selectContracts,
  deferredCatalog,
  toolSearchTool,
  SEARCH_TOOL_NAME,
  type AgentDefinitionFormat,
  type AgentDefinitionsByFormat,
} from './agent/tools.js';
export { runToolCall, answerToolSearch, selectExecutableTools, toolErrorText } from './agent/calls.js';
export type {
  AgentOptions,
  SelectForAgentOptions,
  RunForAgentOptions,
  OpenAIChatToolCall,
  OpenAIChatCustomToolCall,
  OpenAIChatToolMessage,
  OpenAIFunctionCall,
  OpenAIFunctionCallOutput,
  OpenAIToolSearchCall,
  OpenAIResponsesToolDefinition,
  OpenAIToolSearchTool,
  AnthropicToolUse,
  AnthropicToolResult,
  AnthropicSearchTool,
  ExecutableTool,
} from './agent/types.js';
