// Questions a running tool puts to a 2026-07-28 client (elicitation, sampling, roots) travel as
// input-required results (MCP's multi round-trip requests): the call's response asks, and the
// client retries the same call with its answers (`inputResponses`) and the `requestState` it got.
//
// The call is not started again for each round when it can be helped: it waits, suspended, in this
// process, and the retry resumes it where it asked (the same call, no work repeated). The
// requestState carries every answer so far, so when the waiting call is gone (waited too long,
// timed out, the server restarted, or the retry reached another replica) the call is run again and
// each question the tool asks is answered from the state by its key: tools that ask before they
// act lose nothing.
import { randomBytes } from 'node:crypto';
import type { Question, ToolClient } from '../loaders/types.js';
import type { CallResult } from './results.js';
import { digest, mintState, spentState, STATE_TTL_MS, verifyState } from './request-state.js';
import type { ServeStore } from './store.js';
import { missingCapability, notifications, type Notifier } from './tool-client.js';

/** How long a call waits, suspended, for the client to come back with its answers. */
export const DEFAULT_INPUT_WAIT_MS = 120_000;

/** One request (round) of a call: where its progress goes, what its client declared, when it is gone. */
export interface Round extends Notifier {
  signal: AbortSignal;
  caps: Record<string, unknown>;
}

/** A question waiting for its answer, with the key it is known by on the wire. */
export type Keyed = Question & { key: string };

/** An input-required result (MCP 2026-07-28 InputRequiredResult). */
export interface InputRequiredShape {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState: string;
}

export type Event =
  | { kind: 'done'; result: CallResult }
  | { kind: 'ask'; questions: Keyed[] }
  /** The tool said the rest may take long (or it ran past the grace): a task, if the call may be one. */
  | { kind: 'background' };

const SHORT: Record<Question['method'], string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Whether `answer` is a well-formed result for `q` (anything else is asked again). */
export function validAnswer(q: Question, answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return false;
  const a = answer as Record<string, unknown>;
  switch (q.method) {
    case 'elicitation/create':
      return (
        ['accept', 'decline', 'cancel'].includes(a.action as string) &&
        (a.content === undefined || (typeof a.content === 'object' && a.content !== null && !Array.isArray(a.content)))
      );
    case 'sampling/createMessage':
      return typeof a.content === 'object' && a.content !== null;
    case 'roots/list':
      return Array.isArray(a.roots);
  }
}

/**
 * One call of a tool for a 2026-07-28 client, across the requests (rounds) that answer its questions.
 */
export class Exchange {
  readonly id = randomBytes(16).toString('base64url');
  /** Rounds answered so far (the state of round r resumes round r). */
  round = 0;
  /** True once the call ended while nobody was attached, or was given up. */
  dead = false;
  readonly abort = new AbortController();
  /** The calls whose requestStates this one carries on (itself, and the call a state it ran from named). */
  readonly lineage = new Set<string>([this.id]);
  private attached?: Round;
  private waiting?: { questions: Keyed[]; resolve: (r: unknown[]) => void; reject: (e: Error) => void };
  private pending?: Event;
  private wake?: (e: Event) => void;
  private timer?: NodeJS.Timeout;

  constructor(readonly answers: Record<string, unknown>) {}

  /** Start the call with this exchange's client; its end is an event like its questions. */
  start(run: (client: ToolClient, signal: AbortSignal) => Promise<CallResult>): void {
    let asked = 0;
    // Progress and log messages go to the round in progress; between rounds nobody is listening.
    const client: ToolClient = {
      progress: (p) => (this.attached ? notifications(this.attached).progress?.(p) : undefined),
      log: (m) => (this.attached ? notifications(this.attached).log?.(m) : undefined),
      // Keys the tool did not choose are numbered per run, so a run started again numbers them alike.
      ask: (questions) =>
        this.ask(questions.map((q) => ({ ...q, key: q.key ?? `${SHORT[q.method]}-${++asked}` }) as Keyed)),
      background: () => this.background(),
    };
    void run(client, this.abort.signal).then((result) => this.emit({ kind: 'done', result }));
  }

  /** A round arrives with answers: attach it, and let the tool go on if it has what it asked for. */
  attach(round: Round, answers: Record<string, unknown>): void {
    clearTimeout(this.timer);
    const same = this.attached === round;
    this.attached = round;
    Object.assign(this.answers, answers);
    // Closing the request is cancelling the call (2026-07-28 Streamable HTTP; stdio sends cancelled).
    const onAbort = () => {
      if (this.attached === round) this.cancel();
    };
    if (round.signal.aborted) onAbort();
    else if (!same) round.signal.addEventListener('abort', onAbort, { once: true });
    if (this.waiting) this.resumeOrAsk();
  }

  /** The tool may go on in the background (it said so, or ran past the grace): tell the round. */
  background(): void {
    if (!this.dead) this.emit({ kind: 'background' });
  }

  /** Whether the tool is waiting for answers now. */
  get isWaiting(): boolean {
    return this.waiting !== undefined;
  }

  /** The next thing the round answers with: the call's result, or its unanswered questions. */
  next(): Promise<Event> {
    if (this.pending) {
      const e = this.pending;
      this.pending = undefined;
      return Promise.resolve(e);
    }
    return new Promise((r) => (this.wake = r));
  }

  /** The round returned its questions: wait for the client for at most `waitMs`. */
  suspend(waitMs: number): void {
    this.attached = undefined;
    this.round++;
    this.timer = setTimeout(() => this.cancel(), waitMs);
    this.timer.unref();
  }

  /** Stop the call (client gone, or it waited too long). */
  cancel(): void {
    this.dead = true;
    clearTimeout(this.timer);
    this.abort.abort();
    this.waiting?.reject(new Error('the call was cancelled while it waited for the client'));
    this.waiting = undefined;
  }

