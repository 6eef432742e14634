// `run --state` through the resident daemon and directly: both log to the shared store (not the
// project's .toolbox/), `stats --state` adds them up, and the daemon keeps one connection to Redis for
// all its calls instead of one per call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedState } from '../../src/state/shared.js';
import { parseStateUrl } from '../../src/state/url.js';
import { daemonProject } from '../daemon/helpers.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { startRedis } from '../../deploy/local-cluster.mjs';

type Redis = { port: number; url: string; child: import('node:child_process').ChildProcess; exited: Promise<unknown> };
let redis: Redis;
let admin: SharedState;
const p = daemonProject('toolbox-state-daemon-test');
const OFF = { TOOLBOX_DAEMON: 'off' };

beforeAll(async () => {
  redis = (await startRedis()) as Redis;
  admin = await SharedState.open(parseStateUrl(redis.url, 'flag'), { connectWaitMs: 5000 });
  const r = await p.tb(['daemon', 'start', '--json', '--idle', '5m']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await p.cleanup();
  await admin.close();
  redis.child.kill('SIGKILL');
  await redis.exited;
}, 60_000);

/** Connections named by toolbox that Redis has open now (the admin connection is one of them). */
const toolboxClients = async () =>
  String(await admin.redis.call('CLIENT', 'LIST'))
    .split('\n')
    .filter((l) => / name=toolbox /.test(l)).length;

const addCalls = async (state: string) => {
  const r = await p.tb(['stats', '--json', '--state', state], { env: OFF });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { tools: { tool: string; calls: number }[] }).tools.find((t) => t.tool === 'add')
    ?.calls;
};

describe('run --state through the daemon and directly', () => {
  it('both calls reach the shared log; the daemon keeps its one connection between calls', async () => {
    const before = (await p.status()).requests as number;
    const baseline = await toolboxClients();
    const via = await p.tb(['run', 'add', '--a', '2', '--b', '3', '--state', redis.url]);
    expect(via.code, via.stderr).toBe(0);
    expect(via.stdout.trim()).toBe('5');
    expect((await p.status()).requests).toBe(before + 1); // the daemon answered it
    const direct = await p.tb(['run', 'add', '--a', '1', '--b', '1'], {
      env: { ...OFF, TOOLBOX_STATE_URL: redis.url },
    });
    expect(direct.code, direct.stderr).toBe(0);
    expect(await addCalls(redis.url)).toBe(2);
    expect(await addCalls('off')).toBeUndefined(); // nothing went to the project's .toolbox/
    // The direct process has exited and closed its connection; the daemon still holds its own.
    await expect.poll(toolboxClients, { timeout: 10_000 }).toBe(baseline + 1);
    const again = await p.tb(['run', 'add', '--a', '4', '--b', '4', '--state', redis.url]);
    expect(again.stdout.trim()).toBe('8');
    expect(await toolboxClients()).toBe(baseline + 1); // the same connection, not a new one per call
  }, 60_000);
});
