// The runtime's state when several processes share one store (`--state redis://…`): the circuit
// breaker per tool and the call log. Each operation is atomic in Redis (one Lua script per breaker
// step, timed by the Redis server's clock so replicas on several machines agree), and every key
// expires. While the store is unreachable or slow, the same operations go to `.toolbox/` as without
// a store, and calls logged meanwhile are sent to the store once it is back.
import { randomBytes } from 'node:crypto';
import type { SharedState } from '../state/shared.js';
import { script } from '../state/shared.js';
import { appendCall, type CallRecord } from './call-log.js';
import { Breaker, circuitOpen, type BreakerRecord, type BreakerSettings } from './breaker.js';

/** The shared call log keeps about this many records (a capped stream: it never grows past it). */
export const SHARED_LOG_MAX = 200_000;
/** A tool's breaker record expires this long after its last change (then it is closed again). */
const BREAKER_TTL_MS = 24 * 3600_000;
/**
 * A closed verdict from the store is trusted this long for the next calls of the same tool on this
 * process (no round trip each): a breaker opened elsewhere refuses calls here within this bound. Open,
 * half-open and trial verdicts are never reused.
 */
export const CLOSED_TRUST_MS = 250;
/** Records logged while the store was unreachable, kept to send once it is back (the oldest dropped past it). */
const BACKLOG_MAX = 10_000;

const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Breaker check. KEYS: record hash. ARGV: cooldownMs, ttlMs. Returns {state, now, until}: 0 closed,
 * 1 open, 2 a trial is running (elsewhere), 3 this caller takes the trial (recorded atomically, so
 * exactly one replica does).
 */
const CHECK = script(`${NOW}
local open = tonumber(redis.call('HGET', KEYS[1], 'openUntil'))
if not open then return {0, now, 0} end
if now < open then return {1, now, open} end
local cool = tonumber(ARGV[1])
local trial = tonumber(redis.call('HGET', KEYS[1], 'trialAt'))
if trial and now - trial < cool then return {2, now, trial + cool} end
redis.call('HSET', KEYS[1], 'trialAt', now)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return {3, now, 0}`);

/**
 * Breaker failure (the rule of breaker.ts afterFailure). KEYS: record hash, failure times (sorted
 * set). ARGV: windowMs, failures, cooldownMs, a unique member, ttlMs. Returns openUntil, or 0.
 */
const FAILURE = script(`${NOW}
local window, threshold, cool, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[5])
local open = tonumber(redis.call('HGET', KEYS[1], 'openUntil'))
local n = 0
if not (open and now >= open) then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  redis.call('ZADD', KEYS[2], now, ARGV[4])
  n = redis.call('ZCARD', KEYS[2])
end
if (open and now >= open) or n >= threshold then
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'openUntil', now + cool)
  redis.call('HDEL', KEYS[1], 'trialAt')
  redis.call('PEXPIRE', KEYS[1], ttl)
  return now + cool
end
redis.call('PEXPIRE', KEYS[2], window)
return 0`);

/** The breaker and call log of a Runtime, over a shared store with `.toolbox/` as the fallback. */
export class SharedRuntimeState {
  private backlog: CallRecord[] = [];
  /** Per tool: until when its last closed verdict is trusted (see CLOSED_TRUST_MS). */
  private readonly closedUntil = new Map<string, number>();
  private readonly off: () => void;

  constructor(
    readonly state: SharedState,
    private readonly settings: BreakerSettings,
    private readonly local: Breaker,
    private readonly stateDir: string,
  ) {
    this.off = state.onChange((s) => {
      if (s.health === 'connected') void this.flush();
    });
  }

  private keys(id: string): [string, string] {
    return [this.state.key('breaker', id), this.state.key('breaker-failures', id)];
  }

