// Per-client and global limits of `serve --http` that hold across the replicas of a deployment: JSON-RPC
// messages in flight (per client, and in total) and a request rate (per client, and in total). With
// `--state` one Lua script per request checks and takes everything at once in Redis (atomic, so two
// replicas cannot both take the last slot); slots are leases that expire unless renewed, so a replica
// killed mid-call frees its clients' slots within LEASE_MS. Without a store, or while it is away, the
// same limits hold in this process (the in-flight limit per client is then PerClient's, per replica).
import { randomBytes } from 'node:crypto';
import { ExitCode, ToolboxError } from '../errors.js';
import { script, type SharedState } from '../state/shared.js';
import type { Who } from './admission.js';

/** A rate: `count` requests per `periodMs`, with a burst of `count`. */
export interface Rate {
  count: number;
  periodMs: number;
}

export interface ClientLimitSettings {
  /** Messages in flight per client, across the deployment. */
  perClient: number;
  /** Messages in flight per principal (all the clients of one token and peer), across the deployment. */
  perPrincipal?: number;
  /** How long a request refused for slots in flight waits and tries again before it is refused (0: not). */
  queueMs?: number;
  /** Messages in flight in total, across the deployment (undefined: no such limit). */
  global?: number;
  clientRate?: Rate;
  globalRate?: Rate;
  /** How long a slot outlives a replica that stopped renewing it (default LEASE_MS). */
  leaseMs?: number;
}

/** A slot lease lives this long unless renewed (renewed every third of it while its request runs). */
export const LEASE_MS = 15_000;

/** Parse `600/min`, `10/s`, `1000/1h`. Throws invalid_rate (exit 2). */
export function parseRate(text: string, flag: string): Rate {
  const m = /^(\d+)\s*\/\s*(\d*)\s*(ms|s|sec|m|min|h|hour)$/.exec(text.trim());
  const unit: Record<string, number> = {
    ms: 1,
    s: 1000,
    sec: 1000,
    m: 60_000,
    min: 60_000,
    h: 3600_000,
    hour: 3600_000,
  };
  const count = m ? Number(m[1]) : 0;
  if (!m || count < 1)
    throw new ToolboxError('invalid_rate', `${flag} ${text}: not a rate`, {
      exitCode: ExitCode.usage,
      hint: `Give requests per period, e.g. ${flag} 600/min (also /s, /h, or /10s).`,
    });
  return { count, periodMs: (m[2] ? Number(m[2]) : 1) * unit[m[3]!]! };
}

/** Why a request is refused: too many in flight (429) or too fast (429 with Retry-After). */
export interface LimitRefusal {
  status: 429;
  message: string;
  retryAfterS: number;
  /** Refused for slots in flight (worth waiting for), not for a rate. */
  inFlight?: boolean;
}

const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS: client slots, global slots, principal rate, global rate, principal slots. ARGV: count, lease
 * ms, per-client max, global max (0: none), principal interval ms, principal burst ms (0: no rate),
 * global interval, global burst, member prefix, per-principal max. Returns {0} taken, {1, n} client
 * full, {2, n} global full, {3, ms} principal too fast, {4, ms} deployment too fast, {5, n} principal
 * full.
 */