  get isAttached(): boolean {
    return this.attached !== undefined;
  }

  private ask(questions: Keyed[]): Promise<unknown[]> {
    const missing = missingCapability(questions, this.attached?.caps);
    if (missing) return Promise.reject(new Error(missing));
    return new Promise((resolve, reject) => {
      this.waiting = { questions, resolve, reject };
      this.resumeOrAsk();
    });
  }

  private resumeOrAsk(): void {
    const w = this.waiting!;
    for (const q of w.questions)
      if (q.key in this.answers && !validAnswer(q, this.answers[q.key])) delete this.answers[q.key];
    const open = w.questions.filter((q) => !(q.key in this.answers));
    if (open.length) return this.emit({ kind: 'ask', questions: open });
    this.waiting = undefined;
    w.resolve(w.questions.map((q) => this.answers[q.key]));
  }

  private emit(e: Event): void {
    // A background signal nobody waits for is stale by the next round: drop it, keep the real events.
    if (e.kind === 'background' && !this.wake) return;
    if (e.kind === 'done' && !this.attached) {
      this.dead = true; // ended while suspended (its own timeout, or cancelled): nobody to tell
      clearTimeout(this.timer);
    }
    if (this.wake) {
      const w = this.wake;
      this.wake = undefined;
      w(e);
    } else this.pending = e;
  }
}

/** The suspended calls of this process, by id. */
export class Exchanges {
  private readonly live = new Map<string, Exchange>();

  /** A suspended call the round may resume, or undefined (start the call again). */
  take(id: string, round: number): Exchange | undefined {
    const ex = this.live.get(id);
    if (!ex || ex.dead || ex.isAttached || ex.round !== round) return undefined;
    return ex;
  }

  add(ex: Exchange): void {
    this.live.set(ex.id, ex);
  }

  remove(ex: Exchange): void {
    if (this.live.get(ex.id) === ex) this.live.delete(ex.id);
  }

  /** Calls waiting for a client now. */
  get size(): number {
    for (const [id, ex] of this.live) if (ex.dead) this.live.delete(id);
    return this.live.size;
  }

  /**
   * Serve one round of a call for a 2026-07-28 client: start it, or resume the suspended call its
   * requestState names (else start it again with the state's answers), and answer with its result
   * or with the questions still open as an input-required result.
   */
  async run(p: {
    /** The tool as called (search mode: call_tool) and its arguments, which the state is bound to. */
    tool: string;
    args: Record<string, unknown>;
    caller: string;
    state: unknown;
    responses: Record<string, unknown> | undefined;
    round: Round;
    secret: Buffer;
    waitMs: number;
    start: (client: ToolClient, signal: AbortSignal) => Promise<CallResult>;
    /** The call may become a task (contract mcp.task, client declares the extension): how. */
    task?: { afterMs: number; adopt: (ex: Exchange) => Promise<Record<string, unknown>> };
    /** Where spent states are remembered (the deployment's store: every replica refuses them). */
    store: ServeStore;
  }): Promise<CallResult | InputRequiredShape | Record<string, unknown>> {
    const args = digest(p.args);
    // Answers without a state (a client that answers up front, as SEP-2322 allows) are offered to
    // the call's questions by key: one the tool asks is answered, any other key is ignored, and a
    // question no answer matches is asked (re-requested), never failed. They answer nothing else: a
    // state is still needed to resume a waiting call, and a spent state is refused.
    const responses = p.responses;
    const state =
      p.state === undefined ? undefined : verifyState(p.secret, p.state, { tool: p.tool, args, caller: p.caller });
    if (state && (await p.store.get(spentKey(state.c))) !== undefined)
      throw spentState('its call has completed: a requestState answers one call once');
    const answers = { ...(state?.n ?? {}), ...(responses ?? {}) };
    let ex = state ? this.take(state.c, state.r) : undefined;
    if (ex) ex.attach(p.round, answers);
    else {
      ex = new Exchange(answers);
      if (state) ex.lineage.add(state.c);
      this.add(ex);
      ex.attach(p.round, {});
      ex.start(p.start);
    }
    let e: Event;
    for (;;) {
      // A call that may be a task becomes one when it runs past the grace without asking.
      const grace = p.task ? setTimeout(() => ex.background(), p.task.afterMs) : undefined;
      e = await ex.next();
      clearTimeout(grace);
      if (e.kind !== 'background') break;
      if (p.task) {
        this.remove(ex);
        await spend(p.store, ex); // the call goes on as a task: its states are done
        return p.task.adopt(ex);
      }
    }
    if (e.kind === 'done') {
      this.remove(ex);
      await spend(p.store, ex);
      return e.result;
    }
    ex.suspend(p.waitMs);
    return {
      resultType: 'input_required',
      inputRequests: Object.fromEntries(e.questions.map((q) => [q.key, { method: q.method, params: q.params }])),
      requestState: mintState(p.secret, { c: ex.id, r: ex.round, t: p.tool, a: args, p: p.caller, n: ex.answers }),
    };
  }

  /** Cancel every waiting call (server stopping). */
  cancelAll(): void {
    for (const ex of this.live.values()) ex.cancel();
    this.live.clear();
  }
}

const spentKey = (call: string) => `input:spent:${call}`;

/**
 * The call ended (or became a task): every requestState minted for it, or for the call it ran again
 * from, is spent, in the store every replica asks, for as long as any of them could still be valid.
 * A call that never asked minted none.
 */
async function spend(store: ServeStore, ex: Exchange): Promise<void> {
  if (ex.round === 0 && ex.lineage.size === 1) return;
  await Promise.all([...ex.lineage].map((c) => store.set(spentKey(c), 1, STATE_TTL_MS).catch(() => undefined)));
}
