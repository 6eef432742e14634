// Hostile cases of serve at scale (issue 25): a cloned project cannot send the user's call records to
// its own Redis, the Redis password never shows, a client cannot escape its rate limit by naming
// itself anew in X-Forwarded-For, and the health endpoints tell a tokenless caller nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { SharedState } from '../../src/state/shared.js';
import { parseStateUrl } from '../../src/state/url.js';
import { cli, spawnCli, testConfigEnv } from '../helpers.js';
import { callTool, scaleProject } from '../scale/project.js';
import { expected } from './cases.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { freePort, startRedis } from '../../deploy/local-cluster.mjs';

type Redis = { port: number; url: string; child: import('node:child_process').ChildProcess; exited: Promise<unknown> };
let redis: Redis;
let admin: SharedState;
const proj = scaleProject();
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() };

beforeAll(async () => {
  redis = (await startRedis()) as Redis;
  admin = await SharedState.open(parseStateUrl(redis.url, 'flag'), { connectWaitMs: 5000 });
}, 60_000);
afterAll(async () => {
  await admin.close();
  redis.child.kill('SIGKILL');
  await redis.exited;
  proj.cleanup();
});

const connections = async () => Number(/total_connections_received:(\d+)/.exec(await admin.redis.info('stats'))![1]);

describe('a cloned project and the shared state', () => {
  it("a project's config cannot name a state store; a config file inside the project does not count", async () => {
    expect(expected('state-project-redis', 'bwrap')).toBe('blocked');
    const before = await connections();
    proj.write('toolbox.config.yaml', `state: ${redis.url}\n`);
    // Ignored (work goes on, on local state), and said so at its line:column: never connected.
    const r = await cli(['run', 'echo_text', '--text', 'x', '--verbose', '--registry', proj.registry], {
      cwd: proj.dir,
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/toolbox\.config\.yaml:1:1: state in the project's config is ignored/);
    const v = await cli(['validate', '--no-routing', '--json', '--registry', proj.registry], { cwd: proj.dir, env });
    const found = (v.json.diagnostics as { rule: string; line: number; severity: string }[]).filter(
      (d) => d.rule === 'config-user-only',
    );
    expect(found.map((d) => `${d.line} ${d.severity}`)).toEqual(['1 warning']);
    proj.write('toolbox.config.yaml', 'runtime:\n  breaker: { failures: 3, window: 60, cooldown: 30 }\n');
    // The project ships .config/toolbox/config.yaml and a tool (or a README) gets XDG_CONFIG_HOME pointed at it.
    mkdirSync(join(proj.dir, '.config', 'toolbox'), { recursive: true, mode: 0o700 });
    writeFileSync(join(proj.dir, '.config', 'toolbox', 'config.yaml'), `state: ${redis.url}\n`, { mode: 0o600 });
    const ok = await cli(['run', 'echo_text', '--text', 'x', '--registry', proj.registry], {
      cwd: proj.dir,
      env: { ...env, XDG_CONFIG_HOME: join(proj.dir, '.config') },
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(await connections()).toBe(before); // nothing ever connected
  });
});

describe('the Redis password', () => {
  it('never shows: not in warnings, --verbose, --json, doctor or errors', async () => {
    expect(expected('state-password-shown', 'bwrap')).toBe('blocked');
    const closed = await freePort();
    const secret = 'hunter2-very-secret';
    const url = `redis://app:${secret}@127.0.0.1:${closed}/0`;
    const runs = [
      ['run', 'echo_text', '--text', 'x', '--state', url, '--verbose'],
      ['run', 'echo_text', '--text', 'x', '--state', url, '--json'],
      ['stats', '--state', url],
      ['stats', '--state', url, '--json'],
      ['doctor', '--state', url, '--json'],
      ['doctor', '--state', url],
      ['stats', '--state', `redis://app:${secret}@127.0.0.1:${closed}/zz`],
    ];
    for (const argv of runs) {
      const r = await cli([...argv, '--registry', proj.registry], { cwd: proj.dir, env });
      expect(r.stdout + r.stderr, argv.join(' ')).not.toContain(secret);
      expect(r.stdout + r.stderr, argv.join(' ')).toContain('app:***@');
    }
    // The same from the environment; and a wrong password against a live Redis (its error echoes nothing).
    const r = await cli(['run', 'echo_text', '--text', 'x', '--verbose', '--registry', proj.registry], {
      cwd: proj.dir,
      env: { ...env, TOOLBOX_STATE_URL: `redis://app@127.0.0.1:${redis.port}/0`, TOOLBOX_STATE_PASSWORD: secret },
    });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stderr).toContain('unreachable');
  });
});

describe('serve --http limits and health', () => {
  async function start(o: { trustProxy?: boolean; shared?: SharedState }) {
    const core = new ServeCore(resolveProject({ cwd: proj.dir, registry: proj.registry }), {
      expose: 'all',
      caller: {},
      env,
      ...(o.shared ? { shared: o.shared } : {}),
    });
    const ac = new AbortController();
    let done!: Promise<void>;
    const url = await new Promise<string>((res, rej) => {
      done = serveHttp(core, {
        port: 0,
        host: '127.0.0.1',
        token: 'a-token-of-at-least-16-chars',
        signal: ac.signal,
        clients: { clientRate: { count: 2, periodMs: 60_000 } },
        ...(o.trustProxy ? { trustProxy: true } : {}),
        onListening: res,
      });
      done.catch(rej);
    });
    return {
      url,
      headers: { authorization: 'Bearer a-token-of-at-least-16-chars' },
      stop: async () => {
        ac.abort();
        await done;
        await core.close();
      },
    };
  }

  it('X-Forwarded-For is ignored unless --trust-proxy: a client cannot rename itself past its rate', async () => {
    expect(expected('serve-forwarded-for-spoof', 'bwrap')).toBe('blocked');
    const s = await start({});
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await callTool(s.url, { ...s.headers, 'x-forwarded-for': `10.0.0.${i}` }, 'echo_text', { text: 'x' }))
            .status,
        );
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await s.stop();
    }
    // Behind a balancer that sets it (--trust-proxy), each address is its own client.
    const t = await start({ trustProxy: true });
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await callTool(t.url, { ...t.headers, 'x-forwarded-for': `10.0.0.${i}` }, 'echo_text', { text: 'x' }))
            .status,
        ).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it('/healthz and /readyz answer without the token and say one word, nothing about the state store', async () => {
    expect(expected('serve-health-reveals', 'bwrap')).toBe('blocked');
    const shared = await SharedState.open(parseStateUrl(`redis://x:pw-hidden@127.0.0.1:${redis.port}/0`, 'flag'));
    const s = await start({ shared });
    try {
      const base = s.url.replace(/\/mcp$/, '');
      for (const path of ['/healthz', '/readyz', '/readyz?verbose=1', '/healthz/../readyz']) {
        const r = await fetch(base + path);
        const text = await r.text();
        expect(Object.keys(JSON.parse(text) as object)).toEqual(['status']);
        expect(text).not.toMatch(/redis|pw-hidden|toolbox|\d+\.\d+/i);
        expect(r.headers.get('server')).toBeNull();
      }
      expect((await fetch(`${base}/readyz`)).status).toBe(200); // degraded (wrong password) but serving
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'degraded' });
      expect((await fetch(`${base}/mcp`, { method: 'POST', body: '{}' })).status).toBe(401);
    } finally {
      await s.stop();
      await shared.close();
    }
  });
});

