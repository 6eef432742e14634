// `serve` at scale (docs/scale.md): the compose topology as processes (deploy/local-cluster.mjs):
// redis-server, toolbox serve replicas with --state, HAProxy with deploy/haproxy.cfg.
//   1. calls/s of an I/O-bound tool (100 ms) through HAProxy, 1 replica against 3, in one run
//      (target >= 2.5x: a replica runs as many calls of one tool at once as it has warm workers);
//   2. ms per call of a trivial tool on a replica with shared state against one without, call by
//      call in turns in one run, the ratio of the medians (target <= 1.15x);
//   3. latency while all three replicas are restarted one after the other (SIGTERM: drain, then a
//      new process on the same port), against the same load without restarts; failed calls counted.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, table } from './lib.mjs';
import { startCluster, startReplica, startHaproxy } from '../deploy/local-cluster.mjs';

function project() {
  const dir = join(tmpdir(), `toolbox-bench-scale-out-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'benchtools'), { recursive: true });
  mkdirSync(join(dir, 'tool_registry'), { recursive: true });
  writeFileSync(join(dir, 'benchtools', '__init__.py'), '');
  writeFileSync(
    join(dir, 'benchtools', 'tools.py'),
    'import time\n\ndef wait(ms):\n    time.sleep(ms / 1000)\n    return {"waited": ms}\n\ndef echo(text):\n    return {"echo": text}\n',
  );
  const tool = (id, fn, schema) =>
    `id: ${id}\nname: ${id}\ndescription: A tool to measure serve at scale (${id}).\nschema:\n  type: object\n  properties:\n${schema}\n` +
    `loader: python_function\nloader_config:\n  module: benchtools.tools\n  function: ${fn}\n`;
  writeFileSync(join(dir, 'tool_registry', 'wait.yaml'), tool('wait', 'wait', '    ms: { type: integer }'));
  writeFileSync(join(dir, 'tool_registry', 'echo.yaml'), tool('echo', 'echo', '    text: { type: string }'));
  return dir;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

/** One stateless tools/call; resolves with its latency in ms, or throws on anything but a result. */
async function call(url, headers, name, args) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    signal: AbortSignal.timeout(60_000),
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: META },
    }),
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"result"') || text.includes('"isError":true'))
    throw new Error(`status ${res.status}: ${text.slice(0, 200)}`);
  return performance.now() - t0;
}

/** `n` calls with `width` in flight; latencies and failures. */
async function load(url, headers, n, width, args = { ms: 100 }, name = 'wait', stop) {
  let next = 0;
  const lat = [];
  let failed = 0;
  const reasons = new Map();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while ((stop ? !stop() : true) && next < n) {
        next++;
        try {
          lat.push(await call(url, headers, name, args));
        } catch (e) {
          failed++;
          const c = e?.cause;
          const why = c?.code ?? c?.message ?? String(e?.message ?? e).slice(0, 60);
          reasons.set(why, (reasons.get(why) ?? 0) + 1);
        }
      }
    }),
  );
  return { lat, failed, reasons, secs: (performance.now() - t0) / 1000 };
}

const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp' });

export default async function () {
  const dir = project();
  const registry = join(dir, 'tool_registry');
  const load0 = loadavg()[0].toFixed(1);
  const c = await startCluster({ registry, cwd: dir, env: env() });
  const rows = [];
  try {
    // Warm every replica's worker pool.
    await load(c.lb.url, c.headers, 60, 12);
    // 1. Throughput: HAProxy in front of one replica (the same address three times), then of three.
    const one = await startHaproxy([`127.0.0.1:${c.replicas[0].port}`]);
    const width = 24;
    const n = 360;
    const r1 = await load(one.url, c.headers, n, width);
    const r3 = await load(c.lb.url, c.headers, n, width);
    one.child.kill('SIGKILL');
    await one.exited;
    const cps1 = (r1.lat.length / r1.secs).toFixed(1);
    const cps3 = (r3.lat.length / r3.secs).toFixed(1);
    rows.push(['calls/s, 100 ms tool, 24 in flight, through HAProxy: 1 replica', cps1, `${r1.failed} failed`]);
    rows.push(['… 3 replicas (ratio, target >= 2.5)', cps3, `${(cps3 / cps1).toFixed(2)}x, ${r3.failed} failed`]);

    // 2. Shared state against local: the same trivial call, one replica with --state, one without,
    //    call by call in turns (each pair sees the same load), the order swapped every pair.
    const local = await startReplica({ registry, token: c.token, env: env(), cwd: dir });
    const shared = c.replicas[1];
    const times = { shared: [], local: [] };
    for (const r of [local, shared]) for (let i = 0; i < 20; i++) await call(r.url, c.headers, 'echo', { text: 'w' });
    for (let i = 0; i < 500; i++) {
      const order = i % 2 ? ['local', 'shared'] : ['shared', 'local'];
      for (const name of order)
        times[name].push(await call((name === 'shared' ? shared : local).url, c.headers, 'echo', { text: `i${i}` }));
    }
    local.child.kill('SIGKILL');
    await local.exited;
    const ms = (k) => median(times[k]);
    const mean = (k) => times[k].reduce((x, y) => x + y, 0) / times[k].length;
    rows.push(['ms per call, trivial tool, sequential: local state (.toolbox/), median', ms('local').toFixed(2), '']);
    rows.push([
      '… shared state (Redis), ratio of medians (target <= 1.15)',
      ms('shared').toFixed(2),
      `${(ms('shared') / ms('local')).toFixed(2)}x (of means ${(mean('shared') / mean('local')).toFixed(2)}x)`,
    ]);

    // 3. Rolling restart of all three under load, against the same load without restarts.
    const steady = await load(c.lb.url, c.headers, 240, 12);
    let restarting = true;
    const during = load(c.lb.url, c.headers, 100_000, 12, { ms: 100 }, 'wait', () => !restarting);
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) {
      const r = c.replicas[i];
      r.child.kill('SIGTERM');
      const code = await r.exited;
      if (code !== 0) throw new Error(`replica ${i} exited ${code} after SIGTERM`);
      await c.restart(i);
      // HAProxy takes it back after two good checks (inter 500 ms, rise 2).
      await new Promise((res) => setTimeout(res, 1500));
    }
    restarting = false;
    const d = await during;
    // What HAProxy logged for requests that did not end in 200 (its termination flags say who cut them).
    if (d.failed)
      process.stderr.write(
        c.lb
          .stdout()
          .split('\n')
          .filter((l) => l.includes('POST') && !/ 200 \d/.test(l))
          .join('\n') + '\n',
      );
    const restartSecs = ((performance.now() - t0) / 1000).toFixed(1);
    rows.push([
      'p50 / p95 ms, 100 ms tool, 12 in flight, steady',
      `${median(steady.lat).toFixed(0)} / ${p95(steady.lat).toFixed(0)}`,
      `${steady.failed} failed of ${steady.lat.length + steady.failed}`,
    ]);
    rows.push([
      `… during a rolling restart of all three (${restartSecs} s)`,
      `${median(d.lat).toFixed(0)} / ${p95(d.lat).toFixed(0)}`,
      `${d.failed} failed of ${d.lat.length + d.failed}${d.failed ? ` (${[...d.reasons].map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`,
    ]);
  } finally {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  table(['what', 'figure', 'note'], rows);
  console.log(`\nload average: ${load0} before, ${loadavg()[0].toFixed(1)} after (2 cores)`);
}
