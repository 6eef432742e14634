// Issue 33 items 1, 4 and 6: a tool with the network open gets a network namespace of its own on
// every tier that can give one, and reaches the outside only through toolbox's egress proxy. Real
// parts: Python, Node and command tools in the real sandbox, a TCP listener and a real redis-server
// on the host's loopback, an abstract Unix socket, the user's grants.yaml. Nothing here sends a
// packet beyond loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttp, type Server as HttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expected } from './cases.js';
import { contract, onTier, project, runOn, scratch, tiers } from './helpers.js';
import type { SandboxTier } from '../../src/sandbox/index.js';

const py = `import os, socket, urllib.request
def direct(x):
    host, port = x.rsplit(':', 1)
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
        return 'CONNECTED'
    except OSError as e:
        return 'ERR ' + type(e).__name__
def abstract(x):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect('\\0' + x)
        return 'CONNECTED ' + s.recv(64).decode()
    except OSError as e:
        return 'ERR ' + type(e).__name__
def get(x):
    return urllib.request.urlopen(x, timeout=10).read().decode()
def redis(x):
    mode, port = x.split(':')
    p = int(port)
    if mode == 'direct':
        s = socket.create_connection(('127.0.0.1', p), timeout=3)
    else:
        proxy = int(os.environ['ALL_PROXY'].rsplit(':', 1)[1])
        s = socket.create_connection(('127.0.0.1', proxy), timeout=3)
        s.sendall(b'\\x05\\x01\\x00')
        s.recv(2)
        s.sendall(b'\\x05\\x01\\x00\\x01\\x7f\\x00\\x00\\x01' + p.to_bytes(2, 'big'))
        r = s.recv(10)
        if r[1] != 0:
            raise PermissionError('SOCKS5 refused (%d)' % r[1])
    s.sendall(b'PING\\r\\n')
    return s.recv(64).decode()
_calls = [0]
def warm(x):
    _calls[0] += 1
    return {'n': _calls[0], 'proxy': os.environ.get('HTTPS_PROXY'), 'body': urllib.request.urlopen(x, timeout=10).read().decode()}
def proxies(x):
    return {k: v for k, v in os.environ.items() if k.lower().endswith('_proxy')}
`;
const nodeFetch = `export default async function ({ x }) { const r = await fetch(x); return r.status + ' ' + (await r.text()); }\n`;
const nodeHttp = `import http from 'node:http';
export default function ({ x }) {
  return new Promise((res, rej) => http.get(x, (r) => { let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => res(r.statusCode + ' ' + b)); }).on('error', rej));
}
`;
const open = 'sandbox: { network: true }';
const p = project({
  'my_tools/__init__.py': '',
  'my_tools/net.py': py,
  'node_tools/fetch.mjs': nodeFetch,
  'node_tools/http.mjs': nodeHttp,
  'tool_registry/direct.yaml': contract(
    'direct',
    'python_function',
    '{ module: my_tools.net, function: direct }',
    open,
  ),
  'tool_registry/abstract_open.yaml': contract(
    'abstract_open',
    'python_function',
    '{ module: my_tools.net, function: abstract }',
    open,
  ),
  'tool_registry/abstract_closed.yaml': contract(
    'abstract_closed',
    'python_function',
    '{ module: my_tools.net, function: abstract }',
  ),
  'tool_registry/get.yaml': contract('get', 'python_function', '{ module: my_tools.net, function: get }', open),
  'tool_registry/redis.yaml': contract('redis', 'python_function', '{ module: my_tools.net, function: redis }', open),
  'tool_registry/warm.yaml': contract('warm', 'python_function', '{ module: my_tools.net, function: warm }', open),
  'tool_registry/proxies.yaml': contract(
    'proxies',
    'python_function',
    '{ module: my_tools.net, function: proxies }',
    open,
  ),
  'tool_registry/node_fetch.yaml': contract('node_fetch', 'node_module', '{ module: node_tools/fetch.mjs }', open),
  'tool_registry/node_http.yaml': contract('node_http', 'node_module', '{ module: node_tools/http.mjs }', open),
  'tool_registry/curl.yaml': contract('curl', 'command', '{ argv: [curl, -sS, --fail-with-body, "{{x}}"] }', open),
});
const xdg = scratch('toolbox-xdg-');
const realRoot = realpathSync(p.dir);
const grant = (tool: string, entries: string[]) =>
  writeFileSync(
    join(xdg.dir, 'toolbox', 'grants.yaml'),
    `projects:\n  ${JSON.stringify(realRoot)}:\n    ${tool}: { network: ${JSON.stringify(entries)} }\n`,
    { mode: 0o600 },
  );
