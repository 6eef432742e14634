// The topology of compose.yaml as real processes on loopback: redis-server, three `toolbox serve
// --http --state redis://…` replicas and HAProxy with deploy/haproxy.cfg in front. Each test asserts
// what must hold, with generous bounds on time (the machine may be loaded), never a speed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, testConfigEnv } from '../helpers.js';
import { TEXT, callTool, contract, errorCode, scaleProject } from './project.js';
import { modernPost } from '../serve/fixtures.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { startCluster, startRedis } from '../../deploy/local-cluster.mjs';

type Proc = { child: import('node:child_process').ChildProcess; exited: Promise<unknown>; stderr: () => string };
type Replica = Proc & { port: number; url: string; base: string };
type Cluster = {
  token: string;
  headers: Record<string, string>;
  redis: Proc & { port: number; url: string };
  replicas: Replica[];
  lb: Proc & { url: string; base: string };
  restart: (i: number) => Promise<Replica>;
  stop: () => Promise<void>;
};

const proj = scaleProject();
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() };
let c: Cluster;
const TIER = expect.stringMatching(/^(bwrap|unshare|none)$/);

beforeAll(async () => {
  c = (await startCluster({ registry: proj.registry, cwd: proj.dir, env })) as Cluster;
}, 120_000);

afterAll(async () => {
  await c?.stop();
  proj.cleanup();
});

const readyz = async (base: string) => {
  const r = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) });
  return { status: r.status, body: (await r.json()) as { status: string } };
};

