import { ExitCode, ToolboxError } from '../errors.js';

/**
 * Who a call belongs to: its tool (per-tool cap) and its client (fair share of the slots and the
 * queue): an MCP session, or whatever else names one client (a stateless client's identity).
 */
export interface LimiterKey {
  tool?: string;
  client?: string;
}

interface Waiter {
  key: LimiterKey;
  go: () => void;
  fail: (e: unknown) => void;
  /** Take the waiter out of the queue (a cancelled or dropped call). */
  leave: () => void;
}

/**
 * Caps the calls running at once (globally, and per tool) and the calls waiting, so a flood costs
 * bounded memory and processes. A call waits without holding a slot; slots are handed out round
 * robin across clients, and only to a call whose tool is under its own cap: twenty slow calls to
 * one tool occupy that tool's `perTool` slots, never the slots an unrelated tool needs, and one
 * client cannot starve the others. The queue is shared the same way: when it is full, a call of a
 * client with fewer calls waiting than the longest queue takes the place of that queue's newest
 * call (which fails with server_busy), so one client can fill the queue only while nobody else
 * wants it, and every client waiting gets an equal share. Waiters leave the queue when their
 * request is cancelled. Time spent waiting here is not part of a call's timeout (the runtime
 * starts it after).
 */
export class Limiter {
  private active = 0;
  private readonly perToolActive = new Map<string, number>();
  private readonly byClient = new Map<string, Waiter[]>();
  private count = 0;

  constructor(
    readonly maxActive: number,
    readonly maxQueued: number,
    readonly perTool: number = maxActive,
  ) {}

  get running(): number {
    return this.active;
  }
  get queued(): number {
    return this.count;
  }

  /** Run `fn` when a slot is free. Throws server_busy (exit 5) when the queue is full. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal, key: LimiterKey = {}): Promise<T> {
    await this.acquire(key, signal);
    try {
      return await fn();
    } finally {
      this.active--;
      if (key.tool !== undefined) this.perToolActive.set(key.tool, (this.perToolActive.get(key.tool) ?? 1) - 1);
      this.dispatch();
    }
  }

  private free(key: LimiterKey): boolean {
    return (
      this.active < this.maxActive && (key.tool === undefined || (this.perToolActive.get(key.tool) ?? 0) < this.perTool)
    );
  }

  private take(key: LimiterKey): void {
    this.active++;
    if (key.tool !== undefined) this.perToolActive.set(key.tool, (this.perToolActive.get(key.tool) ?? 0) + 1);
  }

  /** Hand free slots out: clients in turn (Map order, rotated after each grant), first eligible call of each. */
  private dispatch(): void {
    let granted = true;
    while (granted && this.active < this.maxActive && this.count > 0) {
      granted = false;
      for (const [client, queue] of this.byClient) {
        const i = queue.findIndex((w) => this.free(w.key));
        if (i < 0) continue;
        const [w] = queue.splice(i, 1);
        this.count--;
        this.byClient.delete(client);
        if (queue.length) this.byClient.set(client, queue); // to the back of the rotation
        w!.go();
        granted = true;
        break;
      }
    }
  }

  /**
   * The queue is full and `client` wants a place: the longest queue of another client, when it is
   * longer than this client's own would become, gives up its newest call. False when none can.
   */
  private makeRoom(client: string): boolean {
    const own = this.byClient.get(client)?.length ?? 0;
    let longest: Waiter[] | undefined;
    for (const [c, q] of this.byClient) if (c !== client && (!longest || q.length > longest.length)) longest = q;
    if (!longest || longest.length <= own + 1) return false;
    const victim = longest[longest.length - 1]!;
    victim.leave();
    victim.fail(busy(this.maxQueued, 'another client needs its share of the queue'));
    return true;
  }

  private acquire(key: LimiterKey, signal?: AbortSignal): Promise<void> {
    if (this.free(key) && this.count === 0) {
      this.take(key);
      return Promise.resolve();
    }
    const client = key.client ?? '';
    if (this.count >= this.maxQueued && !this.makeRoom(client)) return Promise.reject(busy(this.maxQueued));
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        key,
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          this.take(key);
          resolve();
        },
        fail: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
        leave: () => {
          const q = this.byClient.get(client);
          const i = q ? q.indexOf(w) : -1;
          if (i < 0) return;
          q!.splice(i, 1);
          this.count--;
          if (!q!.length) this.byClient.delete(client);
        },
      };
      const onAbort = () => {
        w.leave();
        reject(new ToolboxError('cancelled', 'call cancelled while waiting', { exitCode: ExitCode.cancelled }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const q = this.byClient.get(client);
      if (q) q.push(w);
      else this.byClient.set(client, [w]);
      this.count++;
      this.dispatch();
    });
  }
}

function busy(maxQueued: number, why = `too many calls waiting (${maxQueued})`): ToolboxError {
  return new ToolboxError('server_busy', `${why}; try again shortly`, { exitCode: ExitCode.limit });
}
