// A tools/call made as an MCP task (2025-11-25, SEP-1686), for a tool whose server says it must be
// called so (`execution.taskSupport: required`, kept in the contract as `mcp.task`). The call is sent
// with `task: { ttl }`; the server answers at once with a task handle, and toolbox follows it with
// tasks/get (every `pollInterval` the server asks for, within bounds) until the task is done or wants
// input, then takes the result with tasks/result (which, for a task in `input_required`, also carries
// the server's questions: they reach the caller through the session's sinks as any 2025 request).
// Progress keeps the original request's progressToken for the task's life, so it is relayed as for a
// direct call. When the caller stops waiting (the call's timeout, SIGINT, serve's client cancelling),
// tasks/cancel is sent before the error goes up, so the server stops the work rather than finishing
// it for no one.
//
// The SDK client toolbox uses (@modelcontextprotocol/client 2.x) has no task runtime: the task
// methods are sent with `request()` and result checks of their own (2025-era wire vocabulary the
// SDK still lets through). 2026-07-28 removed tasks from the core protocol (SEP-2663 made them the
// io.modelcontextprotocol/tasks extension, with another wire shape); this file is the 2025 form only.
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { CallResultLike } from './result.js';
import type { McpSession } from './session.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';

/** Poll no faster than this, whatever the server asks (a 0 would be a busy loop). */
export const MIN_POLL_MS = 100;
/** Nor slower than this: the caller is waiting. */
export const MAX_POLL_MS = 5000;
/** Used when the server names no pollInterval. */
export const DEFAULT_POLL_MS = 500;
/** How long tasks/cancel may take when the call is given up (the session may be closed next). */
export const CANCEL_WAIT_MS = 2000;

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const TERMINAL = new Set<Status>(['completed', 'failed', 'cancelled']);
const STATUSES = new Set<string>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

interface TaskState {
  taskId: string;
  status: Status;
  statusMessage?: string;
  pollInterval?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A result check for request(): any object (the fields are read by the code that needs them). */
const anyObject: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1 as const,
    vendor: 'toolbox',
    validate: (v: unknown) => (isObject(v) ? { value: v } : { issues: [{ message: 'result must be an object' }] }),
  },
};

/** The task a CreateTaskResult (`{ task: {...} }`) or a GetTaskResult (the task's fields) describes. */
function taskOf(v: Record<string, unknown>, tool: string, what: string, s: McpSession): TaskState {
  const t = isObject(v.task) ? v.task : v;
  if (typeof t.taskId !== 'string' || !t.taskId || typeof t.status !== 'string' || !STATUSES.has(t.status)) {
    throw new ToolRunError({
      kind: 'failed',
      message: `MCP tool '${tool}': the server's ${what} does not describe a task (taskId, status)`,
      tier: s.tier,
    });
  }
  return {
    taskId: t.taskId,
    status: t.status as Status,
    ...(typeof t.statusMessage === 'string' ? { statusMessage: t.statusMessage } : {}),
    ...(typeof t.pollInterval === 'number' && Number.isFinite(t.pollInterval) ? { pollInterval: t.pollInterval } : {}),
  };
}

