// /metrics scraped by a real Prometheus (Debian's package): the scrape succeeds with the bearer token
// read from a file (as deploy/ and docs/scale.md configure it), `up` is 1, and the figures of the
// replica's calls arrive in Prometheus's own database, queried through its HTTP API.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testConfigEnv } from '../helpers.js';
import { serveProject } from './fixtures.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { freePort, startReplica } from '../../deploy/local-cluster.mjs';

const PROMETHEUS = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((p) => existsSync(p));
const proj = serveProject();
const token = 'prometheus-test-token-0123456789';
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() };
const dir = mkdtempSync(join(tmpdir(), 'toolbox-prometheus-'));
let replica: { child: import('node:child_process').ChildProcess; exited: Promise<unknown>; url: string; port: number };
let prom: { child: import('node:child_process').ChildProcess; exited: Promise<unknown>; log: () => string };
let api: string;

beforeAll(async () => {
  if (!PROMETHEUS) throw new Error('prometheus is not installed (apt-get install prometheus; .ci/run installs it)');
  replica = await startReplica({
    registry: join(proj.dir, 'tool_registry'),
    cwd: proj.dir,
    env,
    token,
    args: ['--expose', 'all'],
  });
  writeFileSync(join(dir, 'token'), token, { mode: 0o600 });
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global: { scrape_interval: 1s, scrape_timeout: 1s }
scrape_configs:
  - job_name: toolbox
    authorization: { type: Bearer, credentials_file: ${join(dir, 'token')} }
    static_configs: [{ targets: ['127.0.0.1:${replica.port}'] }]
`,
  );
  const port = (await freePort()) as number;
  api = `http://127.0.0.1:${port}/api/v1`;
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout!.on('data', (c) => (log += c));
  child.stderr!.on('data', (c) => (log += c));
  prom = { child, exited: new Promise((r) => child.once('exit', r)), log: () => log };
}, 90_000);

afterAll(async () => {
  prom?.child.kill('SIGTERM');
  await prom?.exited;
  replica?.child.kill('SIGINT');
  await replica?.exited;
  proj.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** One instant vector from Prometheus's query API. */
async function query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const r = await fetch(`${api}/query?query=${encodeURIComponent(q)}`).catch(() => undefined);
  if (!r?.ok) return [];
  return ((await r.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }).data
    .result;
}

describe('a real Prometheus scrapes /metrics', () => {
  it('with the token from a file: up is 1 and the calls arrive', async () => {
    const client = new Client({ name: 'prom-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(replica.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    for (let i = 0; i < 2; i++) await client.callTool({ name: 'add_numbers', arguments: { a: i, b: 2 } });
    await client.close();
    const poll = { timeout: 45_000, interval: 500 };
    await expect.poll(async () => (await query('up{job="toolbox"}'))[0]?.value[1], poll).toBe('1');
    await expect
      .poll(async () => (await query('toolbox_calls_total{tool="add_numbers",outcome="ok"}'))[0]?.value[1], poll)
      .toBe('2');
    const tier = await query('toolbox_sandbox_tier == 1');
    expect(tier).toHaveLength(1);
    expect(['bwrap', 'unshare', 'none']).toContain(tier[0]!.metric.tier);
    const p50 = await query('histogram_quantile(0.5, sum by (le) (toolbox_call_duration_seconds_bucket))');
    expect(Number(p50[0]?.value[1])).toBeGreaterThan(0);
    expect(prom.log()).not.toMatch(/level=error/);
  }, 90_000);
});
