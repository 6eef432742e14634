import { createHash } from 'node:crypto';
import { CLIENT_CAPABILITIES, type McpQuestion, type McpSession } from '../../mcp/session.js';
import type { CallResultLike } from '../../mcp/result.js';
import { callAsTask, followModernTask, TASKS_EXTENSION } from '../../mcp/task-call.js';
import { taskHandleOf } from '../../mcp/task-handle.js';
import { ToolRunError } from '../../sandbox/tool-run-error.js';
import {
  INPUT_METHODS,
  LOG_LEVELS,
  type CallContext,
  type InputMethod,
  type LogLevel,
  type Question,
} from '../types.js';

/** Rounds of input-required results one call may take before toolbox gives up on the server. */
export const MAX_INPUT_ROUNDS = 10;

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/** Put questions to the tool's caller: batched when it can take a batch, one by one otherwise. */
function askerOf(cc: CallContext): ((qs: McpQuestion[]) => Promise<unknown[]>) | undefined {
  const c = cc.client;
  if (c?.ask) return (qs) => c.ask!(qs as Question[]);
  if (c?.request) return (qs) => Promise.all(qs.map((q) => c.request!(q.method, q.params)));
  return undefined;
}

/**
 * A question key the caller accepts (letters, digits, `_ . : -`, at most 64), stable across a call
 * run again: the round and the server's own key, hashed when that is not a valid key itself.
 */
