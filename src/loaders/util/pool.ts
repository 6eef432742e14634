// A bounded pool of warm workers for one tool: up to `size` calls of the tool run at once, each on
// its own worker; more wait here (in order). Workers start lazily, so an idle tool holds one.
import type { CallContext, ToolOutput } from '../types.js';
import type { Worker } from './worker.js';

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly waiting: ((w: Worker) => void)[] = [];

  constructor(
    private readonly size: number,
    private readonly make: () => Worker,
  ) {}

  /** Processes started over the pool's life (for tests and stats). */
  get starts(): number {
    return this.all.reduce((n, w) => n + w.starts, 0);
  }

  async call(args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutput> {
    const w = await this.acquire();
    try {
      return await w.call(args, ctx);
    } finally {
      const next = this.waiting.shift();
      if (next) next(w);
      else this.idle.push(w);
    }
  }

  private acquire(): Promise<Worker> {
    const w = this.idle.pop();
    if (w) return Promise.resolve(w);
    if (this.all.length < this.size) {
      const made = this.make();
      this.all.push(made);
      return Promise.resolve(made);
    }
    return new Promise((r) => this.waiting.push(r));
  }

  async dispose(): Promise<void> {
    await Promise.all(this.all.map((w) => w.dispose()));
  }
}
