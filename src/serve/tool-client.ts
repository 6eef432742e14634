import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { LOG_LEVELS, type LogLevel, type ToolClient } from '../loaders/types.js';

/** What serve needs from the SDK's request handler `extra` to talk back to the client during a call. */
interface RequestExtra {
  signal: AbortSignal;
  sendNotification(n: { method: string; params: Record<string, unknown> }): Promise<void>;
  sendRequest(r: { method: string; params: Record<string, unknown> }, schema: never, o?: object): Promise<unknown>;
}

/** One connection's logging level (logging/setLevel); unset means every level is sent. */
export class LogLevelState {
  level?: LogLevel;
  passes(level: LogLevel): boolean {
    return !this.level || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.level);
  }
}

/**
 * The MCP client as a running tool's caller: progress goes out as notifications/progress only
 * when the request carried a progressToken; log messages as notifications/message at or above
 * the level the client set; elicitation and sampling as requests to the client, refused with a
 * clear message when the client did not declare the capability. All are sent on the request's
 * own stream (related to the tools/call), so HTTP clients receive them without a GET stream.
 */
export function toolClient(
  server: Server,
  extra: RequestExtra,
  progressToken: string | number | undefined,
  logs: LogLevelState,
): ToolClient {
  const send = (method: string, params: Record<string, unknown>) =>
    extra.sendNotification({ method, params }).catch(() => undefined);
  return {
    ...(progressToken !== undefined
      ? { progress: (p) => send('notifications/progress', { progressToken, ...p }) }
      : {}),
    log: (m) => {
      return logs.passes(m.level) ? send('notifications/message', { ...m }) : undefined;
    },
    request: async (method, params) => {
      const caps = server.getClientCapabilities() ?? {};
      const elicit = method === 'elicitation/create';
      if (elicit ? !caps.elicitation : !caps.sampling) {
        throw new Error(`the MCP client does not support ${elicit ? 'elicitation' : 'sampling'}`);
      }
      const schema = (elicit ? ElicitResultSchema : CreateMessageResultSchema) as never;
      return extra.sendRequest({ method, params }, schema, { signal: extra.signal });
    },
  };
}