const ADMIT = script(`${NOW}
local count, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local cmax, gmax, pmax = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[10])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local c = redis.call('ZCARD', KEYS[1])
if c + count > cmax then return {1, c} end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
local p = redis.call('ZCARD', KEYS[5])
if p + count > pmax then return {5, p} end
if gmax > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  local g = redis.call('ZCARD', KEYS[2])
  if g + count > gmax then return {2, g} end
end
local function gcra(key, interval, burst)
  if burst <= 0 then return nil, nil end
  local tat = math.max(tonumber(redis.call('GET', key)) or now, now)
  local new = tat + interval * count
  if new - now > burst then return -1, new - now - burst end
  return new, nil
end
local cnew, cwait = gcra(KEYS[3], tonumber(ARGV[5]), tonumber(ARGV[6]))
if cnew == -1 then return {3, cwait} end
local gnew, gwait = gcra(KEYS[4], tonumber(ARGV[7]), tonumber(ARGV[8]))
if gnew == -1 then return {4, gwait} end
if cnew then redis.call('SET', KEYS[3], cnew, 'PX', math.ceil(cnew - now) + 1000) end
if gnew then redis.call('SET', KEYS[4], gnew, 'PX', math.ceil(gnew - now) + 1000) end
for i = 1, count do
  redis.call('ZADD', KEYS[1], now + lease, ARGV[9] .. i)
  redis.call('ZADD', KEYS[5], now + lease, ARGV[9] .. i)
  if gmax > 0 then redis.call('ZADD', KEYS[2], now + lease, ARGV[9] .. i) end
end
redis.call('PEXPIRE', KEYS[1], lease * 2)
redis.call('PEXPIRE', KEYS[5], lease * 2)
if gmax > 0 then redis.call('PEXPIRE', KEYS[2], lease * 2) end
return {0}`);

/** KEYS: slot sets (pairs with ARGV's members). ARGV: lease ms, then one member per key. */
const RENEW = script(`${NOW}
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do redis.call('ZADD', key, 'XX', now + lease, ARGV[i + 1]) end
return 0`);

interface Held {
  keys: string[];
  members: string[];
}

const refusal = (message: string, retryAfterS = 1, inFlight = false): LimitRefusal => ({
  status: 429,
  message,
  retryAfterS,
  ...(inFlight ? { inFlight } : {}),
});

/** GCRA in this process: the same rule as the script's, for a replica without a reachable store. */
class LocalRate {
  private readonly tat = new Map<string, number>();
  constructor(private readonly rate: Rate) {}
  /** Undefined when allowed (and counted), else the ms to wait. */
  take(key: string, count: number, now = Date.now()): number | undefined {
    const interval = this.rate.periodMs / this.rate.count;
    const tat = Math.max(this.tat.get(key) ?? now, now);
    const next = tat + interval * count;
    if (next - now > this.rate.periodMs) return next - now - this.rate.periodMs;
    this.tat.set(key, next);
    if (this.tat.size > 10_000) for (const [k, v] of this.tat) if (v < now) this.tat.delete(k);
    return undefined;
  }
}

/** The limits of one replica, shared through the store when there is one. */
export class ClientLimits {
  private readonly held = new Set<Held>();
  private readonly renewer?: NodeJS.Timeout;
  private readonly localClient?: LocalRate;
  private readonly localGlobal?: LocalRate;
  private localInFlight = 0;
  private readonly lease: number;

  constructor(
    readonly settings: ClientLimitSettings,
    private readonly shared?: SharedState,
  ) {
    this.lease = settings.leaseMs ?? LEASE_MS;
    if (settings.clientRate) this.localClient = new LocalRate(settings.clientRate);
    if (settings.globalRate) this.localGlobal = new LocalRate(settings.globalRate);
    if (shared) {
      this.renewer = setInterval(() => void this.renew(), this.lease / 3);
      this.renewer.unref();
    }
  }

  /**
   * Take `count` message slots for `who` (and count them against its principal's rate and the
   * deployment's). A request refused only for slots in flight (not for its rate) tries again for up to
   * `queueMs` while `signal` holds. Returns the release function, or why the request is refused.
   */
  async take(who: Who, count: number, signal?: AbortSignal): Promise<(() => void) | LimitRefusal> {
    const until = Date.now() + (this.settings.queueMs ?? 0);
    for (let pause = 20; ; pause = Math.min(250, pause * 2)) {
      const r = await this.takeOnce(who, count);
      if (typeof r === 'function' || !r.inFlight || signal?.aborted || Date.now() + pause > until) return r;
      await new Promise((res) => setTimeout(res, pause));
    }
  }

