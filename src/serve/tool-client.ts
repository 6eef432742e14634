import type { ServerContext } from '@modelcontextprotocol/server';
import { LOG_LEVELS, type InputMethod, type LogLevel, type Question, type ToolClient } from '../loaders/types.js';

/** The client capability each question needs. */
const CAPABILITY: Record<InputMethod, 'elicitation' | 'sampling' | 'roots'> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Why the client cannot be asked these questions, or undefined when it declared every capability needed. */
export function missingCapability(
  questions: Question[],
  caps: Record<string, unknown> | undefined,
): string | undefined {
  for (const q of questions) {
    const cap = CAPABILITY[q.method];
    if (!caps?.[cap]) return `the MCP client does not support ${cap}`;
  }
  return undefined;
}

/** Progress and log messages of a running call, sent on the request's own stream. */
export interface Notifier {
  /** The request's progressToken: progress goes out only when the client sent one. */
  progressToken?: string | number;
  /** Whether a log message at this level goes out (2025: the level the session set; 2026: the request's logLevel). */
  logs(level: LogLevel): boolean;
  notify(method: string, params: Record<string, unknown>): Promise<void>;
}

/** The progress and log half of a ToolClient: both eras send them on the request's own stream. */
export function notifications(n: Notifier): Pick<ToolClient, 'progress' | 'log'> {
  const send = (method: string, params: Record<string, unknown>) => n.notify(method, params).catch(() => undefined);
  return {
    ...(n.progressToken !== undefined
      ? { progress: (p) => send('notifications/progress', { progressToken: n.progressToken, ...p }) }
      : {}),
    log: (m) => (n.logs(m.level) ? send('notifications/message', { ...m }) : undefined),
  };
}

/** A request's logLevel (2026-07-28 `_meta`): messages at or above it go out; without it, none. */
export function levelFilter(level: unknown): (l: LogLevel) => boolean {
  const min = LOG_LEVELS.indexOf(level as LogLevel);
  return (l) => min >= 0 && LOG_LEVELS.indexOf(l) >= min;
}

/**
 * The 2025-11-25 client as a running tool's caller: questions go to the client as requests on the
 * call's own stream (so HTTP clients receive them without a GET stream), refused with a clear message
 * when the client did not declare the capability at initialize.
 */
export function pushClient(n: Notifier, ctx: ServerContext, caps: Record<string, unknown> | undefined): ToolClient {
  return {
    ...notifications(n),
    ask: (questions) => {
      const missing = missingCapability(questions, caps);
      if (missing) return Promise.reject(new Error(missing));
      return Promise.all(
        questions.map((q) =>
          ctx.mcpReq.send({ method: q.method, params: q.params } as never, { signal: ctx.mcpReq.signal }),
        ),
      );
    },
  };
}
