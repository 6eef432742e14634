// The connection to the shared state store (Redis) of a deployment of toolbox processes. State there
// is advisory: every operation has a local answer, and while Redis is down or slow the caller uses it
// (with a warning), so Redis is never a single point of failure. The client (ioredis) is imported
// only here, only when a state URL is given.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { RedisOptions } from 'ioredis';
import type { RedisClient } from './client.js';
import { redactText, type StateUrl } from './url.js';

/** connected: operations go to Redis; degraded: they are answered locally while it reconnects. */
export type StateHealth = 'connecting' | 'connected' | 'degraded';

/** What `doctor`, `/readyz` and the warnings say about the store (never its credentials). */
export interface StateStatus {
  url: string;
  health: StateHealth;
  /** Since when (epoch ms) it is in this health. */
  since: number;
  /** The last error, redacted. */
  lastError?: string;
}

/** How long one operation may take before the store counts as slow (then: local state, and a warning). */
export const COMMAND_TIMEOUT_MS = 500;
/** How long a process waits for the first connection before it starts on local state. */
export const CONNECT_WAIT_MS = 1500;
/** After a slow or failed operation, the store is left alone this long (then tried again). */
const BACKOFF_MS = 1000;

/** Reconnection delays: 100 ms doubling to 5 s, with jitter so replicas do not reconnect in step. */
export function reconnectDelay(times: number, rnd = Math.random): number {
  const base = Math.min(5000, 100 * 2 ** Math.min(times - 1, 6));
  return Math.round(base * (0.75 + rnd() * 0.5));
}

interface Script {
  lua: string;
  sha: string;
}

/** A Lua script run with EVALSHA (EVAL the first time a server has not seen it). */
export function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/** One connection to the shared store, with its health. */
export class SharedState {
  private health: StateHealth = 'connecting';
  private since = Date.now();
  private lastError?: string;
  /** Operations are not sent before this time (after a failure or a slow answer). */
  private quietUntil = 0;
  private sub?: RedisClient;
  private readonly listeners = new Set<(s: StateStatus) => void>();
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private closed = false;

  private constructor(
    readonly url: StateUrl,
    readonly redis: RedisClient,
    private readonly make: () => RedisClient,
  ) {}

  /** Connect (lazily importing the client); resolves within CONNECT_WAIT_MS, connected or degraded. */
  static async open(
    url: StateUrl,
    opts: { connectWaitMs?: number; commandTimeoutMs?: number } = {},
  ): Promise<SharedState> {
    const { Redis } = await import('ioredis');
    const options: RedisOptions = {
      host: url.host,
      port: url.port,
      db: url.db,
      ...(url.username ? { username: url.username } : {}),
      ...(url.password ? { password: url.password } : {}),
      // TLS checks the certificate against the host; SNI is sent for a name only (RFC 6066: not an address).
      ...(url.tls ? { tls: isIP(url.host) ? {} : { servername: url.host } } : {}),
      connectionName: 'toolbox',
      // Fail at once while disconnected: the caller answers locally instead of waiting in a queue.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      // ioredis leaves a timer of this length behind when it closes a stream that had already closed.
      disconnectTimeout: 100,
      retryStrategy: (times) => reconnectDelay(times),
      lazyConnect: true,
    };
    const make = () => new Redis(options) as unknown as RedisClient;
    const s = new SharedState(url, make(), make);
    s.watch(s.redis);
    s.redis.connect().catch(() => undefined); // errors arrive as events; reconnection goes on
    await s.settled(opts.connectWaitMs ?? CONNECT_WAIT_MS);
    return s;
  }

