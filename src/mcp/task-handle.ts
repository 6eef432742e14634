// A 2026-07-28 server that makes a call a task (the io.modelcontextprotocol/tasks extension, SEP-2663)
// answers tools/call with `resultType: "task"` and the task's fields. The SDK client toolbox uses
// (@modelcontextprotocol/client 2.x) knows no such result type and fails the request; so, as the
// message arrives (depth-guard.ts's rewrite hook), the handle is carried to the caller inside an
// ordinary complete result, under a _meta key of toolbox's own, where task-call.ts picks it up.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** The _meta key a task handle travels under from the transport to task-call.ts. */
export const TASK_HANDLE_KEY = 'dev.toolbox/task-handle';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A response whose result is a task handle, as a complete (empty) result that carries it in _meta. */
export function liftTaskHandles(message: JSONRPCMessage): JSONRPCMessage {
  const m = message as { result?: unknown; method?: unknown };
  if (m.method !== undefined || !isObject(m.result) || m.result.resultType !== 'task') return message;
  const { resultType: _t, _meta, ...task } = m.result;
  const meta = isObject(_meta) ? _meta : {};
  return {
    ...message,
    result: { resultType: 'complete', content: [], _meta: { ...meta, [TASK_HANDLE_KEY]: task } },
  } as JSONRPCMessage;
}

/** The task handle a tools/call result carries (see above), or undefined. */
export function taskHandleOf(result: unknown): Record<string, unknown> | undefined {
  const meta = isObject(result) ? result._meta : undefined;
  const h = isObject(meta) ? meta[TASK_HANDLE_KEY] : undefined;
  return isObject(h) ? h : undefined;
}
