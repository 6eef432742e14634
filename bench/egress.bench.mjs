// Issue 33 item 7: what toolbox's egress proxy costs. (1) One HTTPS request (TLS over CONNECT
// through the proxy's Unix socket) against the same request made directly, to an HTTPS server on
// loopback (granted, as a user would grant it). (2) One cold call of a sandboxed Python program that
// makes one HTTP request with the network open (own namespace, in-process bridge, proxy) against
// the same program with the network closed doing no request, and the host doing the request
// directly. Variants take turns each round so machine noise hits them alike.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttps } from 'node:https';
import { createServer as createHttp } from 'node:http';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, REPO, table } from './lib.mjs';

const N = 20;
const WARMUP = 3;

async function timeAll(variants, n = N) {
  const xs = variants.map(() => []);
  for (let i = 0; i < WARMUP + n; i++)
    for (const [j, v] of variants.entries()) {
      const t0 = process.hrtime.bigint();
      await v.run();
      if (i >= WARMUP) xs[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  return xs.map(median);
}

/** GET / over `socket` (already connected; TLS when `tls`), resolve on the whole answer. */
function get(socket, tls) {
  return new Promise((res, rej) => {
    const s = tls ? tlsConnect({ socket, servername: 'localhost', rejectUnauthorized: false }) : socket;
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('end', () => (got.startsWith('HTTP/1.1 200') ? res() : rej(new Error(got.slice(0, 80)))));
    s.on('error', rej);
    s.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  });
}

function viaProxy(sock, port) {
  return new Promise((res, rej) => {
    const s = connect(sock);
    s.once('error', rej);
    s.once('connect', () => s.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\n\r\n`));
    let buf = '';
    const onData = (d) => {
      buf += d;
      if (!buf.includes('\r\n\r\n')) return;
      s.off('data', onData);
      if (!buf.startsWith('HTTP/1.1 200')) return rej(new Error(buf));
      get(s, true).then(res, rej);
    };
    s.on('data', onData);
  });
}

function direct(port) {
  return new Promise((res, rej) => {
    const s = connect(port, '127.0.0.1');
    s.once('error', rej);
    s.once('connect', () => get(s, true).then(res, rej));
  });
}

/** A host python run (no sandbox), as the sandbox bench runs its baseline. */
function host(path, code) {
  return new Promise((res, rej) => {
    const c = spawn(path, ['-c', code], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    c.stdout.resume();
    c.stderr.resume();
    c.on('error', rej);
    c.on('close', (code) => (code === 0 ? res() : rej(new Error(`exit ${code}`))));
  });
}

export default async function () {
  const sb = await import('../dist/sandbox/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-egress-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      join(dir, 'k.pem'),
      '-out',
      join(dir, 'c.pem'),
    ],
    { stdio: 'ignore' },
  );
  const https = createHttps(
    { key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) },
    (_q, r) => r.end('ok'),
  );
  await new Promise((r) => https.listen(0, '127.0.0.1', r));
  const tlsPort = https.address().port;
  const http = createHttp((_q, r) => r.end('ok'));
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  const httpPort = http.address().port;
  const proxy = sb.egressProxy();
  const lease = await proxy.lease({
    tool: 'bench',
    hosts: true,
    grants: [`127.0.0.1:${tlsPort}`, `127.0.0.1:${httpPort}`],
  });
  try {
    const [d, p] = await timeAll([{ run: () => direct(tlsPort) }, { run: () => viaProxy(lease.socket, tlsPort) }], 100);
    table(
      ['one HTTPS request to loopback (median of 100)', 'ms', 'ratio', 'proxy cost ms (goal < 5)'],
      [
        ['direct (TCP + TLS + GET)', d.toFixed(2), '1.00', '—'],
        [
          'through the egress proxy (CONNECT on its Unix socket + TLS + GET)',
          p.toFixed(2),
          (p / d).toFixed(2),
          `+${(p - d).toFixed(2)}`,
        ],
      ],
    );

    const py = await sb.resolveInterpreter('python3');
    const runners = join(REPO, 'dist', 'loaders', 'runners');
    const url = `http://127.0.0.1:${httpPort}/`;
    const request = `import urllib.request; urllib.request.urlopen(${JSON.stringify(url)}).read()`;
    const bridge = `import sys; sys.path.insert(0, ${JSON.stringify(runners)}); import toolbox_egress; toolbox_egress.setup(); ${request}`;
    const base = { env: {}, limits: sb.DEFAULT_LIMITS };
    const prev = process.env.TOOLBOX_SANDBOX;
    const rows = [];
    for (const tier of (await sb.availableTiers()).filter((t) => t !== 'none')) {
      process.env.TOOLBOX_SANDBOX = tier;
      const ok = (r) => {
        if (r.exitCode !== 0) throw new Error(`${tier}: exit ${r.exitCode} ${r.stderr}`);
      };
      const ms = await timeAll(
        [
          { run: () => host(py.path, 'pass') },
          { run: () => host(py.path, request) },
          {
            run: async () =>
              ok(
                await sb.runSandboxed({
                  ...base,
                  command: py.path,
                  args: ['-c', 'pass'],
                  readOnlyPaths: py.readOnlyPaths,
                  network: false,
                }),
              ),
          },
          {
            run: async () =>
              ok(
                await sb.runSandboxed({
                  ...base,
                  command: py.path,
                  args: ['-c', bridge],
                  readOnlyPaths: [...py.readOnlyPaths, runners],
                  network: true,
                  egress: { socket: lease.socket, bridge: 'self' },
                }),
              ),
          },
        ],
        15,
      );
      const [hostPass, hostReq, closed, open] = ms;
      rows.push(
        [`${tier}: host python -c pass (no sandbox)`, hostPass.toFixed(1), '—'],
        [`${tier}: host python, one direct request (no sandbox)`, hostReq.toFixed(1), '—'],
        [`${tier}: sandboxed python -c pass, network closed`, closed.toFixed(1), '—'],
        [
          `${tier}: sandboxed python, network open, one request through the proxy`,
          open.toFixed(1),
          `+${(open - closed - (hostReq - hostPass)).toFixed(1)}`,
        ],
      );
    }
    if (prev === undefined) delete process.env.TOOLBOX_SANDBOX;
    else process.env.TOOLBOX_SANDBOX = prev;
    table(['cold call (median of 15)', 'ms', 'network-open cost ms (goal < 10)'], rows);
    process.stdout.write(
      '\nnetwork-open cost = (open − closed) − (host request − host pass): what opening the network adds to a cold call beyond the sandbox itself and the request itself (namespace, bridge thread, proxy variables, the tunnel). Warm workers (serve, daemon) keep their namespace, bridge and proxy socket across calls: none of it is paid again.\n',
    );
  } finally {
    await proxy.close();
    https.close();
    http.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