  /** The store's health now. */
  status(): StateStatus {
    return {
      url: this.url.shown,
      health: this.health,
      since: this.since,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /** Hear health changes (connected ↔ degraded). Returns the function that stops listening. */
  onChange(listener: (s: StateStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether operations go to the store now. */
  get usable(): boolean {
    return this.health === 'connected' && Date.now() >= this.quietUntil;
  }

  /** A key in this deployment's namespace. */
  key(...parts: string[]): string {
    return `${this.url.ns}:${parts.join(':')}`;
  }

  /**
   * Run `op` against the store; undefined when the store is not usable now or the operation failed or
   * was slow (then the store is left alone for a moment and the caller answers locally).
   */
  async attempt<T>(op: (r: RedisClient) => Promise<T>): Promise<T | undefined> {
    if (!this.usable) return undefined;
    try {
      return await op(this.redis);
    } catch (e) {
      this.failed(e);
      return undefined;
    }
  }

  /** Run a Lua script (EVALSHA, EVAL when the server does not have it yet). */
  async eval(s: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (e) {
      if (!String((e as Error).message).includes('NOSCRIPT')) throw e;
      return this.redis.eval(s.lua, keys.length, ...keys, ...args);
    }
  }

  /** Publish on a channel of this namespace (false when the store is not usable). */
  async publish(channel: string, message: string): Promise<boolean> {
    return (await this.attempt((r) => r.publish(this.key('ch', channel), message))) !== undefined;
  }

  /** Hear a channel of this namespace (on a second connection, made on first use). */
  subscribe(channel: string, listener: (message: string) => void): () => void {
    const full = this.key('ch', channel);
    let set = this.channels.get(full);
    if (!set) {
      this.channels.set(full, (set = new Set()));
      void this.subscriber()
        .subscribe(full)
        .catch(() => undefined); // resubscribed on reconnect by the client
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size) return;
      this.channels.delete(full);
      void this.sub?.unsubscribe(full).catch(() => undefined);
    };
  }

  /** Close both connections (what was sent is flushed first). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    for (const c of [this.redis, this.sub]) {
      if (!c) continue;
      // QUIT flushes what was sent; a connection that is not up has nothing to flush.
      if (c.status === 'ready')
        await Promise.race([c.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 500).unref())]);
      c.disconnect();
    }
  }

  private subscriber(): RedisClient {
    if (this.sub) return this.sub;
    const sub = this.make();
    sub.options.enableOfflineQueue = true; // SUBSCRIBE waits for the connection, and is replayed on reconnect
    sub.on('error', () => undefined); // the main connection reports health
    sub.on('message', (channel: string, message: string) => {
      for (const l of [...(this.channels.get(channel) ?? [])]) {
        try {
          l(message);
        } catch {
          /* one listener's failure does not stop the others */
        }
      }
    });
    sub.connect().catch(() => undefined);
    this.sub = sub;
    return sub;
  }

  private settled(ms: number): Promise<void> {
    if (this.health !== 'connecting') return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        off();
        if (this.health === 'connecting') this.set('degraded');
        resolve();
      }, ms);
      const off = this.onChange(() => {
        clearTimeout(t);
        off();
        resolve();
      });
    });
  }

  private watch(c: RedisClient): void {
    c.on('ready', () => {
      this.quietUntil = 0;
      this.set('connected');
    });
    c.on('error', (e: Error) => {
      this.lastError = this.redact(e.message);
      if (this.health === 'connecting') this.set('degraded'); // refused at once: no need to wait
    });
    for (const ev of ['close', 'end', 'reconnecting'])
      c.on(ev, () => {
        if (this.health !== 'degraded') this.set('degraded');
      });
  }

  private failed(e: unknown): void {
    this.lastError = this.redact((e as Error)?.message ?? String(e));
    this.quietUntil = Date.now() + BACKOFF_MS;
    if (this.health === 'connected') this.set('degraded');
    // The connection may be fine and the store only slow: look again once the quiet time is over.
    const t = setTimeout(() => {
      if (this.closed || this.redis.status !== 'ready') return;
      this.redis
        .ping()
        .then(() => {
          if (this.health === 'degraded' && Date.now() >= this.quietUntil) this.set('connected');
        })
        .catch((err: unknown) => this.failed(err));
    }, BACKOFF_MS);
    t.unref();
  }

  private redact(text: string): string {
    // The URL itself (a client library may quote it), then each credential, decoded and as written.
    const { url, password, username } = this.url;
    const raw = (v?: string) => (v ? [v, encodeURIComponent(v)] : []);
    return redactText(text.split(url).join(this.url.shown), [...raw(password), ...raw(username)]);
  }

  private set(h: StateHealth): void {
    if (this.health === h) return;
    this.health = h;
    this.since = Date.now();
    const s = this.status();
    for (const l of [...this.listeners]) l(s);
  }
}

const open = new Map<string, { state: Promise<SharedState>; refs: number }>();

/**
 * The process's connection to `url`, shared by everything that uses it (the daemon keeps one for all
 * its calls); `release()` closes it when the last user is done.
 */
export async function acquireSharedState(
  url: StateUrl,
  opts?: { connectWaitMs?: number; commandTimeoutMs?: number },
): Promise<{ state: SharedState; release: () => Promise<void> }> {
  const k = url.url;
  let slot = open.get(k);
  if (!slot) open.set(k, (slot = { state: SharedState.open(url, opts), refs: 0 }));
  slot.refs++;
  const state = await slot.state;
  let released = false;
  return {
    state,
    release: async () => {
      if (released) return;
      released = true;
      if (--slot.refs > 0) return;
      open.delete(k);
      await state.close();
    },
  };
}
