// Drives the compose deployment deploy/test-containers.sh brought up: MCP calls through HAProxy with
// the official SDK client while replicas are killed, drained, restarted on a new address, and Redis
// is stopped. Prints one line per step and exits non-zero on the first broken promise.
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ENGINE = process.env.ENGINE ?? 'podman';
const LB = 'http://127.0.0.1:8765';
const STATS = 'http://127.0.0.1:8404/;csv';
const headers = { authorization: `Bearer ${process.env.TOOLBOX_TOKEN}` };
const engine = (...args) => execFileSync(ENGINE, args, { encoding: 'utf8' }).trim();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (s) => process.stdout.write(`${new Date().toISOString()} ${s}\n`);
const fail = (s) => {
  say(`FAIL: ${s}`);
  process.exit(1);
};

/** The container of a compose service (Docker: toolbox-toolbox-1-1; podman-compose 1.0.3 names the project after the folder: deploy_toolbox-1_1). */
const container = (service) =>
  engine('ps', '-a', '--format', '{{.Names}}')
    .split('\n')
    .find((n) => new RegExp(`^[a-z0-9]+[-_]${service}[-_]1$`).test(n)) ?? fail(`no container for ${service}`);
const ip = (name) => engine('inspect', name, '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}');

async function until(what, fn, ms = 120_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await fn()) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) fail(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** HAProxy's view of each replica: r1..r3 → UP / DOWN / MAINT… */
async function serverStatus() {
  const csv = await (await fetch(STATS)).text();
  const rows = csv.split('\n').map((l) => l.split(','));
  return Object.fromEntries(rows.filter((r) => r[0] === 'toolbox' && /^r\d$/.test(r[1])).map((r) => [r[1], r[17]]));
}

async function client() {
  const c = new Client({ name: 'container-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${LB}/mcp`), { requestInit: { headers } }));
  return c;
}

/** Calls in a loop until stopped: every outcome counted (a 2026-07-28-style fresh client per failure). */
function load(concurrency = 3) {
  const tally = { ok: 0, failed: 0, errors: [] };
  let running = true;
  const worker = async () => {
    let c = await client();
    while (running) {
      try {
        const r = await c.callTool({ name: 'calculator', arguments: { expression: '(3+4)*2^10' } });
        if (r.isError) throw new Error(JSON.stringify(r.content));
        tally.ok++;
      } catch (e) {
        tally.failed++;
        tally.errors.push(String(e.message ?? e).slice(0, 160));
        await c.close().catch(() => undefined);
        c = await client().catch(() => c);
      }
    }
    await c.close().catch(() => undefined);
  };
  const workers = Array.from({ length: concurrency }, worker);
  return {
    tally,
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return tally;
    },
  };
}

// 0. Up: HAProxy answers, all three replicas ready, a call through the SDK runs under bwrap.
await until('HAProxy and three ready replicas', async () => {
  const s = await serverStatus();
  return ['r1', 'r2', 'r3'].every((r) => s[r] === 'UP');
});
const ready = await (await fetch(`${LB}/readyz`)).json();
say(`readyz through HAProxy: ${JSON.stringify(ready)}`);
if (ready.sandbox !== 'bwrap') fail(`sandbox tier ${ready.sandbox}, not bwrap`);
const c0 = await client();
const first = await c0.callTool({ name: 'calculator', arguments: { expression: '6*7' } });
say(
  `first call: ${JSON.stringify(first.content?.[0]?.text ?? first.content).slice(0, 80)} _meta ${JSON.stringify(first._meta)}`,
);
if (first.isError || first._meta?.['toolbox/sandbox'] !== 'bwrap') fail('first call');
await c0.close();

// 1. SIGKILL toolbox-1 under load: only calls in flight on it may fail.
let l = load();
await sleep(3000);
engine('kill', '--signal', 'KILL', container('toolbox-1'));
await sleep(5000);
let t = await l.stop();
say(`SIGKILL toolbox-1: ${t.ok} ok, ${t.failed} failed (in flight on it) ${t.errors.slice(0, 2).join(' | ')}`);
if (t.ok === 0 || t.failed > 3) fail('SIGKILL lost more than the calls in flight');
try {
  engine('start', container('toolbox-1'));
} catch {
  /* restart: unless-stopped may have brought it back already */
}

// 2. SIGTERM toolbox-2 under load: it drains, nothing is lost, it exits 0.
l = load();
await sleep(3000);
engine('kill', '--signal', 'TERM', container('toolbox-2'));
await until(
  'toolbox-2 to exit',
  () => engine('inspect', container('toolbox-2'), '--format', '{{.State.Running}}') === 'false',
  60_000,
);
t = await l.stop();
const code = engine('inspect', container('toolbox-2'), '--format', '{{.State.ExitCode}}');
say(`SIGTERM toolbox-2: exit ${code}; ${t.ok} ok, ${t.failed} failed ${t.errors.slice(0, 2).join(' | ')}`);
if (code !== '0' || t.failed !== 0) fail('the drain lost calls or did not exit 0');
engine('start', container('toolbox-2'));

// 3. Stop and start toolbox-3 (a new address) while toolbox-1/2 come back: HAProxy takes all back.
const before = ip(container('toolbox-3'));
engine('stop', container('toolbox-3'));
engine('start', container('toolbox-3'));
const after = ip(container('toolbox-3'));
say(`toolbox-3 address: ${before} -> ${after}`);
await until('HAProxy to take every replica back', async () => {
  const s = await serverStatus();
  return ['r1', 'r2', 'r3'].every((r) => s[r] === 'UP');
});
const served = new Set();
for (let i = 0; i < 30 && served.size < 3; i++) {
  const r = await fetch(`${LB}/readyz`);
  served.add(r.headers.get('x-served-by'));
}
say(`HAProxy: r1..r3 UP again; /readyz answered by ${[...served].sort().join(', ')}`);

// 4. Stop Redis under load: calls go on (degraded), and it comes back.
l = load();
await sleep(2000);
engine('stop', container('redis'));
await until(
  'a degraded replica',
  async () => (await (await fetch(`${LB}/readyz`)).json()).status === 'degraded',
  30_000,
);
await sleep(3000);
engine('start', container('redis'));
await until('ready again', async () => (await (await fetch(`${LB}/readyz`)).json()).status === 'ready', 60_000);
t = await l.stop();
say(`Redis stopped and started under load: ${t.ok} ok, ${t.failed} failed ${t.errors.slice(0, 2).join(' | ')}`);
if (t.failed !== 0) fail('a Redis outage failed calls');
say('PASS');
process.exit(0);
