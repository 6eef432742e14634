// The shared state against a real redis-server on a loopback port: the breaker's steps are atomic
// across processes (here: several connections, as several replicas would have), client limits hold
// across replicas, and a Redis that goes away or stalls turns into local state and back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedState, acquireSharedState } from '../../src/state/shared.js';
import { parseStateUrl } from '../../src/state/url.js';
import { CLOSED_TRUST_MS, SharedRuntimeState } from '../../src/runtime/shared.js';
import { Breaker, type BreakerSettings } from '../../src/runtime/breaker.js';
import { ClientLimits } from '../../src/serve/client-limits.js';
import { RedisStore } from '../../src/serve/redis-store.js';
import { ToolboxError } from '../../src/errors.js';
import { tempProject } from '../helpers.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { startRedis } from '../../deploy/local-cluster.mjs';

type Redis = { port: number; url: string; child: import('node:child_process').ChildProcess; exited: Promise<unknown> };
let redis: Redis;
const open: SharedState[] = [];
const p = tempProject({});

beforeAll(async () => {
  redis = (await startRedis()) as Redis;
}, 60_000);
afterAll(async () => {
  for (const s of open) await s.close();
  redis.child.kill('SIGKILL');
  await redis.exited;
  p.cleanup();
});

const connect = async (url = redis.url, ns = 'test') => {
  const s = await SharedState.open(parseStateUrl(`${url}?ns=${ns}`, 'flag'), { connectWaitMs: 5000 });
  open.push(s);
  return s;
};

const settings: BreakerSettings = { failures: 3, windowMs: 60_000, cooldownMs: 400 };
const replica = async (ns: string) => {
  const s = await connect(redis.url, ns);
  return new SharedRuntimeState(s, settings, new Breaker(p.dir, settings), p.dir);
};
const refusal = async (f: () => Promise<void>) => {
  try {
    await f();
    return 'allowed';
  } catch (e) {
    return (e as ToolboxError).code;
  }
};

