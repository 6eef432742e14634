import type { Client } from '@modelcontextprotocol/client';

/** One question of a server for whoever called the tool (MCP's server-to-client requests). */
export interface McpQuestion {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Record<string, unknown>;
  /** The name the answer travels under when the caller is a 2026-07-28 client (stable per call). */
  key?: string;
}

/** Where one call's log messages and questions go (the loader builds it from the tool's caller). */
export interface CallSink {
  progress?(p: { progress: number; total?: number; message?: string }): unknown;
  log?(m: { level: string; data: unknown; logger?: string }): unknown;
  ask?(questions: McpQuestion[]): Promise<unknown[]>;
}

/** The calls in flight on one connection, and the handlers that route the server's messages to them. */
export interface Sinks {
  /** A call in flight: its progressToken (send it in the request's `_meta`), and `leave` for when it is done. */
  enter(sink: CallSink): { progressToken: string; leave(): void };
}

const LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/**
 * Route a 2025 server's questions and log messages to the call they belong to. The protocol does not
 * say which call a server request or a log message is about, so they go to the one call in flight on
 * this connection; while several calls share it, a question is refused (the server sees an error)
 * and a log message is dropped rather than shown to a caller it may not be meant for. roots/list with
 * no call in flight (a server asking at start) gets an empty list: the sandboxed server sees none of
 * the caller's folders anyway. Progress needs none of this: it names the request's progressToken,
 * which toolbox chooses (not the SDK's per-request one, whose handler is gone when the last
 * notification, sent just before the result, is dispatched).
 */
export function attachSinks(client: Client): Sinks {
  const live = new Set<CallSink>();
  const byToken = new Map<string, CallSink>();
  let next = 0;
  const only = () => (live.size === 1 ? [...live][0] : undefined);
  const ask = async (method: McpQuestion['method'], params: Record<string, unknown>): Promise<never> => {
    if (method === 'roots/list' && live.size === 0) return { roots: [] } as never;
    const sink = only();
    if (!sink) {
      throw new Error(
        live.size
          ? `toolbox cannot tell which of ${live.size} calls in flight this ${method} is for`
          : `${method} outside a tool call: toolbox has no one to ask`,
      );
    }
    if (!sink.ask) throw new Error(`the caller of this tool cannot answer ${method}`);
    const [answer] = await sink.ask([{ method, params }]);
    return answer as never;
  };
  const strip = (p: unknown) => {
    const { _meta: _m, ...rest } = (p ?? {}) as Record<string, unknown>;
    return rest;
  };
  client.setRequestHandler('elicitation/create', (req) => ask('elicitation/create', strip(req.params)));
  client.setRequestHandler('sampling/createMessage', (req) => ask('sampling/createMessage', strip(req.params)));
  client.setRequestHandler('roots/list', (req) => ask('roots/list', strip(req.params)));
  client.setNotificationHandler('notifications/message', (n) => {
    const p = n.params as { level?: string; data?: unknown; logger?: string };
    const sink = only();
    if (!sink?.log || !LEVELS.has(p.level ?? '')) return;
    void Promise.resolve(
      sink.log({ level: p.level!, data: p.data, ...(typeof p.logger === 'string' ? { logger: p.logger } : {}) }),
    ).catch(() => undefined);
  });
  client.setNotificationHandler('notifications/progress', (n) => {
    const p = n.params as { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown };
    const sink = byToken.get(String(p.progressToken));
    if (!sink?.progress || typeof p.progress !== 'number') return;
    void Promise.resolve(
      sink.progress({
        progress: p.progress,
        ...(typeof p.total === 'number' ? { total: p.total } : {}),
        ...(typeof p.message === 'string' ? { message: p.message } : {}),
      }),
    ).catch(() => undefined);
  });
  return {
    enter(sink) {
      const progressToken = `toolbox-${++next}`;
      live.add(sink);
      byToken.set(progressToken, sink);
      return {
        progressToken,
        leave: () => {
          live.delete(sink);
          byToken.delete(progressToken);
        },
      };
    },
  };
}