describe('rediss:// (TLS) with a password', () => {
  it('connects only to a server whose certificate it trusts; the password shows nowhere, the report included', async () => {
    expect(expected('state-password-shown', 'bwrap')).toBe('blocked');
    const dir = mkdtempSync(join(tmpdir(), 'toolbox-tls-'));
    const ossl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2'];
    ossl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=toolbox-test-ca']);
    ossl(
      ['req', '-x509', ...ec, '-keyout', 'server.key', '-out', 'server.pem', '-subj', '/CN=127.0.0.1'].concat([
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
      ]),
    );
    const secret = 'tls-pass-w0rd-secret';
    const tls = (await startRedis(undefined, {
      password: secret,
      tls: { cert: join(dir, 'server.pem'), key: join(dir, 'server.key'), ca: join(dir, 'ca.pem') },
    })) as Redis;
    try {
      // The real binary: Node reads NODE_EXTRA_CA_CERTS (the user's own CA) when a process starts.
      const plain = { ...env, TOOLBOX_DAEMON: 'off' };
      const trusted = { ...plain, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') };
      const tb = (argv: string[], e: NodeJS.ProcessEnv = trusted) =>
        spawnCli([...argv, '--registry', proj.registry], { cwd: proj.dir, env: e });
      const shown: string[] = [];
      const ok = await tb(['run', 'echo_text', '--text', 'over tls', '--state', tls.url, '--verbose']);
      shown.push(ok.stdout + ok.stderr);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain(`state: connected to rediss://:***@127.0.0.1:${tls.port}/0`);
      const stats = await tb(['stats', '--json', '--state', tls.url]);
      shown.push(stats.stdout + stats.stderr);
      const tools = (JSON.parse(stats.stdout) as { tools: { tool: string; calls: number }[] }).tools;
      expect(tools.find((t) => t.tool === 'echo_text')?.calls).toBe(1);
      const doctor = await tb(['doctor', '--json', '--state', tls.url]);
      shown.push(doctor.stdout + doctor.stderr);
      expect(JSON.parse(doctor.stdout).shared).toMatchObject({
        health: 'connected',
        url: `rediss://:***@127.0.0.1:${tls.port}/0`,
      });
      const html = join(dir, 'report.html');
      const rep = await tb(['stats', '--state', tls.url, '--report', html]);
      expect(rep.code, rep.stderr).toBe(0);
      shown.push(rep.stdout + rep.stderr, readFileSync(html, 'utf8'));
      // A certificate nobody vouched for: not connected (the call still works, on local state).
      const untrusted = await tb(['run', 'echo_text', '--text', 'x', '--state', tls.url], plain);
      shown.push(untrusted.stdout + untrusted.stderr);
      expect(untrusted.code, untrusted.stderr).toBe(0);
      expect(untrusted.stderr).toContain('unreachable');
      for (const text of shown) expect(text).not.toContain(secret);
      for (const text of shown) expect(text).not.toContain('DeprecationWarning'); // no SNI for an IP address
    } finally {
      tls.child.kill('SIGKILL');
      await tls.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
