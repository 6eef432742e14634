// The ServeStore of a deployment of `serve --http` replicas (`--state redis://…`): tasks,
// input-required answers, sessions' found tools and capped results' links live in Redis (SET PX, so
// each expires), and events travel on its pub/sub. While Redis is unreachable or slow the replica
// keeps serving from its own memory (what it stores then is seen by it alone until Redis is back),
// so the store is never a single point of failure.
import { randomBytes } from 'node:crypto';
import type { SharedState } from '../state/shared.js';
import { MemoryStore, type ServeStore } from './store.js';

export class RedisStore implements ServeStore {
  readonly crossesMachines = true;
  private readonly local = new MemoryStore();
  private key?: Promise<Buffer>;

  constructor(private readonly shared: SharedState) {}

  /**
   * The signing key every replica shares: made once by whichever replica comes first (SET NX), kept
   * in Redis without expiry. While Redis is away, a key of this process (states it signs then are
   * good only here).
   */
  secret(): Promise<Buffer> {
    this.key ??= (async () => {
      const k = this.shared.key('serve', 'secret');
      const mine = randomBytes(32).toString('base64');
      const got = await this.shared.attempt(async (r) => {
        await r.set(k, mine, 'NX');
        return r.get(k);
      });
      if (typeof got === 'string' && got.length >= 40) return Buffer.from(got, 'base64');
      this.key = undefined; // try Redis again next time
      return this.local.secret();
    })();
    return this.key;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const v = await this.shared.attempt((r) => r.get(this.shared.key('serve', key)));
    if (v === undefined) return this.local.get<T>(key);
    if (v === null) return this.local.get<T>(key); // written here while Redis was away, or absent
    try {
      return JSON.parse(v) as T;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    const ok = await this.shared.attempt((r) =>
      r.set(this.shared.key('serve', key), JSON.stringify(value), 'PX', Math.max(1, Math.round(ttlMs))),
    );
    if (ok === undefined) await this.local.set(key, value, ttlMs);
  }

  async delete(key: string): Promise<void> {
    await this.shared.attempt((r) => r.del(this.shared.key('serve', key)));
    await this.local.delete(key);
  }

  async publish(channel: string, message: unknown): Promise<void> {
    // Through Redis every replica (this one included) hears it once; without it, only this one.
    if (!(await this.shared.publish(channel, JSON.stringify(message)))) await this.local.publish(channel, message);
  }

  subscribe(channel: string, listener: (message: unknown) => void): () => void {
    const offLocal = this.local.subscribe(channel, listener);
    const offShared = this.shared.subscribe(channel, (text) => {
      let m: unknown;
      try {
        m = JSON.parse(text);
      } catch {
        return;
      }
      listener(m);
    });
    return () => {
      offLocal();
      offShared();
    };
  }

  /** The connection belongs to whoever opened it (the command); only the local part closes here. */
  close(): Promise<void> {
    return this.local.close();
  }
}
