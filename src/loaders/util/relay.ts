import type { SandboxProcess } from '../../sandbox/process-types.js';
import { LOG_LEVELS, type CallContext, type LogLevel } from '../types.js';
import type { RunnerReply } from './outcome.js';

const ASKABLE = new Set(['elicitation/create', 'sampling/createMessage']);

/**
 * Hand a running call's progress / log message to the caller, or put its question to the caller
 * and write the answer to the worker's stdin. Never throws: a question nobody can answer gets an
 * error answer, which the tool sees as an exception it may handle. Returns the notification in flight, if any,
 * for the caller to await before it hands over the call's result.
 */
export function relay(reply: RunnerReply, ctx: CallContext, proc: SandboxProcess): void | Promise<unknown> {
  const client = ctx.client;
  if (reply.notify) {
    const p = reply.notify.params ?? {};
    if (reply.notify.method === 'progress' && typeof p.progress === 'number') {
      return client?.progress?.({
        progress: p.progress,
        ...(typeof p.total === 'number' ? { total: p.total } : {}),
        ...(typeof p.message === 'string' ? { message: p.message } : {}),
      });
    } else if (reply.notify.method === 'log' && LOG_LEVELS.includes(p.level as LogLevel)) {
      return client?.log?.({
        level: p.level as LogLevel,
        data: p.data,
        ...(typeof p.logger === 'string' ? { logger: p.logger } : {}),
      });
    }
    return undefined;
  }
  const ask = reply.ask!;
  const answer = (a: { result?: unknown; error?: { message: string } }) => {
    proc.stdin.write(JSON.stringify({ answer: { rid: ask.rid, ...a } }) + '\n');
  };
  if (!ASKABLE.has(ask.method)) return answer({ error: { message: `unknown request '${ask.method}'` } });
  if (!client?.request) {
    return answer({
      error: {
        message: `${ask.method} needs an MCP client that supports it: call this tool through \`toolbox serve\``,
      },
    });
  }
  client.request(ask.method as 'elicitation/create', ask.params ?? {}).then(
    (result) => answer({ result }),
    (e: unknown) => answer({ error: { message: (e as Error)?.message ?? String(e) } }),
  );
}
