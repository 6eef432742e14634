import { performance } from 'node:perf_hooks';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import type { LoadedTool } from '../loaders/types.js';

interface Slot {
  tool: LoadedTool;
  key: string;
}

// Sessions remembered per process; past this the oldest session's pins are dropped.
const MAX_SESSIONS = 1000;

/**
 * Loaded tools of one Runtime: an LRU of `size` tools (Map order = recency). A tool used in a
 * session is pinned for that session and never evicted while pinned (a conversation keeps the
 * tools it started with); `warm` tools are pinned for the process. Concurrent first calls of the
 * same tool share one load. A tool whose contract file changed is disposed and loaded again.
 */
export class ToolCache {
  private readonly slots = new Map<string, Slot>();
  private readonly loading = new Map<string, Promise<Slot>>();
  private readonly pins = new Map<string, Set<string>>();
  private readonly warmIds = new Set<string>();

  constructor(
    private readonly project: Project,
    private readonly size: number,
    private readonly flags: { longRunning: boolean; verbose: boolean; env?: NodeJS.ProcessEnv },
  ) {}

  ids(): string[] {
    return [...this.slots.keys()];
  }

  /** The loaded tool (loading it, after its dependency check, on a miss). */
  async get(
    entry: ToolEntry,
    key: string,
    session?: string,
    opts: { warm?: boolean } = {},
  ): Promise<{ tool: LoadedTool; hit: boolean; loadMs: number }> {
    const id = entry.contract.id;
    if (session) this.pin(session, id);
    if (opts.warm) this.warmIds.add(id);
    const have = this.slots.get(id);
    if (have && have.key === key) {
      this.slots.delete(id);
      this.slots.set(id, have);
      return { tool: have.tool, hit: true, loadMs: 0 };
    }
    if (have) {
      this.slots.delete(id);
      void have.tool.dispose?.().catch(() => {});
    }
    const t0 = performance.now();
    let p = this.loading.get(id);
    if (!p) {
      p = this.load(entry, key).finally(() => this.loading.delete(id));
      this.loading.set(id, p);
    }
    const slot = await p;
    return { tool: slot.tool, hit: false, loadMs: performance.now() - t0 };
  }

  private async load(entry: ToolEntry, key: string): Promise<Slot> {
    const { assertDeps } = await import('../deps/assert.js');
    await assertDeps(this.project, entry, { env: this.flags.env });
    const { getLoader } = await import('../loaders/index.js');
    const loader = await getLoader(entry.contract.loader);
    const tool = await loader.load({
      project: this.project,
      entry,
      longRunning: this.flags.longRunning,
      verbose: this.flags.verbose,
    });
    const slot = { tool, key };
    this.slots.set(entry.contract.id, slot);
    this.evict();
    return slot;
  }

  private pinned(id: string): boolean {
    if (this.warmIds.has(id)) return true;
    for (const ids of this.pins.values()) if (ids.has(id)) return true;
    return false;
  }

  private evict(): void {
    for (const [id, slot] of this.slots) {
      if (this.slots.size <= this.size) return;
      if (this.pinned(id)) continue;
      this.slots.delete(id);
      void slot.tool.dispose?.().catch(() => {});
    }
  }

  private pin(session: string, id: string): void {
    let ids = this.pins.get(session);
    if (!ids) {
      if (this.pins.size >= MAX_SESSIONS) this.pins.delete(this.pins.keys().next().value!);
      ids = new Set();
      this.pins.set(session, ids);
    }
    ids.add(id);
  }

  unpin(session: string): void {
    this.pins.delete(session);
    this.evict();
  }

  /** Dispose every loaded tool. */
  async clear(): Promise<void> {
    const all = [...this.slots.values()];
    this.slots.clear();
    // One tool's failing dispose (even a synchronous throw) must not stop the others from being disposed.
    await Promise.allSettled(all.map(async (s) => s.tool.dispose?.()));
  }
}