function keyFor(round: number, key: string): string {
  const k = `mcp.r${round}.${key}`;
  return /^[A-Za-z0-9_.:-]{1,64}$/.test(k)
    ? k
    : `mcp.r${round}.${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

interface InputRequired {
  resultType: 'input_required';
  inputRequests?: Record<string, { method?: string; params?: Record<string, unknown> }>;
  requestState?: string;
}

/**
 * One tools/call, with everything the server sends on its way passed to the tool's caller: progress
 * (by the request's progressToken), log messages, and questions, which a 2025 server asks as requests
 * during the call (session.ts routes them here) and a 2026-07-28 server returns as an input-required
 * result: those are put to the caller together under keys of their own, and the call is sent again
 * with the answers (`inputResponses`, keyed as the server asked) and the server's `requestState`
 * unchanged, on a new request, until the server returns its result.
 */
export async function callWithCaller(
  s: McpSession,
  tool: string,
  args: Record<string, unknown>,
  cc: CallContext,
  signal: AbortSignal,
  deadline: number,
  inputSchema?: Record<string, unknown>,
  /** The contract's mcp.task: `required` calls a 2025-11-25 server's tool as a task (task-call.ts). */
  task?: 'forbidden' | 'optional' | 'required',
): Promise<CallResultLike> {
  const ask = askerOf(cc);
  const log = cc.client?.log;
  const progress = cc.client?.progress;
  const { progressToken, leave } = s.enter({
    ...(progress ? { progress: (p) => progress(p) } : {}),
    ...(log
      ? {
          log: (m) =>
            LOG_LEVELS.includes(m.level as LogLevel) ? log({ ...m, level: m.level as LogLevel }) : undefined,
        }
      : {}),
    ...(ask ? { ask } : {}),
  });
  try {
    // On 2026-07-28 each request says what this caller can answer, and asks for log messages only when
    // someone will read them (the SDK adds the protocol version and client info).
    // On 2026-07-28 every call declares the tasks extension (that revision lists no execution.taskSupport:
    // the server decides, and refuses a task-only tool to a client without it), and a task the server
    // makes of the call is followed to its end (task-call.ts).
    const modernTask = s.modern;
    const caps = {
      ...(ask ? CLIENT_CAPABILITIES : {}),
      ...(modernTask ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    };
    const taskMeta = { [PROTOCOL_VERSION_KEY]: s.protocolVersion, [CLIENT_CAPABILITIES_KEY]: caps };
    const meta = {
      ...(progress ? { progressToken } : {}),
      ...(s.modern ? { ...taskMeta, ...(log ? { [LOG_LEVEL_KEY]: 'debug' } : {}) } : {}),
    };
    if (task === 'required' && !s.modern) {
      const params = { name: tool, arguments: args, ...(Object.keys(meta).length ? { _meta: meta } : {}) };
      return await callAsTask(s, params, signal, deadline);
    }
    // Questions of a 2026-07-28 server (an input-required result, or a task's inputRequests) put to the
    // caller; the answers keyed as the server asked.
    const answerAll = async (inputRequests: Record<string, unknown>, round: number) => {
      const entries = Object.entries(inputRequests) as [
        string,
        { method?: string; params?: Record<string, unknown> },
      ][];
      const bad = entries.find(([, q]) => !INPUT_METHODS.includes(q?.method as InputMethod));
      if (bad) {
        throw new ToolRunError({
          kind: 'failed',
          message: `MCP tool '${tool}' asked for '${String(bad[1]?.method)}', which toolbox cannot answer`,
          tier: s.tier,
        });
      }
      if (!entries.length) return {};
      const label = [...new Set(entries.map(([, q]) => q.method))].join(', ');
      if (!ask) {
        throw new ToolRunError({
          kind: 'failed',
          message: `MCP tool '${tool}' asks for ${label}, which this caller cannot answer: call it through \`toolbox serve\` from an MCP client that supports it`,
          tier: s.tier,
        });
      }
      const questions: McpQuestion[] = entries.map(([key, q]) => ({
        method: q.method as InputMethod,
        params: q.params ?? {},
        key: keyFor(round, key),
      }));
      const answers = await ask(questions).catch((e: unknown) => {
        throw new ToolRunError({
          kind: 'failed',
          message: `MCP tool '${tool}' asked for ${label}: ${(e as Error)?.message ?? String(e)}`,
          tier: s.tier,
        });
      });
      return Object.fromEntries(entries.map(([k], i) => [k, answers[i]]));
    };
    let extra: Record<string, unknown> = {};
    for (let round = 1; ; round++) {
      const params = { name: tool, arguments: args, ...extra, ...(Object.keys(meta).length ? { _meta: meta } : {}) };
      const send = () =>
        s.client.callTool(params, {
          signal,
          timeout: Math.max(1, deadline - Date.now()),
          allowInputRequired: true,
          // The tool's schema as the contract has it (the server's, kept by import): on 2026-07-28 over
          // HTTP the SDK mirrors the parameters marked x-mcp-header into Mcp-Param-* headers from it.
          ...(inputSchema ? { toolDefinition: { name: tool, inputSchema: inputSchema as never } } : {}),
        });
      // Sent again when the server wanted more scope and the person authorized it meanwhile.
      const r = (await s.withAuth(send)) as unknown as CallResultLike | InputRequired;
      const handle = modernTask ? taskHandleOf(r) : undefined;
      if (handle)
        return await followModernTask(s, handle, {
          tool,
          meta: taskMeta,
          signal,
          deadline,
          answer: (q, n) => answerAll(q, round + n),
        });
      if ((r as InputRequired).resultType !== 'input_required') return r as CallResultLike;
      const ir = r as InputRequired;
      if (round > MAX_INPUT_ROUNDS) {
        throw new ToolRunError({
          kind: 'failed',
          message: `MCP tool '${tool}' still asked for input after ${MAX_INPUT_ROUNDS} rounds of answers`,
          tier: s.tier,
        });
      }
      const entries = Object.entries(ir.inputRequests ?? {});
      const responses = await answerAll(ir.inputRequests ?? {}, round);
      extra = {
        ...(entries.length ? { inputResponses: responses } : {}),
        ...(ir.requestState !== undefined ? { requestState: ir.requestState } : {}),
      };
    }
  } finally {
    // A notification sent just before the result is dispatched a moment after it: let it arrive.
    await new Promise((r) => setImmediate(r));
    leave();
  }
}