  /** Throw circuit_open while the tool is refused anywhere in the deployment; the local one while the store is away. */
  async check(id: string): Promise<void> {
    if ((this.closedUntil.get(id) ?? 0) > Date.now()) return;
    this.closedUntil.delete(id);
    const r = await this.state.attempt(
      (_c) =>
        this.state.eval(CHECK, [this.keys(id)[0]], [this.settings.cooldownMs, BREAKER_TTL_MS]) as Promise<number[]>,
    );
    if (!r) return this.local.check(id);
    const [st, now, until] = r.map(Number) as [number, number, number];
    if (st === 0) this.closedUntil.set(id, Date.now() + CLOSED_TRUST_MS);
    if (st === 1 || st === 2) throw circuitOpen(id, until, now, st === 2, this.settings);
  }

  /** A call succeeded: the circuit closes everywhere. */
  async success(id: string): Promise<void> {
    const done = await this.state.attempt((c) => c.del(...this.keys(id)));
    if (done === undefined) this.local.success(id);
  }

  /** A call failed: counted in the deployment's window. */
  async failure(id: string): Promise<void> {
    this.closedUntil.delete(id); // the next call asks the store again
    const member = `${Date.now()}-${randomBytes(4).toString('hex')}`;
    const done = await this.state.attempt((_c) =>
      this.state.eval(FAILURE, this.keys(id), [
        this.settings.windowMs,
        this.settings.failures,
        this.settings.cooldownMs,
        member,
        BREAKER_TTL_MS,
      ]),
    );
    if (done === undefined) this.local.failure(id);
  }

  /** Append a call to the shared log (to `.toolbox/calls.jsonl`, and the backlog, while the store is away). */
  log(rec: CallRecord): void {
    const json = JSON.stringify(rec);
    void this.state
      .attempt((c) => c.xadd(this.state.key('calls'), 'MAXLEN', '~', SHARED_LOG_MAX, '*', 'r', json))
      .then((id) => {
        if (id !== undefined && id !== null) return;
        appendCall(this.stateDir, rec);
        this.backlog.push(rec);
        if (this.backlog.length > BACKLOG_MAX) this.backlog.splice(0, this.backlog.length - BACKLOG_MAX);
      });
  }

  /** Calls logged while the store was away, sent now that it is back. */
  private async flush(): Promise<void> {
    const recs = this.backlog;
    this.backlog = [];
    if (!recs.length) return;
    const ok = await this.state.attempt((c) => {
      const p = c.pipeline();
      for (const r of recs) p.xadd(this.state.key('calls'), 'MAXLEN', '~', SHARED_LOG_MAX, '*', 'r', JSON.stringify(r));
      return p.exec();
    });
    if (!ok) this.backlog.unshift(...recs);
  }

  /** Wait for log writes in flight (a one-shot `run` before it exits). */
  async settle(): Promise<void> {
    await this.state.attempt((c) => c.ping());
  }

  close(): void {
    this.off();
  }
}

/** Every breaker record and the call log of a deployment, read from the store (for `stats --state`). */
export async function readShared(
  state: SharedState,
  settings: BreakerSettings,
): Promise<{ records: CallRecord[]; breakers: Record<string, BreakerRecord> } | undefined> {
  return state.attempt(async (c) => {
    const records: CallRecord[] = [];
    let from = '-';
    for (;;) {
      const page = await c.xrange(state.key('calls'), from, '+', 'COUNT', 5000);
      for (const [, fields] of page) {
        try {
          const r = JSON.parse(fields[1] ?? '') as CallRecord;
          if (r && typeof r.tool === 'string') records.push(r);
        } catch {
          /* a foreign entry */
        }
      }
      if (page.length < 5000) break;
      from = `(${page[page.length - 1]![0]}`;
    }
    records.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
    const breakers: Record<string, BreakerRecord> = {};
    const prefix = state.key('breaker', '');
    let cursor = '0';
    do {
      const [next, keys] = await c.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const k of keys) {
        const h = await c.hgetall(k);
        const id = k.slice(prefix.length);
        const n = await c.zcount(state.key('breaker-failures', id), Date.now() - settings.windowMs, '+inf');
        breakers[id] = {
          failures: Array.from({ length: n }, () => Date.now()),
          ...(h.openUntil ? { openUntil: Number(h.openUntil) } : {}),
          ...(h.trialAt ? { trialAt: Number(h.trialAt) } : {}),
        };
      }
    } while (cursor !== '0');
    return { records, breakers };
  });
}