  private async takeOnce(who: Who, count: number): Promise<(() => void) | LimitRefusal> {
    const s = this.settings;
    if (this.shared?.usable) {
      const prefix = `${randomBytes(6).toString('base64url')}:`;
      const keys = [
        this.shared.key('limit', 'slots', who.client),
        this.shared.key('limit', 'slots'),
        this.shared.key('limit', 'rate', who.principal),
        this.shared.key('limit', 'rate'),
        this.shared.key('limit', 'pslots', who.principal),
      ];
      const rate = (r?: Rate) => (r ? [r.periodMs / r.count, r.periodMs] : [0, 0]);
      const r = await this.shared.attempt(
        (_c) =>
          this.shared!.eval(ADMIT, keys, [
            count,
            this.lease,
            s.perClient,
            s.global ?? 0,
            ...rate(s.clientRate),
            ...rate(s.globalRate),
            prefix,
            s.perPrincipal ?? s.perClient * 8,
          ]) as Promise<number[]>,
      );
      if (r) {
        const [code, n] = r.map(Number) as [number, number];
        if (code !== 0) return this.refuse(code, n ?? 0, count);
        const members = Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
        const slotKeys = [keys[0]!, keys[4]!, ...(s.global ? [keys[1]!] : [])];
        const held: Held = {
          keys: slotKeys.flatMap((k) => members.map(() => k)),
          members: slotKeys.flatMap(() => members),
        };
        this.held.add(held);
        let done = false;
        return () => {
          if (done) return;
          done = true;
          this.held.delete(held);
          void this.shared!.attempt((c) => {
            const p = c.pipeline();
            for (const k of slotKeys) p.zrem(k, ...members);
            return p.exec();
          });
        };
      }
    }
    return this.takeLocal(who.principal, count);
  }

  /** Without the store: the rates and the global in-flight limit of this replica alone. */
  private takeLocal(client: string, count: number): (() => void) | LimitRefusal {
    const s = this.settings;
    if (s.global && this.localInFlight + count > s.global) return this.refuse(2, this.localInFlight, count);
    const wc = this.localClient?.take(client, count);
    if (wc !== undefined) return this.refuse(3, wc, count);
    const wg = this.localGlobal?.take('', count);
    if (wg !== undefined) return this.refuse(4, wg, count);
    this.localInFlight += count;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.localInFlight -= count;
    };
  }

  private refuse(code: number, n: number, count: number): LimitRefusal {
    const s = this.settings;
    switch (code) {
      case 1:
        return refusal(
          `Too many requests in flight from this client (${n} + ${count}, at most ${s.perClient} at once)`,
          1,
          true,
        );
      case 5:
        return refusal(
          `Too many requests in flight from this client's host and token (${n} + ${count}, at most ${s.perPrincipal ?? s.perClient * 8} at once)`,
          1,
          true,
        );
      case 2:
        return refusal(`Too many requests in flight on this server (at most ${s.global} at once)`, 1, true);
      case 3:
        return refusal(
          `Too many requests from this client (at most ${s.clientRate!.count} per ${s.clientRate!.periodMs / 1000} s)`,
          Math.max(1, Math.ceil(n / 1000)),
        );
      default:
        return refusal(
          `Too many requests on this server (at most ${s.globalRate!.count} per ${s.globalRate!.periodMs / 1000} s)`,
          Math.max(1, Math.ceil(n / 1000)),
        );
    }
  }

  private async renew(): Promise<void> {
    const all = [...this.held];
    if (!all.length || !this.shared) return;
    const keys = all.flatMap((h) => h.keys);
    const members = all.flatMap((h) => h.members);
    await this.shared.attempt((_c) => this.shared!.eval(RENEW, keys, [this.lease, ...members]));
  }

  close(): void {
    clearInterval(this.renewer);
  }
}
