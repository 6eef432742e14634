// The topology of compose.yaml (Redis, toolbox serve replicas, HAProxy with deploy/haproxy.cfg) as
// processes on loopback, for the tests and `npm run bench -- scale-out`, and for trying it without
// a container engine:
//
//   node deploy/local-cluster.mjs --registry tool_registry [--replicas 3]
//
// prints the balancer's URL and the token, and runs until Ctrl+C. Nothing here listens beyond
// 127.0.0.1.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const HAPROXY_CFG = join(here, 'haproxy.cfg');
const BIN = resolve(here, '..', 'bin', 'toolbox.js');

/** A Debian program that may live in /usr/sbin, which a user's PATH may lack. */
const sbin = (name) =>
  (process.env.PATH ?? '')
    .split(':')
    .map((d) => join(d, name))
    .find((p) => existsSync(p)) ??
  ['/usr/sbin', '/usr/bin'].map((d) => join(d, name)).find((p) => existsSync(p)) ??
  name;

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/**
 * Start `cmd` so that it dies with this process even when this one is killed outright (a test runner
 * ending its worker): the kernel's parent-death signal, set by util-linux's setpriv where it exists.
 */
function spawnBound(cmd, args, opts) {
  return SETPRIV ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', cmd, ...args], opts) : spawn(cmd, args, opts);
}

/** A free TCP port on 127.0.0.1 (free when asked: good enough for a test on one machine). */
export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Wait until `t` is up; a process that does not come up is killed (never left behind). */
const up = async (t, what, fn, ms) => {
  try {
    await until(what, fn, ms);
  } catch (e) {
    t.child.kill('SIGKILL');
    await t.exited;
    throw e;
  }
};

const until = async (what, fn, ms = 20_000) => {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await fn()) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Every process started here that still runs: killed when this process exits, however it exits. */
const running = new Set();
/** Scratch folders of those processes: removed when their process ends, or when this one exits. */
const scratch = new Set();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** A scratch folder, removed by dropScratch() or when this process exits. */
function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.add(dir);
  return dir;
}

function dropScratch(dir) {
  rmSync(dir, { recursive: true, force: true });
  scratch.delete(dir);
}

function track(child) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  let err = '';
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (err += c));
  const exited = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  return { child, exited, stdout: () => out, stderr: () => err };
}

/**
 * redis-server on a loopback port, nothing saved to disk. `o.password`: requirepass; `o.tls`: { cert,
 * key, ca } files, and the port speaks TLS only (rediss://).
 */
