// What `toolbox serve` keeps across requests, behind one small interface: tasks, the answers of an
// input-required call, 2025 sessions' found tools, the links to capped results, and the events every
// replica must hear (a registry change, a task's new status). The default lives in this process;
// several `serve --http` replicas behind a load balancer share one by implementing this interface
// over a networked store (Redis: GET/SET PX/DEL, PUBLISH/SUBSCRIBE). Values are plain JSON, so any
// such store can hold them; nothing here may depend on object identity.
import { randomBytes } from 'node:crypto';

/** Shared state of one serve deployment (one process by default). */
export interface ServeStore {
  /** True when other processes (replicas on other machines) read what is stored here. */
  readonly crossesMachines?: boolean;
  /**
   * The key that signs what goes through clients and comes back (requestState, cursors). Replicas
   * sharing a store must share it, so a retry can land on any of them.
   */
  secret(): Promise<Buffer>;
  /** The value under `key`, or undefined when absent or expired. */
  get<T>(key: string): Promise<T | undefined>;
  /** Store a JSON value for `ttlMs` milliseconds (replacing any value under `key`). */
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Deliver `message` (JSON) to every subscriber of `channel`, in every replica. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Hear `channel`; returns the unsubscribe function. */
  subscribe(channel: string, listener: (message: unknown) => void): () => void;
  close(): Promise<void>;
}

interface Slot {
  json: string;
  expires: number;
}

/**
 * The in-process store: a map with expiry (checked on read, swept every minute) and synchronous
 * pub/sub. Values are kept as JSON text, as a networked store would keep them, so code that works
 * here does not rely on sharing objects.
 */
export class MemoryStore implements ServeStore {
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Map<string, Set<(message: unknown) => void>>();
  private readonly key = randomBytes(32);
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  secret(): Promise<Buffer> {
    return Promise.resolve(this.key);
  }

  get<T>(key: string): Promise<T | undefined> {
    const s = this.slots.get(key);
    if (!s) return Promise.resolve(undefined);
    if (s.expires <= this.now()) {
      this.slots.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(JSON.parse(s.json) as T);
  }

  set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.slots.set(key, { json: JSON.stringify(value), expires: this.now() + Math.max(1, ttlMs) });
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.slots.delete(key);
    return Promise.resolve();
  }

  publish(channel: string, message: unknown): Promise<void> {
    const text = JSON.stringify(message);
    for (const l of [...(this.listeners.get(channel) ?? [])]) {
      try {
        l(JSON.parse(text));
      } catch {
        /* one listener's failure does not stop the others */
      }
    }
    return Promise.resolve();
  }

  subscribe(channel: string, listener: (message: unknown) => void): () => void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(channel);
    };
  }

  /** Values alive now (tests and introspection). */
  get size(): number {
    this.sweep();
    return this.slots.size;
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.slots.clear();
    this.listeners.clear();
    return Promise.resolve();
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, s] of this.slots) if (s.expires <= now) this.slots.delete(k);
  }
}