const statsJson = async (extra: string[]) => {
  const r = await cli(['stats', '--json', '--registry', proj.registry, ...extra], { cwd: proj.dir, env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { tools: { tool: string; calls: number; breaker: string }[] }).tools;
};

describe('serve behind HAProxy with shared state', () => {
  it('health endpoints need no token and say only a status word', async () => {
    for (const r of c.replicas) {
      const h = await fetch(`${r.base}/healthz`);
      expect(h.status).toBe(200);
      expect(await h.json()).toEqual({ status: 'alive' });
      // The word, and the sandbox tier calls run under (no secret: a balancer and an operator must see it).
      expect(await readyz(r.base)).toEqual({ status: 200, body: { status: 'ready', sandbox: TIER } });
    }
    // The MCP endpoint still needs the token.
    expect((await callTool(c.lb.url, {}, 'echo_text', { text: 'x' })).status).toBe(401);
  });

  it('a breaker opened through one replica is open on the others within a second', async () => {
    const [a, b, d] = c.replicas as [Replica, Replica, Replica];
    for (let i = 0; i < 3; i++) {
      const r = await callTool(a.url, c.headers, 'flaky', { text: String(i) });
      expect(errorCode(r.result)).toBe('tool_failed');
    }
    const t0 = Date.now();
    for (const other of [b, d]) {
      const r = await callTool(other.url, c.headers, 'flaky', { text: 'after' });
      expect(errorCode(r.result)).toBe('circuit_open');
    }
    expect(Date.now() - t0).toBeLessThan(15_000); // the calls themselves; the state was there at once
  });

  it('stats --state adds up the calls of every replica (the local log has none of them)', async () => {
    const n = 9;
    for (let i = 0; i < n; i++) {
      const via = c.replicas[i % 3]!;
      const r = await callTool(via.url, c.headers, 'echo_text', { text: `s${i}` });
      expect(r.result?.structuredContent).toEqual({ echo: `s${i}` });
    }
    await expect
      .poll(async () => (await statsJson(['--state', c.redis.url])).find((t) => t.tool === 'echo_text')?.calls, {
        timeout: 10_000,
      })
      .toBe(n);
    const shared = await statsJson(['--state', c.redis.url]);
    expect(shared.find((t) => t.tool === 'flaky')).toMatchObject({ calls: 5, breaker: 'open' });
    // The HTML report reads the same source.
    const html = join(proj.dir, 'deployment.html');
    const rep = await cli(['stats', '--state', c.redis.url, '--report', html, '--registry', proj.registry], {
      cwd: proj.dir,
      env,
    });
    expect(rep.code, rep.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('echo_text');
    // Without --state: this machine's .toolbox/ only, where nothing was written while Redis answered.
    expect((await statsJson(['--state', 'off'])).find((t) => t.tool === 'echo_text')).toBeUndefined();
  });

  it('a task made on one replica is followed to its result through the others (the store is in Redis)', async () => {
    const [a, b, d] = c.replicas as [Replica, Replica, Replica];
    const meta = {
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const created = await modernPost(
      a.url,
      'tools/call',
      { name: 'build', arguments: { seconds: 3 } },
      { meta, headers: c.headers },
    );
    const t = created.final!.result as { resultType: string; taskId: string };
    expect(t.resultType).toBe('task');
    const get = async (url: string) =>
      (
        await modernPost(
          url,
          'tasks/get',
          { taskId: t.taskId },
          { meta, headers: { ...c.headers, 'mcp-name': t.taskId } },
        )
      ).final!.result as { status: string; result?: { structuredContent?: unknown } };
    expect((await get(b.url)).status).toBe('working'); // stored before the handle was returned
    await expect.poll(async () => (await get(d.url)).status, { timeout: 30_000 }).toBe('completed');
    expect((await get(b.url)).result?.structuredContent).toEqual({ built: 3 });
  }, 60_000);

  it('a registry change is picked up by every replica without a restart', async () => {
    proj.write(
      'tool_registry/shout.yaml',
      contract('shout', 'echo', 'Repeat a text back, loudly. Use to test reloads.', TEXT),
    );
    for (const r of c.replicas)
      await expect
        .poll(async () => (await callTool(r.url, c.headers, 'shout', { text: 'hi' })).result?.structuredContent, {
          timeout: 30_000,
          interval: 250,
        })
        .toEqual({ echo: 'hi' });
  }, 60_000);

  it('SIGTERM drains: /readyz answers 503, new calls get 503 + Retry-After, the slow call finishes, exit 0', async () => {
    const r = c.replicas[2]!;
    try {
      const slow = callTool(r.url, c.headers, 'nap', { seconds: 4 });
      // The call is running once the replica counts it (the sandboxed worker may take a moment to start).
      await new Promise((res) => setTimeout(res, 1500));
      r.child.kill('SIGTERM');
      await expect.poll(async () => (await readyz(r.base)).status, { timeout: 5000 }).toBe(503);
      expect((await readyz(r.base)).body).toEqual({ status: 'draining', sandbox: TIER });
      const refused = await callTool(r.url, c.headers, 'echo_text', { text: 'late' });
      expect(refused.status).toBe(503);
      expect(refused.retryAfter).toBe('1');
      // Through the balancer, calls go on (HAProxy retries a 503 elsewhere, then marks the replica down).
      for (let i = 0; i < 4; i++)
        expect(
          (await callTool(c.lb.url, c.headers, 'echo_text', { text: `lb${i}` })).result?.structuredContent,
        ).toEqual({
          echo: `lb${i}`,
        });
      const done = await slow;
      expect(done.status).toBe(200);
      expect(done.result?.structuredContent).toEqual({ slept: 4 });
      expect(await r.exited).toBe(0);
      expect(r.stderr()).toContain('drained');
    } finally {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
      await r.exited;
      await c.restart(2);
    }
  }, 60_000);

  it('a replica killed with SIGKILL mid-load loses at most its own calls in flight; every call answers', async () => {
    const total = 45;
    const width = 9;
    const victim = c.replicas[0]!;
    let started = 0;
    let killedAt = -1;
    let deadAt = -1;
    void victim.exited.then(() => (deadAt = Date.now()));
    const results: { status: number; ok: boolean; servedBy?: string | null; cause?: string; t0: number; t1: number }[] =
      [];
    const worker = async () => {
      while (started < total) {
        const i = started++;
        if (i === 15) {
          killedAt = Date.now();
          victim.child.kill('SIGKILL');
        }
        const t0 = Date.now();
        const r = await callTool(c.lb.url, c.headers, 'nap', { seconds: 0.3 }, 60_000);
        results.push({
          status: r.status,
          ok: r.result?.structuredContent?.slept === 0.3,
          servedBy: r.servedBy,
          ...(r.cause ? { cause: r.cause } : {}),
          t0,
          t1: Date.now(),
        });
      }
    };
    try {
      await Promise.all(Array.from({ length: width }, worker));
    } finally {
      await victim.exited;
      await c.restart(0);
    }
    expect(results).toHaveLength(total); // every call answered (each has its own 60 s bound: none hung)
    expect(deadAt).toBeGreaterThan(0);
    const failed = results.filter((r) => !r.ok);
    for (const f of failed) {
      // A lost call was the killed replica's, in flight while it died: HAProxy answers 502 naming it
      // (X-Served-By) or, on a kept-alive client connection, closes that connection without an answer
      // (as a server closing an idle connection would; the client sees "other side closed").
      if (f.status === 502) expect(f.servedBy, JSON.stringify(f)).toBe('r1');
      else expect(f, JSON.stringify(f)).toMatchObject({ status: 0, cause: 'UND_ERR_SOCKET' });
      expect(f.t0).toBeLessThanOrEqual(deadAt);
      expect(f.t1).toBeGreaterThanOrEqual(killedAt);
    }
    expect(failed.length).toBeLessThanOrEqual(width);
    // Calls that started once it was dead found a live replica (a refused connection is retried elsewhere).
    const later = results.filter((r) => r.t0 > deadAt);
    expect(later.length).toBeGreaterThan(0);
    expect(later.filter((r) => !r.ok)).toEqual([]);
    expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(total - width);
  }, 120_000);

  it('Redis stopped mid-run: calls go on, /readyz says degraded; once it is back, ready again and the calls made meanwhile are in the shared log', async () => {
    const port = c.redis.port;
    c.redis.child.kill('SIGKILL');
    await c.redis.exited;
    await expect
      .poll(async () => (await readyz(c.replicas[1]!.base)).body.status, { timeout: 10_000 })
      .toBe('degraded');
    expect((await readyz(c.replicas[1]!.base)).status).toBe(200); // still serving
    for (let i = 0; i < 6; i++) {
      const r = await callTool(c.lb.url, c.headers, 'echo_text', { text: `down${i}` });
      expect(r.result?.structuredContent).toEqual({ echo: `down${i}` });
    }
    expect(c.replicas.some((r) => r.stderr().includes('unreachable'))).toBe(true);
    c.redis = await startRedis(port);
    for (const r of c.replicas)
      await expect.poll(async () => (await readyz(r.base)).body.status, { timeout: 20_000 }).toBe('ready');
    // The new Redis is empty: what is there now are the calls logged while it was away.
    await expect
      .poll(async () => (await statsJson(['--state', c.redis.url])).find((t) => t.tool === 'echo_text')?.calls, {
        timeout: 10_000,
      })
      .toBe(6);
    expect(c.replicas.some((r) => r.stderr().includes('state: connected'))).toBe(true);
  }, 90_000);
});
