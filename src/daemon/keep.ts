// Objects a daemon keeps between requests (a Runtime with its warm workers), at most `max`, least
// recently used dropped first. One in use by a request in flight is closed only when it finishes.

interface Closable {
  close(): Promise<void>;
}

interface Slot {
  value: Closable;
  users: number;
  evicted: boolean;
}

/** A bounded, reference-counted cache of closable objects. */
export class Keep {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly max = 8) {}

  get size(): number {
    return this.slots.size;
  }

  /** The object kept under `key` (made on first use), held until `release` is called. */
  acquire<T extends Closable>(key: string, make: () => T): { value: T; release: () => void } {
    let slot = this.slots.get(key);
    if (slot) this.slots.delete(key);
    else slot = { value: make(), users: 0, evicted: false };
    this.slots.set(key, slot);
    slot.users++;
    for (const [k, s] of this.slots) {
      if (this.slots.size <= this.max) break;
      if (s === slot) continue;
      this.slots.delete(k);
      s.evicted = true;
      if (s.users === 0) void s.value.close().catch(() => {});
    }
    let done = false;
    const held = slot;
    return {
      value: slot.value as T,
      release: () => {
        if (done) return;
        done = true;
        held.users--;
        if (held.evicted && held.users === 0) void held.value.close().catch(() => {});
      },
    };
  }

  /** Close everything (the daemon is stopping). */
  async close(): Promise<void> {
    const all = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(all.map((s) => s.value.close().catch(() => {})));
  }
}
