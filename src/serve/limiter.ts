import { ExitCode, ToolboxError } from '../errors.js';

/**
 * Caps the calls running at once and the calls waiting, so a flood of requests costs bounded
 * memory and processes. A slow or hung call holds one slot until its own timeout ends it; the
 * others keep flowing through the remaining slots. Waiters leave the queue when their request is
 * cancelled.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: { go: () => void; fail: (e: unknown) => void }[] = [];

  constructor(
    readonly maxActive: number,
    readonly maxQueued: number,
  ) {}

  get running(): number {
    return this.active;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Run `fn` when a slot is free. Throws server_busy (exit 5) when the queue is full. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.go();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (this.active < this.maxActive) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxQueued) {
      return Promise.reject(
        new ToolboxError('server_busy', `too many calls waiting (${this.maxQueued}); try again shortly`, {
          exitCode: ExitCode.limit,
        }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const w = {
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          this.active++;
          resolve();
        },
        fail: reject,
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(w);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new ToolboxError('cancelled', 'call cancelled while waiting', { exitCode: ExitCode.cancelled }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(w);
    });
  }
}
