// MCP tasks (the io.modelcontextprotocol/tasks extension of 2026-07-28) for calls that may outlast a
// client's timeout. A contract allows them (`mcp: { task: optional | required }`) and a client that
// declares the extension on its request gets one when the call goes to the background (the tool
// calls background(), or is still running a second in without asking anything): the response is a
// CreateTaskResult, and the client follows the call with tasks/get (the status, and once done the
// result inline), answers its questions with tasks/update, and may stop it with tasks/cancel.
//
// The task's record is in the ServeStore, written before the handle is returned, so any replica
// answers tasks/get; tasks/update and tasks/cancel travel on the store's pub/sub to the process
// running the call. Records and messages are sealed with the task id (sealed.ts): a writer to the
// store cannot read a task, replace its result, or answer or cancel it.
import { randomBytes } from 'node:crypto';
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { ERROR_META_KEY, type CallResult } from './results.js';
import type { Exchange, Keyed, Round } from './input-required.js';
import { getSealed, putSealed, seal, sealedKey, unseal } from './sealed.js';
import type { ServeStore } from './store.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a task can be read back after it was created. */
export const TASK_TTL_MS = 60 * 60_000;
/** How often a client is asked to poll. */
export const POLL_INTERVAL_MS = 500;
/** A call that may be a task becomes one when it runs this long without finishing or asking. */
export const TASK_GRACE_MS = 1000;

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface TaskRecord {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  /** Who created it (serve's caller): another caller cannot read or drive it. */
  caller: string;
}

