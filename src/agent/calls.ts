// What an agent loop does with the model's answer: run each tool call through the Runtime (the same
// pipeline as `toolbox run`) and hand back the message that answers it in the provider's shape, or
// answer a search with the tools toolbox selects.
import { ToolboxError } from '../errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { objectSchema } from '../select/definitions.js';
import { toolReferenceResult, toolSearchOutput, type AnthropicToolReferenceResult } from '../select/deferral.js';
import type { OpenAIToolSearchOutput } from '../select/deferral.js';
import { selectContracts } from './tools.js';
import type {
  AnthropicToolResult,
  AnthropicToolUse,
  ExecutableTool,
  OpenAIChatCustomToolCall,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIFunctionCall,
  OpenAIFunctionCallOutput,
  OpenAIToolSearchCall,
  RunForAgentOptions,
  SelectForAgentOptions,
} from './types.js';

/** The text a model gets for a failed call: what went wrong and what to do, with the stable code. */
export function toolErrorText(e: ToolboxError): string {
  return `Error [${e.code}]: ${e.message}${e.hint ? `\nHint: ${e.hint}` : ''}`;
}

// The arguments of an OpenAI call are a JSON string the model wrote; it may not parse.
function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new ToolboxError('invalid_args_json', `The arguments are not valid JSON: ${(e as Error).message}.`, {
      hint: 'Call the tool again with a JSON object that matches its parameters.',
    });
  }
}

/** Run one call; a failure the model can act on comes back as `{ ok: false }` with its text. */
async function invokeForModel(
  rt: Runtime,
  id: string,
  args: () => unknown,
  callId: string | undefined,
  opts: RunForAgentOptions,
): Promise<{ ok: boolean; text: string }> {
  try {
    const r = await rt.invoke({
      id,
      args: args(),
      callId,
      caller: opts.caller,
      session: opts.session,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
      client: opts.client,
    });
    return { ok: true, text: r.text };
  } catch (e) {
    // Cancelled by the caller: the loop is over, not a result to show the model.
    if (opts.signal?.aborted || !(e instanceof ToolboxError)) throw e;
    return { ok: false, text: toolErrorText(e) };
  }
}

/**
 * Run a tool call the model made and return the message that answers it, in the same API's shape:
 * - OpenAI Chat Completions `tool_calls[i]` → `{ role: 'tool', tool_call_id, content }`;
 * - OpenAI Responses `function_call` item → `{ type: 'function_call_output', call_id, output }`;
 * - Anthropic `tool_use` block → `{ type: 'tool_result', tool_use_id, content, is_error? }`.
 * The call goes through the Runtime's pipeline (permissions, argument validation, sandbox, limits,
 * format, call log). Failures the model can act on (unknown tool, arguments that fail the schema or
 * are not JSON, the tool's own error, a timeout or limit, a refusal) are answered with an
 * `Error [code]: …` text (Anthropic: `is_error: true`) instead of throwing; a cancelled call (the
 * `signal`) and bugs in toolbox throw.
 */
export function runToolCall(
  rt: Runtime,
  call: OpenAIChatToolCall | OpenAIChatCustomToolCall,
  opts?: RunForAgentOptions,
): Promise<OpenAIChatToolMessage>;
export function runToolCall(
  rt: Runtime,
  call: OpenAIFunctionCall,
  opts?: RunForAgentOptions,
): Promise<OpenAIFunctionCallOutput>;
export function runToolCall(
  rt: Runtime,
  call: AnthropicToolUse,
  opts?: RunForAgentOptions,
): Promise<AnthropicToolResult>;
export async function runToolCall(
  rt: Runtime,
  call: OpenAIChatToolCall | OpenAIChatCustomToolCall | OpenAIFunctionCall | AnthropicToolUse,
  opts: RunForAgentOptions = {},
): Promise<OpenAIChatToolMessage | OpenAIFunctionCallOutput | AnthropicToolResult> {
  if (call.type === 'custom') {
    const e = new ToolboxError('unknown_tool', `'${call.custom.name}' is not a function tool of this registry.`, {
      hint: 'Call one of the function tools you were given, with a JSON object of arguments.',
    });
    return { role: 'tool', tool_call_id: call.id, content: toolErrorText(e) };
  }
  if ('function' in call) {
    const r = await invokeForModel(
      rt,
      call.function.name,
      () => parseArguments(call.function.arguments),
      call.id,
      opts,
    );
    return { role: 'tool', tool_call_id: call.id, content: r.text };
  }
  if (call.type === 'function_call') {
    const r = await invokeForModel(rt, call.name, () => parseArguments(call.arguments), call.call_id, opts);
    return { type: 'function_call_output', call_id: call.call_id, output: r.text };
  }
  const r = await invokeForModel(rt, call.name, () => call.input ?? {}, call.id, opts);
  return { type: 'tool_result', tool_use_id: call.id, content: r.text, ...(r.ok ? {} : { is_error: true as const }) };
}

// The search words of a search call: `{ query }` as toolSearchTool declares it (a JSON string is read too).
function searchQuery(args: unknown): string {
  let a = args;
  if (typeof a === 'string') {
    try {
      a = JSON.parse(a);
    } catch {
      return a as string;
    }
  }
  const q = a && typeof a === 'object' ? (a as { query?: unknown }).query : undefined;
  return typeof q === 'string' ? q : '';
}

/**
 * Answer the model's search for tools with the tools toolbox selects (the same ranking as
 * `toolbox select`, for this caller):
 * - an OpenAI Responses `tool_search_call` (client-executed `tool_search`) → a `tool_search_output`
 *   item with the selected tools' definitions;
 * - an Anthropic `tool_use` of the search tool (toolSearchTool('anthropic')) → a `tool_result` of
 *   `tool_reference` blocks naming tools of deferredCatalog() (a text block when nothing matched).
 */
export function answerToolSearch(
  rt: Runtime,
  call: OpenAIToolSearchCall,
  opts?: SelectForAgentOptions,
): Promise<OpenAIToolSearchOutput>;
export function answerToolSearch(
  rt: Runtime,
  call: AnthropicToolUse,
  opts?: SelectForAgentOptions,
): Promise<AnthropicToolReferenceResult>;
export async function answerToolSearch(
  rt: Runtime,
  call: OpenAIToolSearchCall | AnthropicToolUse,
  opts: SelectForAgentOptions = {},
): Promise<OpenAIToolSearchOutput | AnthropicToolReferenceResult> {
  const query = searchQuery(call.type === 'tool_search_call' ? call.arguments : call.input);
  const found = query.trim() ? await selectContracts(rt, query, opts) : [];
  if (call.type === 'tool_search_call') return toolSearchOutput(found, call.call_id ?? '');
  return toolReferenceResult(
    found.map((c) => c.id),
    call.id,
  );
}

/**
 * The tools selected for the user's message, each with an `execute` that runs it through the
 * Runtime: what the Vercel AI SDK, LangChain.js and the OpenAI Agents SDK take as tools (wrap each in
 * the framework's own `tool()`).
 */
export async function selectExecutableTools(
  rt: Runtime,
  query: string,
  opts: SelectForAgentOptions & Omit<RunForAgentOptions, 'signal'> = {},
): Promise<ExecutableTool[]> {
  const contracts = await selectContracts(rt, query, opts);
  return contracts.map((c) => ({
    name: c.id,
    description: c.description,
    inputSchema: objectSchema(c.schema),
    execute: async (input, o) =>
      (await invokeForModel(rt, c.id, () => input ?? {}, o?.toolCallId, { ...opts, signal: o?.signal })).text,
  }));
}