export async function startRedis(port, o = {}) {
  port ??= await freePort();
  // Nothing is saved (no RDB, no AOF): its working folder only has to exist, and stays empty.
  const dir = tmpdir();
  const listen = o.tls
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', o.tls.cert, '--tls-key-file', o.tls.key]
    : ['--port', String(port)];
  if (o.tls) listen.push('--tls-ca-cert-file', o.tls.ca, '--tls-auth-clients', 'no');
  if (o.password) listen.push('--requirepass', o.password);
  const t = track(
    spawnBound(
      sbin('redis-server'),
      [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  await up(t, 'redis-server', async () => {
    if (t.child.exitCode !== null) throw new Error(`redis-server exited: ${t.stdout()}${t.stderr()}`);
    return t.stdout().includes('Ready to accept connections');
  });
  const cred = o.password ? `:${encodeURIComponent(o.password)}@` : '';
  const url = `${o.tls ? 'rediss' : 'redis'}://${cred}127.0.0.1:${port}/0`;
  return { ...t, port, url, stop: () => (t.child.kill('SIGTERM'), t.exited) };
}

/**
 * `toolbox serve --http PORT` on 127.0.0.1 with the shared state, the token from the environment and
 * X-Forwarded-For trusted (HAProxy sets it). Resolves once it listens.
 */
export async function startReplica(o) {
  const port = o.port ?? (await freePort());
  const state = scratchDir('toolbox-replica-');
  const args = [BIN, 'serve', '--registry', o.registry, '--http', String(port), '--host', '127.0.0.1'];
  args.push('--token-env', 'TOOLBOX_TOKEN', '--trust-proxy', '--json', ...(o.args ?? []));
  if (o.stateUrl) args.push('--state', o.stateUrl);
  const t = track(
    spawnBound(process.execPath, args, {
      env: { ...o.env, TOOLBOX_TOKEN: o.token, XDG_STATE_HOME: state },
      cwd: o.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  void t.exited.then(() => dropScratch(state));
  await up(
    t,
    `replica on ${port}`,
    async () => {
      if (t.child.exitCode !== null) throw new Error(`replica exited ${t.child.exitCode}: ${t.stderr()}`);
      return t.stdout().includes('"url"');
    },
    60_000,
  );
  return { ...t, port, url: `http://127.0.0.1:${port}/mcp`, base: `http://127.0.0.1:${port}` };
}

/** HAProxy with deploy/haproxy.cfg in front of `servers` (three host:port; repeat one for a single replica). */
export async function startHaproxy(servers, port) {
  port ??= await freePort();
  const stats = await freePort();
  const t = track(
    spawnBound(sbin('haproxy'), ['-f', HAPROXY_CFG, '-db'], {
      env: {
        PATH: process.env.PATH,
        TOOLBOX_LB_BIND: `127.0.0.1:${port}`,
        TOOLBOX_LB_STATS: `127.0.0.1:${stats}`,
        TOOLBOX_R1: servers[0],
        TOOLBOX_R2: servers[1] ?? servers[0],
        TOOLBOX_R3: servers[2] ?? servers[0],
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  await up(t, 'haproxy', async () => {
    if (t.child.exitCode !== null) throw new Error(`haproxy exited: ${t.stderr()}`);
    return (await fetch(`${base}/readyz`)).status === 200;
  });
  return { ...t, port, base, url: `${base}/mcp`, statsUrl: `http://127.0.0.1:${stats}/` };
}

/** Redis, `replicas` serve processes and HAProxy, on loopback. `stop()` ends them all. */
export async function startCluster(o) {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const env = o.env ?? { PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp' };
  const replicas = [];
  let redis;
  let lb;
  try {
    redis = o.redis === false ? undefined : await startRedis();
    for (let i = 0; i < (o.replicas ?? 3); i++)
      replicas.push(
        await startReplica({ registry: o.registry, stateUrl: redis?.url, token, env, args: o.args, cwd: o.cwd }),
      );
    lb = await startHaproxy(replicas.map((r) => `127.0.0.1:${r.port}`));
  } catch (e) {
    // Whatever started before the failure is stopped again.
    const all = [...replicas, redis].filter(Boolean);
    for (const p of all) p.child.kill('SIGKILL');
    await Promise.all(all.map((p) => p.exited));
    throw e;
  }
  /** Start replica `i` again on its port (after it stopped). */
  const restart = async (i) => {
    replicas[i] = await startReplica({
      registry: o.registry,
      stateUrl: redis?.url,
      token,
      env,
      args: o.args,
      cwd: o.cwd,
      port: replicas[i].port,
    });
    return replicas[i];
  };
  const cluster = { token, headers: { authorization: `Bearer ${token}` }, redis, replicas, lb, restart };
  /** Kill everything (the current Redis and replicas: tests replace them). */
  cluster.stop = async () => {
    const all = [cluster.lb, ...cluster.replicas, cluster.redis].filter(Boolean);
    for (const p of all) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(all.map((p) => p.exited));
  };
  return cluster;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, d) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : d;
  };
  const c = await startCluster({
    registry: resolve(arg('--registry', 'tool_registry')),
    replicas: Number(arg('--replicas', '3')),
    env: process.env,
  });
  process.stdout.write(
    `toolbox behind HAProxy: ${c.lb.url}\ntoken: ${c.token}\nHAProxy stats: ${c.lb.statsUrl}\nRedis: ${c.redis.url}\nreplicas: ${c.replicas.map((r) => r.url).join(' ')}\nCtrl+C stops everything.\n`,
  );
  await new Promise((r) => process.once('SIGINT', r));
  await c.stop();
}
