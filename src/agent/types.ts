// The provider wire shapes an agent loop hands to toolbox and gets back: the model's tool calls and
// the messages that answer them, as each API documents them. Plain structural types, so an SDK's own
// objects (openai, @anthropic-ai/sdk) fit them without conversion.
import type { JsonSchema } from '../contract/types.js';
import type { ObjectSchema } from '../select/definitions.js';
import type { Caller } from '../policy/permissions.js';
import type { ToolClient } from '../loaders/types.js';

/** Who calls, and for which conversation: the same for selecting tools and for running them. */
export interface AgentOptions {
  /** Permissions: tools this caller may not use are never offered, and refused if called. */
  caller?: Caller;
  /** Conversation id: earlier turns inform selection, and tools used stay loaded (see docs/select.md). */
  session?: string;
}

/** Options of the calls that select tools. */
export interface SelectForAgentOptions extends AgentOptions {
  /** At most how many tools (default: config `select.top`, else 5). */
  top?: number;
}

/** Options of the calls that run a tool. */
export interface RunForAgentOptions extends AgentOptions {
  signal?: AbortSignal;
  /** Overrides the contract's timeout. */
  timeoutMs?: number;
  /** Where a tool's progress and log messages go, and who answers its questions. */
  client?: ToolClient;
}

/** An OpenAI Chat Completions tool call: an item of `choices[0].message.tool_calls`. */
export interface OpenAIChatToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments: string };
}
/** A Chat Completions call of a custom (free-text) tool. toolbox tools are functions: it is answered with an error. */
export interface OpenAIChatCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}
/** The `role: "tool"` message that answers a Chat Completions tool call. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** An OpenAI Responses `function_call` output item. */
export interface OpenAIFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
}
/** The `function_call_output` input item that answers it. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** An OpenAI Responses `tool_search_call` output item of a client-executed `tool_search` tool. */
export interface OpenAIToolSearchCall {
  type: 'tool_search_call';
  call_id: string | null;
  /** What the model searches for; with toolSearchTool()'s parameters, `{ query }`. */
  arguments: unknown;
  execution?: 'client' | 'server';
  id?: string;
}

/** An Anthropic Messages `tool_use` content block. */
export interface AnthropicToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}
/** The `tool_result` content block that answers it (in the next `user` message). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  /** Set when the call failed: the content says why and what to do. */
  is_error?: true;
}

/**
 * An OpenAI Responses function tool definition (flat, unlike Chat Completions'). `strict: false`:
 * contract schemas are plain JSON Schema, not written for strict mode; toolbox validates every call.
 */
export interface OpenAIResponsesToolDefinition {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: false;
}

/** The search tool a model is given when tools are loaded on demand (see toolSearchTool). */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
  execution: 'client';
  description: string;
  parameters: JsonSchema;
}
/** Anthropic's custom search tool: an ordinary client tool whose results are `tool_reference` blocks. */
export interface AnthropicSearchTool {
  name: string;
  description: string;
  input_schema: ObjectSchema;
}

/**
 * A selected tool with its own `execute`, in the shape agent frameworks take (Vercel AI SDK `tool()`,
 * LangChain `tool()`, OpenAI Agents SDK `tool()`): the call goes through toolbox's pipeline.
 */
export interface ExecutableTool {
  /** The tool id (what the model calls it by). */
  name: string;
  description: string;
  /** The contract's JSON Schema of the arguments object. */
  inputSchema: ObjectSchema;
  /**
   * Runs the call (validation, permissions, sandbox, format) and resolves with the text for the model.
   * A call that fails for a reason the model can act on (bad arguments, the tool's own error, a limit,
   * a refusal) resolves with an `Error [code]: …` text instead of throwing; a bug in toolbox throws.
   */
  execute(input: unknown, options?: { signal?: AbortSignal; toolCallId?: string }): Promise<string>;
}
