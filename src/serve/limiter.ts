import { ExitCode, ToolboxError } from '../errors.js';

/** Who a call belongs to: its tool (per-tool cap) and its session (fair share of the queue). */
export interface LimiterKey {
  tool?: string;
  session?: string;
}

interface Waiter {
  key: LimiterKey;
  go: () => void;
  fail: (e: unknown) => void;
}

/**
 * Caps the calls running at once (globally, and per tool) and the calls waiting, so a flood costs
 * bounded memory and processes. A call waits without holding a slot; slots are handed out round
 * robin across sessions, and only to a call whose tool is under its own cap: twenty slow calls to
 * one tool occupy that tool's `perTool` slots, never the slots an unrelated tool needs, and one
 * session cannot starve the others. Waiters leave the queue when their request is cancelled.
 * Time spent waiting here is not part of a call's timeout (the runtime starts it after).
 */
export class Limiter {
  private active = 0;
  private readonly perToolActive = new Map<string, number>();
  private readonly bySession = new Map<string, Waiter[]>();
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

  /** Hand free slots out: sessions in turn (Map order, rotated after each grant), first eligible call of each. */
  private dispatch(): void {
    let granted = true;
    while (granted && this.active < this.maxActive && this.count > 0) {
      granted = false;
      for (const [session, queue] of this.bySession) {
        const i = queue.findIndex((w) => this.free(w.key));
        if (i < 0) continue;
        const [w] = queue.splice(i, 1);
        this.count--;
        this.bySession.delete(session);
        if (queue.length) this.bySession.set(session, queue); // to the back of the rotation
        w!.go();
        granted = true;
        break;
      }
    }
  }

  private acquire(key: LimiterKey, signal?: AbortSignal): Promise<void> {
    if (this.free(key) && this.count === 0) {
      this.take(key);
      return Promise.resolve();
    }
    if (this.count >= this.maxQueued) {
      return Promise.reject(
        new ToolboxError('server_busy', `too many calls waiting (${this.maxQueued}); try again shortly`, {
          exitCode: ExitCode.limit,
        }),
      );
    }
    const session = key.session ?? '';
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        key,
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          this.take(key);
          resolve();
        },
        fail: reject,
      };
      const onAbort = () => {
        const q = this.bySession.get(session);
        const i = q ? q.indexOf(w) : -1;
        if (i >= 0) {
          q!.splice(i, 1);
          this.count--;
          if (!q!.length) this.bySession.delete(session);
        }
        reject(new ToolboxError('cancelled', 'call cancelled while waiting', { exitCode: ExitCode.cancelled }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const q = this.bySession.get(session);
      if (q) q.push(w);
      else this.bySession.set(session, [w]);
      this.count++;
      this.dispatch();
    });
  }
}
