import type { SandboxProcess } from '../../sandbox/process-types.js';
import {
  INPUT_METHODS,
  LOG_LEVELS,
  type CallContext,
  type InputMethod,
  type LogLevel,
  type Question,
} from '../types.js';
import type { RunnerReply } from './outcome.js';

const MAX_QUESTIONS = 32;

/**
 * Hand a running call's progress / log message to the caller, or put its questions to the caller
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
    } else if (reply.notify.method === 'background') {
      client?.background?.();
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
  const batch = ask.questions !== undefined;
  const raw = ask.questions ?? [{ method: ask.method ?? '', params: ask.params, key: ask.key }];
  const bad = questionProblem(raw);
  if (bad) return answer({ error: { message: bad } });
  const questions = raw as Question[];
  const label = [...new Set(questions.map((q) => q.method))].join(', ');
  if (!client?.ask && !client?.request) {
    return answer({
      error: { message: `${label} needs an MCP client that supports it: call this tool through \`toolbox serve\`` },
    });
  }
  const asked = client.ask
    ? client.ask(questions)
    : Promise.all(questions.map((q) => client.request!(q.method, q.params)));
  asked.then(
    (results) => answer({ result: batch ? results : results[0] }),
    (e: unknown) => answer({ error: { message: (e as Error)?.message ?? String(e) } }),
  );
}

/** Why the runner's questions cannot be asked, or undefined when they are well formed. */
function questionProblem(qs: { method: string; params?: unknown; key?: unknown }[]): string | undefined {
  if (!Array.isArray(qs) || qs.length === 0) return 'ask needs at least one question';
  if (qs.length > MAX_QUESTIONS) return `at most ${MAX_QUESTIONS} questions can be asked at once`;
  const keys = new Set<string>();
  for (const q of qs) {
    if (!INPUT_METHODS.includes(q.method as InputMethod)) return `unknown request '${String(q.method)}'`;
    if (q.params !== undefined && (typeof q.params !== 'object' || q.params === null || Array.isArray(q.params)))
      return `${q.method}: params must be an object`;
    q.params ??= {};
    if (q.key !== undefined && q.key !== null) {
      if (typeof q.key !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(q.key))
        return `question key ${JSON.stringify(q.key)} must be 1-64 letters, digits, '_', '.', ':' or '-'`;
      if (keys.has(q.key)) return `question key '${q.key}' is used twice`;
      keys.add(q.key);
    } else delete q.key;
  }
  return undefined;
}
