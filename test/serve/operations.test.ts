// What an operator sees of a real `toolbox serve --http` process: the sandbox tier (start line,
// /readyz, every call's _meta), `--log-format json` (one line per request), `GET /metrics` (scraped
// and parsed as Prometheus's text format), and /readyz saying "not ready" when calls cannot run.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, spawnCli, testConfigEnv } from '../helpers.js';
import { serveProject } from './fixtures.js';
import { parseExposition, sample } from './prometheus-text.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { freePort, startRedis, startReplica } from '../../deploy/local-cluster.mjs';

type Replica = {
  child: import('node:child_process').ChildProcess;
  exited: Promise<unknown>;
  stdout: () => string;
  stderr: () => string;
  base: string;
  url: string;
};

const proj = serveProject();
const token = 'ops-test-token-0123456789abcdef';
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() };
const auth = { authorization: `Bearer ${token}` };
let r: Replica;
let tier: string;

async function sdkClient(url: string) {
  const client = new Client({ name: 'ops-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } }));
  return client;
}

const stop = async (p: Replica) => {
  p.child.kill('SIGINT');
  await p.exited;
};

beforeAll(async () => {
  r = (await startReplica({
    registry: join(proj.dir, 'tool_registry'),
    cwd: proj.dir,
    env,
    token,
    args: ['--expose', 'all', '--log-format', 'json'],
  })) as Replica;
  tier = (JSON.parse(r.stdout()) as { sandbox: string }).sandbox;
}, 90_000);

afterAll(async () => {
  if (r) await stop(r);
  proj.cleanup();
});

describe('the sandbox tier is visible', () => {
  it('in the start line, /readyz and every call result', async () => {
    expect(['bwrap', 'unshare', 'none']).toContain(tier);
    const start = r
      .stderr()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { message?: string });
    expect(start.some((l) => l.message?.includes(`sandbox ${tier}`))).toBe(true);
    const ready = await fetch(`${r.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', sandbox: tier });
    const client = await sdkClient(r.url);
    try {
      const ok = await client.callTool({ name: 'echo_text', arguments: { text: 'hi' } });
      expect(ok.isError).toBeFalsy();
      expect(ok._meta?.['toolbox/sandbox']).toBe(tier);
      const bad = await client.callTool({ name: 'add_numbers', arguments: { a: 'x', b: 2 } });
      expect(bad.isError).toBe(true);
      expect(bad._meta?.['toolbox/sandbox']).toBe(tier);
      expect((bad._meta?.['toolbox/error'] as { code: string }).code).toBe('invalid_arguments');
    } finally {
      await client.close();
    }
  });
});

describe('--log-format json and /metrics', () => {
  it('log one JSON line per request, with client, tool, outcome, duration and replica', async () => {
    const client = await sdkClient(r.url);
    await client.callTool({ name: 'echo_text', arguments: { text: 'logged' } });
    await client.callTool({ name: 'add_numbers', arguments: { a: 1 } });
    // An unknown tool is a protocol error (-32602): logged as a tools/call all the same.
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
    await fetch(`${r.base}/readyz`); // health checks are not logged
    const lines = r
      .stderr()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>); // every line is JSON
    const calls = lines.filter((l) => l.method === 'tools/call');
    const ok = calls.find((l) => l.tool === 'echo_text' && l.outcome === 'ok');
    expect(ok).toMatchObject({ level: 'info', client: 'local', status: 200 });
    expect(typeof ok!.replica).toBe('string');
    expect(ok!.duration_ms as number).toBeGreaterThan(0);
    expect(Date.parse(ok!.time as string)).not.toBeNaN();
    expect(calls.find((l) => l.tool === 'add_numbers')?.outcome).toBe('invalid_arguments');
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.method === 'initialize')).toBe(true);
    expect(lines.some((l) => String(l.message ?? '').includes('readyz'))).toBe(true); // messages are lines too
    expect(lines.some((l) => JSON.stringify(l).includes(token))).toBe(false);
  });

  it('/metrics needs the token and is valid exposition text with calls, failures, latency, in flight, tier', async () => {
    expect((await fetch(`${r.base}/metrics`)).status).toBe(401);
    const scrape = async () => {
      const res = await fetch(`${r.base}/metrics`, { headers: auth });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return parseExposition(await res.text()); // throws on any line that is not the format
    };
    const before = await scrape();
    const was = (name: string, labels: Record<string, string>) => sample(before, name, labels) ?? 0;
    const client = await sdkClient(r.url);
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'add_numbers', arguments: { a: i, b: 1 } });
    await client.callTool({ name: 'add_numbers', arguments: { a: 'nope' } });
    await expect(client.callTool({ name: 'made_up_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
    const m = await scrape();
    expect(m.types.get('toolbox_calls_total')).toBe('counter');
    expect(m.types.get('toolbox_call_duration_seconds')).toBe('histogram');
    const ok = { tool: 'add_numbers', outcome: 'ok' };
    expect(sample(m, 'toolbox_calls_total', ok)).toBe(was('toolbox_calls_total', ok) + 3);
    const bad = { tool: 'add_numbers', code: 'invalid_arguments' };
    expect(sample(m, 'toolbox_call_failures_total', bad)).toBe(was('toolbox_call_failures_total', bad) + 1);
    // A name that is not a registry tool never becomes a label (no client can add series).
    expect(m.samples.some((s) => s.labels.tool === 'made_up_tool')).toBe(false);
    // The histogram: buckets never decrease, +Inf equals _count.
    const buckets = m.samples
      .filter((s) => s.name === 'toolbox_call_duration_seconds_bucket' && s.labels.tool === 'add_numbers')
      .map((s) => s.value);
    expect(buckets.length).toBeGreaterThan(5);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1]!);
    expect(buckets.at(-1)).toBe(sample(m, 'toolbox_call_duration_seconds_count', { tool: 'add_numbers' }));
    const count = { tool: 'add_numbers' };
    expect(sample(m, 'toolbox_call_duration_seconds_count', count)).toBe(
      was('toolbox_call_duration_seconds_count', count) + 4,
    );
    expect(sample(m, 'toolbox_calls_in_flight', {})).toBe(0);
    expect(sample(m, 'toolbox_sandbox_tier', { tier })).toBe(1);
    expect(sample(m, 'toolbox_draining', {})).toBe(0);
    expect(sample(m, 'toolbox_http_requests_total', { code: '200' })).toBeGreaterThan(0);
  });
});

describe('refusing to serve unconfined', () => {
  it("refuses a non-loopback address when the tier would be 'none', unless --allow-unsandboxed", async () => {
    const refused = await spawnCli(
      ['serve', '--http', '0', '--host', '0.0.0.0', '--token-env', 'T', '--json', '--registry', 'tool_registry'],
      { cwd: proj.dir, env: { TOOLBOX_SANDBOX: 'none', T: token }, timeout: 30_000 },
    );
    expect(refused.code).toBe(2);
    const err = JSON.parse(refused.stderr.trim().split('\n').pop()!) as { error: { code: string; hint: string } };
    expect(err.error.code).toBe('serve_unsandboxed');
    expect(err.error.hint).toContain('--allow-unsandboxed');
    // Loopback stays allowed (a developer's own machine), and the flag allows it by name.
    const allowed = (await startReplica({
      registry: join(proj.dir, 'tool_registry'),
      cwd: proj.dir,
      env: { ...env, TOOLBOX_SANDBOX: 'none' },
      token,
      args: ['--host', '0.0.0.0', '--allow-unsandboxed', '--expose', 'all'],
    })) as Replica;
    try {
      expect((JSON.parse(allowed.stdout()) as { sandbox: string }).sandbox).toBe('none');
      expect(allowed.stderr()).toContain('sandbox none');
      expect(await (await fetch(`${allowed.base}/readyz`)).json()).toEqual({ status: 'ready', sandbox: 'none' });
      const client = await sdkClient(allowed.url);
      const res = await client.callTool({ name: 'echo_text', arguments: { text: 'x' } });
      expect(res._meta?.['toolbox/sandbox']).toBe('none');
      await client.close();
    } finally {
      await stop(allowed);
    }
  }, 90_000);
});

describe("compose's Redis password from a secret", () => {
  it('a replica reads it from TOOLBOX_STATE_PASSWORD_FILE: the right one connects, a wrong one only degrades', async () => {
    const secret = mkdtempSync(join(tmpdir(), 'toolbox-secret-'));
    const redis = (await startRedis(undefined, { password: 'pw-in-a-secret-file' })) as {
      port: number;
      stop: () => Promise<unknown>;
    };
    const replica = async (password: string) => {
      writeFileSync(join(secret, 'redis_password'), `${password}\n`, { mode: 0o600 });
      return (await startReplica({
        registry: join(proj.dir, 'tool_registry'),
        cwd: proj.dir,
        env: { ...env, TOOLBOX_STATE_PASSWORD_FILE: join(secret, 'redis_password') },
        token,
        stateUrl: `redis://127.0.0.1:${redis.port}/0`,
      })) as Replica;
    };
    try {
      const good = await replica('pw-in-a-secret-file');
      try {
        expect(await (await fetch(`${good.base}/readyz`)).json()).toMatchObject({ status: 'ready' });
        expect(good.stderr()).not.toContain('pw-in-a-secret-file');
      } finally {
        await stop(good);
      }
      const wrong = await replica('not-the-password');
      try {
        await expect
          .poll(async () => ((await (await fetch(`${wrong.base}/readyz`)).json()) as { status: string }).status, {
            timeout: 15_000,
          })
          .toBe('degraded');
      } finally {
        await stop(wrong);
      }
    } finally {
      await redis.stop();
      rmSync(secret, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('/readyz is not ready when calls cannot run', () => {
  it('without a writable temporary folder, and ready again once there is one', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'toolbox-ready-'));
    const temp = join(scratch, 'tmp'); // does not exist yet: nothing can be made there
    const p = (await startReplica({
      registry: join(proj.dir, 'tool_registry'),
      cwd: proj.dir,
      env: { ...env, TMPDIR: temp },
      token,
      args: ['--expose', 'all'],
    })) as Replica;
    try {
      const not = await fetch(`${p.base}/readyz`);
      expect(not.status).toBe(503);
      expect((await not.json()) as object).toMatchObject({ status: 'no_writable_temp' });
      // The claim behind it: a call fails here.
      const client = await sdkClient(p.url);
      expect((await client.callTool({ name: 'echo_text', arguments: { text: 'x' } })).isError).toBe(true);
      mkdirSync(temp);
      const end = Date.now() + 20_000;
      let status = 0;
      while (Date.now() < end && status !== 200) {
        status = (await fetch(`${p.base}/readyz`)).status;
        if (status !== 200) await new Promise((res) => setTimeout(res, 200));
      }
      expect(status).toBe(200);
      expect((await client.callTool({ name: 'echo_text', arguments: { text: 'x' } })).isError).toBeFalsy();
      await client.close();
    } finally {
      await stop(p);
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 90_000);
});

/**
 * A container engine's masked /proc, made for real: a user and mount namespace of this test in
 * which /proc/timer_list is covered (as Docker and Podman cover it), so bwrap cannot mount a /proc.
 */
function inMaskedProc(argv: string[], extraEnv: NodeJS.ProcessEnv) {
  const cache = mkdtempSync(join(tmpdir(), 'toolbox-masked-cache-'));
  const script = 'mount --bind /dev/null /proc/timer_list && exec "$@"';
  const child = spawn('unshare', ['-Urm', 'sh', '-c', script, 'sh', process.execPath, BIN, ...argv], {
    cwd: proj.dir,
    env: { ...env, XDG_CACHE_HOME: cache, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  void exited.then(() => rmSync(cache, { recursive: true, force: true }));
  return { child, exited, out: () => out, err: () => err };
}

describe('in a container with a masked /proc', () => {
  it("doctor names the masked /proc and the engine option, not 'install bubblewrap'", async () => {
    const d = inMaskedProc(['doctor', '--json', '--registry', 'tool_registry'], {});
    await d.exited;
    const report = JSON.parse(d.out()) as {
      sandbox: { tier: string; causes?: { code: string; fix: string }[]; warnings: string[] };
      problems: { area: string; message: string; fix: string }[];
    };
    expect(report.sandbox.tier).not.toBe('bwrap');
    expect(report.sandbox.causes?.map((c) => c.code)).toContain('proc_masked');
    const p = report.problems.find((x) => x.area === 'sandbox')!;
    expect(p.message).toContain('/proc is masked');
    expect(p.fix).toContain('systempaths=unconfined');
    expect(p.fix).not.toMatch(/install bubblewrap/);
    expect(report.sandbox.warnings.join(' ')).toContain('systempaths=unconfined');
  }, 60_000);

  it('a replica that requires bwrap there is not ready (every call would fail)', async () => {
    const port = (await freePort()) as number;
    const s = inMaskedProc(
      ['serve', '--http', String(port), '--token-env', 'T', '--registry', 'tool_registry', '--expose', 'all'],
      { TOOLBOX_SANDBOX: 'bwrap', T: token },
    );
    try {
      const end = Date.now() + 60_000;
      let res: Response | undefined;
      while (Date.now() < end && !res) {
        res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        if (!res) await new Promise((ok) => setTimeout(ok, 100));
      }
      expect(res?.status, s.err()).toBe(503);
      expect(await res!.json()).toEqual({ status: 'sandbox_unavailable' });
      expect(s.err()).toContain('sandbox unavailable');
    } finally {
      s.child.kill('SIGINT');
      await s.exited;
    }
  }, 90_000);
});