describe('the breaker shared through Redis', () => {
  it('opens everywhere at the threshold; after the cool-down exactly one replica takes the trial', async () => {
    const reps = await Promise.all(Array.from({ length: 5 }, () => replica('breaker1')));
    const [a, b] = reps as [SharedRuntimeState, SharedRuntimeState];
    for (let i = 0; i < 3; i++) await a.failure('t');
    expect(await refusal(() => b.check('t'))).toBe('circuit_open');
    await new Promise((r) => setTimeout(r, 450));
    const outcomes = await Promise.all(reps.map((r) => refusal(() => r.check('t'))));
    expect(outcomes.filter((o) => o === 'allowed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'circuit_open')).toHaveLength(4);
    // The trial failed: open again for a cool-down; then a trial that succeeds closes it everywhere.
    await a.failure('t');
    expect(await refusal(() => b.check('t'))).toBe('circuit_open');
    await new Promise((r) => setTimeout(r, 450));
    expect(await refusal(() => b.check('t'))).toBe('allowed');
    await b.success('t');
    expect(await Promise.all(reps.map((r) => refusal(() => r.check('t'))))).toEqual(Array(5).fill('allowed'));
  });

  it('failures counted by different replicas add up; keys expire', async () => {
    const [a, b, d] = await Promise.all([replica('breaker2'), replica('breaker2'), replica('breaker2')]);
    await a.failure('u');
    await b.failure('u');
    expect(await refusal(() => d.check('u'))).toBe('allowed');
    await d.failure('u');
    expect(await refusal(() => a.check('u'))).toBe('circuit_open');
    const ttl = await a.state.redis.pttl(a.state.key('breaker', 'u'));
    expect(ttl).toBeGreaterThan(0);
  });

  it('a closed verdict spares the next calls a round trip, and is trusted for at most CLOSED_TRUST_MS', async () => {
    const [a, b] = await Promise.all([replica('breaker3'), replica('breaker3')]);
    const scripts = async () =>
      Number(/cmdstat_evalsha:calls=(\d+)/.exec(String(await a.state.redis.info('commandstats')))?.[1] ?? 0);
    const before = await scripts();
    for (let i = 0; i < 10; i++) expect(await refusal(() => b.check('v'))).toBe('allowed');
    expect((await scripts()) - before).toBeLessThan(5); // one, unless the machine stalled past the bound
    for (let i = 0; i < 3; i++) await a.failure('v');
    await new Promise((r) => setTimeout(r, CLOSED_TRUST_MS + 50));
    expect(await refusal(() => b.check('v'))).toBe('circuit_open');
  });
});

/** A client that is its own principal. */
const who = (p: string, c = p) => ({ principal: p, client: `${p}|${c}` });

describe('client limits across replicas', () => {
  it('a client has at most perClient in flight across replicas; a stopped replica’s slots expire', async () => {
    const [s1, s2] = [await connect(redis.url, 'lim1'), await connect(redis.url, 'lim1')];
    const r1 = new ClientLimits({ perClient: 2, leaseMs: 600 }, s1);
    const r2 = new ClientLimits({ perClient: 2, leaseMs: 600 }, s2);
    const a = await r1.take(who('a:10.0.0.1'), 1);
    const b = await r2.take(who('a:10.0.0.1'), 1);
    expect(typeof a).toBe('function');
    expect(typeof b).toBe('function');
    expect(await r2.take(who('a:10.0.0.1'), 1)).toMatchObject({ status: 429 });
    expect(typeof (await r2.take(who('a:10.0.0.2'), 1))).toBe('function'); // another client
    (b as () => void)();
    await new Promise((r) => setTimeout(r, 50));
    const c = await r2.take(who('a:10.0.0.1'), 1);
    expect(typeof c).toBe('function');
    // r1 "dies": it stops renewing, and its slot comes back once its lease is over.
    r1.close();
    r2.close();
    await new Promise((r) => setTimeout(r, 700));
    expect(typeof (await new ClientLimits({ perClient: 2 }, s2).take(who('a:10.0.0.1'), 1))).toBe('function');
  });

  it('the clients of one principal together have at most perPrincipal in flight across replicas', async () => {
    const [s1, s2] = [await connect(redis.url, 'lim3'), await connect(redis.url, 'lim3')];
    const r1 = new ClientLimits({ perClient: 2, perPrincipal: 3 }, s1);
    const r2 = new ClientLimits({ perClient: 2, perPrincipal: 3 }, s2);
    const held = [await r1.take(who('p', 'x'), 2), await r2.take(who('p', 'y'), 1)];
    for (const h of held) expect(typeof h).toBe('function');
    // A third name of the same principal gets nothing more; another principal does.
    expect(await r2.take(who('p', 'z'), 1)).toMatchObject({ status: 429, message: /host and token/ });
    expect(typeof (await r1.take(who('q', 'z'), 1))).toBe('function');
    // Waiting in line (queueMs): a slot released meanwhile is taken instead of a refusal.
    const waiting = new ClientLimits({ perClient: 2, perPrincipal: 3, queueMs: 2000 }, s2).take(who('p', 'z'), 1);
    setTimeout(() => (held[1] as () => void)(), 100);
    expect(typeof (await waiting)).toBe('function');
    r1.close();
    r2.close();
  });

  it('rates hold across replicas (GCRA on the Redis clock), with Retry-After', async () => {
    const [s1, s2] = [await connect(redis.url, 'lim2'), await connect(redis.url, 'lim2')];
    const rate = { count: 3, periodMs: 60_000 };
    const r1 = new ClientLimits({ perClient: 100, clientRate: rate }, s1);
    const r2 = new ClientLimits({ perClient: 100, clientRate: rate }, s2);
    for (const r of [r1, r2, r1]) expect(typeof (await r.take(who('c'), 1))).toBe('function');
    const refused = await r2.take(who('c'), 1);
    expect(refused).toMatchObject({ status: 429 });
    expect((refused as { retryAfterS: number }).retryAfterS).toBeGreaterThanOrEqual(1);
    r1.close();
    r2.close();
  });
});

describe('serve store over Redis', () => {
  it('what one replica stores, another reads; events reach every replica; one signing key', async () => {
    const [a, b] = [new RedisStore(await connect(redis.url, 'st')), new RedisStore(await connect(redis.url, 'st'))];
    await a.set('task:1', { status: 'working' }, 10_000);
    expect(await b.get('task:1')).toEqual({ status: 'working' });
    await b.delete('task:1');
    expect(await a.get('task:1')).toBeUndefined();
    const heard: unknown[] = [];
    const off = a.subscribe('events', (m) => heard.push(m));
    await new Promise((r) => setTimeout(r, 200)); // the subscription is in place
    await b.publish('events', { kind: 'tools_list_changed' });
    await expect.poll(() => heard).toEqual([{ kind: 'tools_list_changed' }]);
    off();
    expect((await a.secret()).equals(await b.secret())).toBe(true);
  });
});

describe('Redis away or slow', () => {
  it('a stalled Redis (CLIENT PAUSE) is a warning and local state, then it is used again', async () => {
    const s = await connect(redis.url, 'slow');
    const admin = await connect(redis.url, 'slow-admin');
    const rep = new SharedRuntimeState(s, settings, new Breaker(p.dir, settings), p.dir);
    await admin.redis.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const t0 = Date.now();
    expect(await refusal(() => rep.check('slowtool'))).toBe('allowed'); // answered from the local breaker
    expect(Date.now() - t0).toBeLessThan(1400); // the store's command timeout, not the pause
    expect(s.status().health).toBe('degraded');
    await expect.poll(() => s.status().health, { timeout: 10_000 }).toBe('connected');
  });

  it('a Redis that is gone degrades at once and reconnects when it is back', async () => {
    const r = (await startRedis()) as Redis;
    const s = await connect(r.url, 'gone');
    expect(s.status().health).toBe('connected');
    r.child.kill('SIGKILL');
    await r.exited;
    await expect.poll(() => s.status().health).toBe('degraded');
    expect(await s.attempt((c) => c.ping())).toBeUndefined();
    const back = (await startRedis(r.port)) as Redis;
    await expect.poll(() => s.status().health, { timeout: 15_000 }).toBe('connected');
    expect(await s.attempt((c) => c.ping())).toBe('PONG');
    back.child.kill('SIGKILL');
    await back.exited;
  });

  it('never shows the password: not in the status, not in errors', async () => {
    const { state, release } = await acquireSharedState(
      parseStateUrl(`redis://user:hunter2secret@127.0.0.1:${redis.port}/0`, 'flag'),
    );
    expect(state.status().health).toBe('degraded'); // WRONGPASS: no such user
    expect(JSON.stringify(state.status())).not.toContain('hunter2secret');
    expect(state.status().url).toBe(`redis://user:***@127.0.0.1:${redis.port}/0`);
    await release();
  });
});