/** How long to wait before the next tasks/get: the server's pollInterval, within bounds, never past the deadline. */
export function pollDelay(pollInterval: number | undefined, deadline: number, now = Date.now()): number {
  const asked = pollInterval ?? DEFAULT_POLL_MS;
  return Math.max(0, Math.min(Math.max(MIN_POLL_MS, Math.min(MAX_POLL_MS, asked)), deadline - now));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What one task call was told by the server, for tests and --verbose. */
export interface TaskTrace {
  taskId?: string;
  polls: number;
  cancelSent: boolean;
}

/**
 * Call `params.name` as a task and return its CallToolResult. `signal` aborting (timeout, caller
 * gone) sends tasks/cancel for a task still running, then rejects with the signal's reason.
 */
export async function callAsTask(
  s: McpSession,
  params: Record<string, unknown>,
  signal: AbortSignal,
  deadline: number,
  trace: TaskTrace = { polls: 0, cancelSent: false },
): Promise<CallResultLike> {
  const tool = String(params.name);
  const left = () => Math.max(1, deadline - Date.now());
  // Kept a minute past the call's own deadline, so a late tasks/result still finds it.
  const ttl = left() + 60_000;
  const created = await s.withAuth(() =>
    s.client.request({ method: 'tools/call', params: { ...params, task: { ttl } } }, anyObject, {
      signal,
      timeout: left(),
    }),
  );
  if (!isObject(created.task)) {
    // A server may answer a task-augmented request with the plain result (it ran it at once).
    if (Array.isArray(created.content) || 'structuredContent' in created || 'isError' in created)
      return created as CallResultLike;
  }
  let task = taskOf(created, tool, 'answer to tools/call', s);
  trace.taskId = task.taskId;
  try {
    while (!TERMINAL.has(task.status) && task.status !== 'input_required') {
      await sleep(pollDelay(task.pollInterval, deadline), signal);
      const got = await s.client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, anyObject, {
        signal,
        timeout: left(),
      });
      trace.polls++;
      task = { ...taskOf(got, tool, 'answer to tasks/get', s), pollInterval: task.pollInterval };
      if (typeof got.pollInterval === 'number') task.pollInterval = got.pollInterval;
    }
    if (task.status === 'cancelled') {
      throw new ToolRunError({
        kind: 'failed',
        message: `MCP tool '${tool}': the server cancelled its task${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
        tier: s.tier,
      });
    }
    // completed, failed (its result or error), or input_required (the questions come on this request).
    const result = await s.client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, anyObject, {
      signal,
      timeout: left(),
    });
    task.status = 'completed';
    // The result names its task in _meta (related-task): that is the server's bookkeeping, not the tool's.
    if (isObject(result._meta)) {
      const { [RELATED_TASK]: _r, ...meta } = result._meta;
      if (Object.keys(meta).length) result._meta = meta;
      else delete result._meta;
    }
    return result as CallResultLike;
  } catch (e) {
    if (signal.aborted && !TERMINAL.has(task.status)) {
      trace.cancelSent = true;
      await s.client
        .request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, anyObject, { timeout: CANCEL_WAIT_MS })
        .catch(() => undefined);
    }
    throw e;
  }
}

/** The tasks extension of 2026-07-28 (SEP-2663): declared in a request's client capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What following a 2026-07-28 task needs from the call. */
export interface ModernTaskCall {
  tool: string;
  /** The request _meta (revision, client capabilities with the extension): sent on every tasks/* request. */
  meta: Record<string, unknown>;
  signal: AbortSignal;
  deadline: number;
  /** Put the task's questions (inputRequests) to the caller; resolves to the inputResponses. */
  answer(inputRequests: Record<string, unknown>, round: number): Promise<Record<string, unknown>>;
  trace?: TaskTrace;
}

/**
 * Follow a task a 2026-07-28 server made of a call (its handle from tools/call): tasks/get every
 * `pollIntervalMs` (within bounds) until it ends, its result inline; questions it shows
 * (`input_required`) go to the caller and back with tasks/update; a call given up sends tasks/cancel.
 */
export async function followModernTask(
  s: McpSession,
  handle: Record<string, unknown>,
  c: ModernTaskCall,
): Promise<CallResultLike> {
  const trace = c.trace ?? { polls: 0, cancelSent: false };
  const left = () => Math.max(1, c.deadline - Date.now());
  const check = (r: Record<string, unknown>, what: string) => {
    if (typeof r.taskId !== 'string' || !r.taskId || typeof r.status !== 'string' || !STATUSES.has(r.status)) {
      throw new ToolRunError({
        kind: 'failed',
        message: `MCP tool '${c.tool}': the server's ${what} does not describe a task (taskId, status)`,
        tier: s.tier,
      });
    }
    return r as Record<string, unknown> & { taskId: string; status: Status };
  };
  let task = check(handle, 'answer to tools/call');
  const taskId = task.taskId;
  trace.taskId = taskId;
  let poll = typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : undefined;
  let answered = '';
  let round = 0;
  try {
    for (;;) {
      if (task.status === 'completed') {
        if (!isObject(task.result))
          throw new ToolRunError({
            kind: 'failed',
            message: `MCP tool '${c.tool}': its task completed without a result`,
            tier: s.tier,
          });
        return task.result as CallResultLike;
      }
      if (task.status === 'failed' || task.status === 'cancelled') {
        const why =
          isObject(task.error) && typeof task.error.message === 'string' ? task.error.message : task.statusMessage;
        throw new ToolRunError({
          kind: 'failed',
          message: `MCP tool '${c.tool}': its task ${task.status === 'failed' ? 'failed' : 'was cancelled by the server'}${typeof why === 'string' && why ? `: ${why}` : ''}`,
          tier: s.tier,
        });
      }
      if (task.status === 'input_required' && isObject(task.inputRequests)) {
        // The same questions stay on the task until the answers are in: each set is answered once.
        const asked = JSON.stringify(Object.keys(task.inputRequests).sort());
        if (asked !== answered) {
          answered = asked;
          const inputResponses = await c.answer(task.inputRequests, ++round);
          await s.client.request(
            { method: 'tasks/update', params: { taskId, inputResponses, _meta: c.meta } },
            anyObject,
            { signal: c.signal, timeout: left() },
          );
        }
      }
      await sleep(pollDelay(poll, c.deadline), c.signal);
      const got = await s.client.request({ method: 'tasks/get', params: { taskId, _meta: c.meta } }, anyObject, {
        signal: c.signal,
        timeout: left(),
      });
      trace.polls++;
      task = check(got, 'answer to tasks/get');
      if (typeof got.pollIntervalMs === 'number') poll = got.pollIntervalMs;
    }
  } catch (e) {
    if (c.signal.aborted && !TERMINAL.has(task.status)) {
      trace.cancelSent = true;
      await s.client
        .request({ method: 'tasks/cancel', params: { taskId, _meta: c.meta } }, anyObject, { timeout: CANCEL_WAIT_MS })
        .catch(() => undefined);
    }
    throw e;
  }
}