const ungrant = () => rmSync(join(xdg.dir, 'toolbox', 'grants.yaml'), { force: true });

let tcp: Server;
let tcpPort = 0;
let tcpSeen = 0;
let web: HttpServer;
let webPort = 0;
let webSeen = 0;
let abstract: Server;
const abstractName = `toolbox-test-${randomBytes(6).toString('hex')}`;
let abstractSeen = 0;
let redis: ChildProcess;
let redisPort = 0;
let redisInfo: Socket;
const prevXdg = process.env.XDG_CONFIG_HOME;

const freePort = () =>
  new Promise<number>((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });

/** Ask redis (on the test's own connection) how many connections it has accepted so far. */
function redisConnections(): Promise<number> {
  return new Promise((res) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      const m = /total_connections_received:(\d+)/.exec(buf);
      if (m && buf.includes('\r\n', m.index)) {
        redisInfo.off('data', onData);
        res(Number(m[1]));
      }
    };
    redisInfo.on('data', onData);
    redisInfo.write('INFO stats\r\n');
  });
}

beforeAll(async () => {
  process.env.XDG_CONFIG_HOME = xdg.dir;
  mkdirSync(join(xdg.dir, 'toolbox'), { mode: 0o700 });
  tcp = createServer((c) => {
    tcpSeen++;
    c.destroy();
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as { port: number }).port;
  web = createHttp((_q, r) => r.end('granted-answer'));
  web.on('connection', () => webSeen++);
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  webPort = (web.address() as { port: number }).port;
  abstract = createServer((c) => {
    abstractSeen++;
    c.end('host-abstract');
  });
  await new Promise<void>((r) => abstract.listen('\0' + abstractName, r));
  redisPort = await freePort();
  redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((res) => {
      const s = connect(redisPort, '127.0.0.1');
      s.once('connect', () => {
        redisInfo = s;
        res(true);
      });
      s.once('error', () => res(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 25));
  }
}, 30_000);
afterAll(async () => {
  if (prevXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = prevXdg;
  redisInfo?.destroy();
  redis?.kill('SIGKILL');
  tcp.close();
  abstract.close();
  web.closeAllConnections();
  web.close();
  p.cleanup();
  xdg.cleanup();
});

const run = (tier: SandboxTier, id: string, x: string) => runOn(tier, p.dir, ['run', id, '--json', '--x', x]);
const out = (r: { stdout: string; stderr: string }) => JSON.parse(r.stdout || r.stderr);
const confined = tiers.filter((t) => t !== 'none');

describe.each(confined)('tier %s: network open means a namespace of its own', (tier) => {
  it(`a loopback listener is out of reach directly (${expected('egress-direct-loopback', tier)})`, async () => {
    const before = tcpSeen;
    for (const host of ['127.0.0.1', '::1', '0.0.0.0']) {
      const r = await run(tier, 'direct', `${host}:${tcpPort}`);
      expect(out(r).result, host).toMatch(/^ERR /);
    }
    expect(tcpSeen).toBe(before);
  });

  it(`through the proxy a loopback listener is refused, and the call says which host and what to grant (${expected('egress-direct-loopback', tier)})`, async () => {
    const before = webSeen;
    const r = await run(tier, 'get', `http://127.0.0.1:${webPort}/`);
    expect(r.code).toBe(7);
    const e = out(r).error;
    expect(e.code).toBe('network_refused');
    expect(e.message).toContain(`127.0.0.1:${webPort}`);
    expect(e.hint).toContain('grants.yaml');
    expect(e.hint).toContain(`network: ["127.0.0.1:${webPort}"]`);
    const local = await run(tier, 'get', `http://localhost:${webPort}/`);
    expect(local.code).toBe(7);
    expect(out(local).error.message).toContain('means this host');
    expect(webSeen).toBe(before);
  });

  it(`the host's abstract Unix sockets are unreachable, network open or closed (${expected('egress-abstract-socket', tier)})`, async () => {
    const before = abstractSeen;
    for (const id of ['abstract_open', 'abstract_closed']) {
      const r = await run(tier, id, abstractName);
      expect(out(r).result, id).toMatch(/^ERR /);
    }
    expect(abstractSeen).toBe(before);
  });

  it(`a real redis-server on loopback: no route directly, refused through SOCKS5 (${expected('egress-redis', tier)})`, async () => {
    const before = await redisConnections();
    const d = await run(tier, 'redis', `direct:${redisPort}`);
    expect(d.code).toBe(4);
    const s = await run(tier, 'redis', `socks:${redisPort}`);
    expect(s.code).toBe(7);
    expect(out(s).error.message).toContain(`127.0.0.1:${redisPort}`);
    expect(await redisConnections()).toBe(before);
  });

  it(`granted by the user, the loopback address works end to end, and only it (${expected('egress-granted-loopback', tier)})`, async () => {
    grant('redis', [`127.0.0.1:${redisPort}`]);
    try {
      const s = await run(tier, 'redis', `socks:${redisPort}`);
      expect(out(s).result).toContain('PONG');
      // Directly there is still no route: the grant is the proxy's, not the host's loopback.
      expect((await run(tier, 'redis', `direct:${redisPort}`)).code).toBe(4);
      expect((await run(tier, 'redis', `socks:${tcpPort}`)).code).toBe(7);
    } finally {
      ungrant();
    }
    for (const id of ['get', 'node_fetch', 'node_http', 'curl']) {
      grant(id, [`127.0.0.1:${webPort}`]);
      try {
        const r = await run(tier, id, `http://127.0.0.1:${webPort}/`);
        expect(out(r).result, id + ' ' + r.stdout + r.stderr).toContain('granted-answer');
      } finally {
        ungrant();
      }
    }
  });

  it('a node tool whose fetch is refused fails with the refused host named', async () => {
    const r = await run(tier, 'node_fetch', `http://127.0.0.1:${webPort}/`);
    expect(r.code).toBe(7);
    expect(out(r).error.code).toBe('network_refused');
  });

  it('the proxy variables point at a loopback port inside', async () => {
    const r = out(await run(tier, 'proxies', ''));
    expect(r.result.HTTPS_PROXY).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.result.ALL_PROXY).toMatch(/^socks5h:\/\/127\.0\.0\.1:\d+$/);
    expect(r.result.NO_PROXY).toBe('');
  });
});

it('doctor lists the network grants in force for the project', async () => {
  grant('redis', [`127.0.0.1:${redisPort}`]);
  try {
    const r = await runOn(tiers[0]!, p.dir, ['doctor', '--json']);
    expect(JSON.parse(r.stdout).networkGrants).toEqual([{ tool: 'redis', network: [`127.0.0.1:${redisPort}`] }]);
  } finally {
    ungrant();
  }
});

it.runIf(confined.length > 0)('a warm worker keeps its namespace, bridge and proxy socket across calls', async () => {
  const { Runtime, resolveProject } = await import('../../src/index.js');
  grant('warm', [`127.0.0.1:${webPort}`]);
  const rt = new Runtime(resolveProject({ cwd: p.dir }), { longRunning: true, env: { PATH: process.env.PATH } });
  try {
    const a = await onTier(confined[0]!, () => rt.invoke({ id: 'warm', args: { x: `http://127.0.0.1:${webPort}/` } }));
    const b = await onTier(confined[0]!, () => rt.invoke({ id: 'warm', args: { x: `http://127.0.0.1:${webPort}/` } }));
    expect(a.result).toMatchObject({ n: 1, body: 'granted-answer' });
    // The same process (its call counter went on) and the same loopback bridge port.
    expect(b.result).toMatchObject({ n: 2, body: 'granted-answer', proxy: (a.result as { proxy: string }).proxy });
  } finally {
    await rt.close();
    ungrant();
  }
});

describe.runIf(tiers.includes('none'))('tier none', () => {
  it(`a tool with the network open does not run (${expected('egress-direct-loopback', 'none')})`, async () => {
    const before = tcpSeen;
    const r = await run('none', 'direct', `127.0.0.1:${tcpPort}`);
    expect(r.code).toBe(7);
    expect(out(r).error.code).toBe('network_unconfined');
    expect(tcpSeen).toBe(before);
  });
});