type Message = { kind: 'input'; responses: Record<string, unknown> } | { kind: 'cancel' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isMessage = (m: unknown): m is Message =>
  isObject(m) && (m.kind === 'cancel' || (m.kind === 'input' && isObject(m.responses)));

const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** The shape tasks/get sends on: a record that passed its seal is still checked (a bug must not be served). */
const isTask = (v: unknown): v is TaskRecord =>
  isObject(v) &&
  typeof v.taskId === 'string' &&
  typeof v.status === 'string' &&
  STATUSES.has(v.status) &&
  typeof v.caller === 'string' &&
  typeof v.createdAt === 'string' &&
  typeof v.ttlMs === 'number';

/** Whether a request's client declared the tasks extension. */
export function declaresTasks(caps: Record<string, unknown>): boolean {
  const ext = caps.extensions as Record<string, unknown> | undefined;
  return typeof ext?.[TASKS_EXTENSION] === 'object' && ext[TASKS_EXTENSION] !== null;
}

/** The -32021 a client gets for a task method (or a task-only tool) without the extension declared. */
export function needsTasks(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`,
  );
}

const wire = (r: TaskRecord): Record<string, unknown> => {
  const { caller: _c, ...task } = r;
  return task;
};

export class Tasks {
  constructor(
    private readonly store: ServeStore,
    /** Said when a stored record or message fails its check (it is ignored). */
    private readonly forged: (kind: string) => void = () => undefined,
  ) {}

  /**
   * Turn a running call into a task: record it, follow its questions and its end, and return the
   * CreateTaskResult once tasks/get would find it.
   */
  async adopt(ex: Exchange, caps: Record<string, unknown>, caller: string): Promise<Record<string, unknown>> {
    const now = new Date().toISOString();
    const rec: TaskRecord = {
      taskId: randomBytes(16).toString('base64url'),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: TASK_TTL_MS,
      pollIntervalMs: POLL_INTERVAL_MS,
      caller,
    };
    // From now on the call answers to the task: no request stream, questions through tasks/update.
    const stop = new AbortController();
    const round: Round = { signal: stop.signal, caps, logs: () => false, notify: () => Promise.resolve() };
    ex.attach(round, {});
    await this.save(rec);
    const unsubscribe = this.store.subscribe(sealedKey('task', rec.taskId), (m) => {
      const msg = unseal('task-message', rec.taskId, (m as { sealed?: unknown } | null)?.sealed) as Message | undefined;
      if (!isMessage(msg)) return this.forged('task message');
      if (msg.kind === 'cancel') ex.cancel();
      else ex.attach(round, msg.responses);
      if (msg.kind === 'input' && !ex.isWaiting && rec.status === 'input_required')
        void this.set(rec, { status: 'working', inputRequests: undefined });
    });
    void this.follow(ex, rec).finally(unsubscribe);
    return { resultType: 'task', ...wire(rec) };
  }

  /** tasks/get: the task as it stands, its result inline once done. */
  async get(taskId: unknown, caller: string): Promise<Record<string, unknown>> {
    return { ...wire(await this.find(taskId, caller)) };
  }

  /** tasks/update: answers for the questions the task shows (others are ignored). */
  async update(taskId: unknown, responses: unknown, caller: string): Promise<Record<string, never>> {
    const rec = await this.find(taskId, caller);
    if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'tasks/update needs inputResponses: an object');
    const open = rec.inputRequests ?? {};
    const known = Object.fromEntries(Object.entries(responses).filter(([k]) => k in open));
    if (Object.keys(known).length) await this.send(rec.taskId, { kind: 'input', responses: known });
    return {};
  }

  /** tasks/cancel: ask the call to stop (it ends as cancelled unless it finished first). */
  async cancel(taskId: unknown, caller: string): Promise<Record<string, never>> {
    const rec = await this.find(taskId, caller);
    if (rec.status === 'working' || rec.status === 'input_required') await this.send(rec.taskId, { kind: 'cancel' });
    return {};
  }

  private async follow(ex: Exchange, rec: TaskRecord): Promise<void> {
    for (;;) {
      const e = await ex.next();
      if (e.kind === 'background') continue;
      if (e.kind === 'ask') {
        await this.set(rec, { status: 'input_required', inputRequests: requests(e.questions) });
        continue;
      }
      return this.finish(rec, e.result);
    }
  }

  private finish(rec: TaskRecord, result: CallResult): Promise<void> {
    const code = (result._meta as Record<string, { code?: string; message?: string }> | undefined)?.[ERROR_META_KEY];
    if (code?.code === 'cancelled') return this.set(rec, { status: 'cancelled', inputRequests: undefined });
    if (code?.code === 'internal_error' || code?.code === 'server_stopping')
      return this.set(rec, {
        status: 'failed',
        statusMessage: code.message,
        error: { code: ProtocolErrorCode.InternalError, message: code.message ?? 'internal error' },
        inputRequests: undefined,
      });
    // A tool that failed still completed the request: its isError result is the task's result.
    return this.set(rec, { status: 'completed', result: result as Record<string, unknown>, inputRequests: undefined });
  }

  private send(taskId: string, msg: Message): Promise<void> {
    return this.store.publish(sealedKey('task', taskId), { sealed: seal('task-message', taskId, msg) });
  }

  private async find(taskId: unknown, caller: string): Promise<TaskRecord> {
    const got = typeof taskId === 'string' ? await getSealed(this.store, 'task', taskId, isTask) : undefined;
    if (got?.found && got.forged) this.forged('task');
    const rec = got?.found && !got.forged && got.value.taskId === taskId ? got.value : undefined;
    if (!rec || rec.caller !== caller)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found (or expired)', {
        taskId,
      });
    return rec;
  }

  private async set(rec: TaskRecord, change: Partial<TaskRecord>): Promise<void> {
    Object.assign(rec, change, { lastUpdatedAt: new Date().toISOString() });
    for (const k of Object.keys(rec) as (keyof TaskRecord)[]) if (rec[k] === undefined) delete rec[k];
    await this.save(rec);
  }

  private save(rec: TaskRecord): Promise<void> {
    const left = Date.parse(rec.createdAt) + rec.ttlMs - Date.now();
    return putSealed(this.store, 'task', rec.taskId, rec, Math.max(1, left));
  }
}

const requests = (qs: Keyed[]) => Object.fromEntries(qs.map((q) => [q.key, { method: q.method, params: q.params }]));

/** Any params object (the handlers check their fields themselves, with the errors the extension names). */
const anyParams: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1 as const,
    vendor: 'toolbox',
    validate: (v: unknown) =>
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? { value: v as Record<string, unknown> }
        : { issues: [{ message: 'params must be an object' }] },
  },
};

/** tasks/get, tasks/update and tasks/cancel on a 2026-07-28 server instance. */
export function addTaskHandlers(
  server: Server,
  tasks: Tasks,
  caller: string,
  caps: (ctx: ServerContext) => Record<string, unknown>,
): void {
  const gate = (method: string, ctx: ServerContext) => {
    if (!declaresTasks(caps(ctx))) throw needsTasks(method);
  };
  server.setRequestHandler('tasks/get', { params: anyParams }, async (p, ctx) => {
    gate('tasks/get', ctx);
    return (await tasks.get(p.taskId, caller)) as never;
  });
  server.setRequestHandler('tasks/update', { params: anyParams }, async (p, ctx) => {
    gate('tasks/update', ctx);
    // The SDK lifts inputResponses out of the params, as it does for tools/call.
    return (await tasks.update(p.taskId, p.inputResponses ?? ctx.mcpReq.inputResponses, caller)) as never;
  });
  server.setRequestHandler('tasks/cancel', { params: anyParams }, async (p, ctx) => {
    gate('tasks/cancel', ctx);
    return (await tasks.cancel(p.taskId, caller)) as never;
  });
}
