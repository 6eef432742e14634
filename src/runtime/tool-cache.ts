import { performance } from 'node:perf_hooks';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import type { LoadedTool } from '../loaders/types.js';

interface Slot {
  tool: LoadedTool;
  key: string;
  /** Calls running on this tool now. */
  inflight: number;
  /** Replaced or evicted: disposed when its last running call ends. */
  retired?: boolean;
}

// Sessions remembered per process; past this the oldest session's pins are dropped.
const MAX_SESSIONS = 1000;

/**
 * Loaded tools of one Runtime: an LRU of `size` tools (Map order = recency). A tool used in a
 * session is pinned for that session and never evicted while pinned (a conversation keeps the
 * tools it started with); `warm` tools are pinned for the process. Concurrent first calls of the
 * same tool share one load. A tool whose key changed (its contract file, or in long-running
 * processes its code: src/lock/tool-files.ts) is loaded again; the old one is disposed once the
 * calls still running on it have ended, so an edit never cuts a call short.
 */
export class ToolCache {
  private readonly slots = new Map<string, Slot>();
  private readonly loading = new Map<string, { key: string; promise: Promise<Slot> }>();
  private readonly pins = new Map<string, Set<string>>();
  private readonly warmIds = new Set<string>();
  private readonly retiring = new Set<Slot>();

  constructor(
    private readonly project: Project,
    private readonly size: number,
    private readonly flags: { longRunning: boolean; verbose: boolean; env?: NodeJS.ProcessEnv },
  ) {}

  ids(): string[] {
    return [...this.slots.keys()];
  }

  /**
   * The loaded tool (loading it, after its dependency check, on a miss), counted as in use until
   * the caller calls `done()`.
   */
  async get(
    entry: ToolEntry,
    key: string,
    session?: string,
    opts: { warm?: boolean } = {},
  ): Promise<{ tool: LoadedTool; hit: boolean; loadMs: number; done: () => void }> {
    const id = entry.contract.id;
    if (session) this.pin(session, id);
    if (opts.warm) this.warmIds.add(id);
    const have = this.slots.get(id);
    if (have && have.key === key) {
      this.slots.delete(id);
      this.slots.set(id, have);
      return { tool: have.tool, hit: true, loadMs: 0, done: this.use(have) };
    }
    if (have) {
      this.slots.delete(id);
      this.retire(have);
    }
    const t0 = performance.now();
    // A load under another key (the code changed again meanwhile) is not shared: this call waits for its own.
    let p = this.loading.get(id);
    if (!p || p.key !== key) {
      const started = this.load(entry, key).finally(() => {
        if (this.loading.get(id)?.promise === started) this.loading.delete(id);
      });
      p = { key, promise: started };
      this.loading.set(id, p);
    }
    const slot = await p.promise;
    return { tool: slot.tool, hit: false, loadMs: performance.now() - t0, done: this.use(slot) };
  }

  private use(slot: Slot): () => void {
    slot.inflight++;
    let once = false;
    return () => {
      if (once) return;
      once = true;
      slot.inflight--;
      if (slot.retired && slot.inflight === 0) this.dispose(slot);
    };
  }

  /** Dispose now, or when the calls running on it end. */
  private retire(slot: Slot): void {
    if (slot.retired) return;
    slot.retired = true;
    if (slot.inflight === 0) this.dispose(slot);
    else this.retiring.add(slot);
  }

  private dispose(slot: Slot): void {
    this.retiring.delete(slot);
    // A failing dispose (even a synchronous throw) is the old tool's end, not the caller's problem.
    void (async () => slot.tool.dispose?.())().catch(() => {});
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
      ...(this.flags.env ? { hostEnv: this.flags.env } : {}),
    });
    const slot: Slot = { tool, key, inflight: 0 };
    const id = entry.contract.id;
    // A load for a newer key started meanwhile: this one serves only the calls that waited for it.
    if (this.loading.get(id)?.key !== key) {
      slot.retired = true;
      this.retiring.add(slot);
      return slot;
    }
    const old = this.slots.get(id);
    if (old) this.retire(old);
    this.slots.set(id, slot);
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
      this.retire(slot);
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
    const all = [...this.slots.values(), ...this.retiring];
    this.slots.clear();
    this.retiring.clear();
    // One tool's failing dispose (even a synchronous throw) must not stop the others from being disposed.
    await Promise.allSettled(all.map(async (s) => s.tool.dispose?.()));
  }
}
