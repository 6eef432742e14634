// Item 8: the http loader keeps secrets and paths in place (real loopback servers).
// Issue 33 item 4: a secret never goes to a host, port, scheme or user info an argument picks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Runtime } from '../../src/runtime/runtime.js';
import { resolveProject } from '../../src/config.js';
import type { ToolboxError } from '../../src/errors.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';
import { cli, grantInTests } from '../helpers.js';

const SECRET = 'sk-live/4711 top+secret';
const seen: { server: string; url: string; headers: IncomingHttpHeaders }[] = [];
function serve(name: string, handler: (url: string, res: import('node:http').ServerResponse) => void) {
  const s = createServer((req, res) => {
    seen.push({ server: name, url: req.url ?? '', headers: req.headers });
    handler(req.url ?? '', res);
  });
  return new Promise<{ s: Server; port: number }>((r) =>
    s.listen(0, '127.0.0.1', () => r({ s, port: (s.address() as { port: number }).port })),
  );
}
let a: { s: Server; port: number };
let b: { s: Server; port: number };
let p: ReturnType<typeof project>;
let rt: Runtime;

beforeAll(async () => {
  b = await serve('other', (_u, res) => res.end('{"stolen":true}'));
  a = await serve('api', (url, res) => {
    if (url.startsWith('/redirect')) {
      res.writeHead(302, { location: `http://127.0.0.1:${b.port}/collect` });
      return res.end();
    }
    if (url.startsWith('/echo')) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return res.end(
        `bad key ${encodeURIComponent(SECRET)} / ${Buffer.from(`user:${SECRET}`).toString('base64')} / ${Buffer.from(SECRET).toString('hex')}`,
      );
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: url }));
  });
  const tool = (id: string, url: string) =>
    contract(
      id,
      'http',
      `{ url: "${url}", headers: { X-Api-Key: "\${API_KEY}" } }`,
      'sandbox: { network: true, env: [API_KEY] }',
    );
  const keyed = (id: string, cfg: string) => contract(id, 'http', cfg, 'sandbox: { network: true, env: [API_KEY] }');
  p = project({
    // The caller picks the receiver: host, port, scheme and host, user info, the whole base.
    'tool_registry/pick_host.yaml': tool('pick_host', 'http://{{x}}/collect'),
    'tool_registry/pick_port.yaml': tool('pick_port', 'http://127.0.0.1:{{x}}/collect'),
    'tool_registry/pick_base.yaml': tool('pick_base', '{{x}}/collect'),
    'tool_registry/pick_user.yaml': tool('pick_user', `http://{{x}}@127.0.0.1:${b.port}/collect`),
    'tool_registry/pick_query.yaml': keyed('pick_query', '{ url: "http://{{x}}/q", query: { key: "${API_KEY}" } }'),
    'tool_registry/pick_body.yaml': keyed('pick_body', '{ url: "http://{{x}}/q", body: { key: "${API_KEY}" } }'),
    'tool_registry/user.yaml': tool('user', `http://127.0.0.1:${a.port}/api/users/{{x}}/profile`),
    'tool_registry/redir.yaml': tool('redir', `http://127.0.0.1:${a.port}/redirect`),
    'tool_registry/echo.yaml': tool('echo', `http://127.0.0.1:${a.port}/echo`),
  });
  // The key goes over the network: the user grants it to these tools (issue 23 item 7), and the
  // servers stand on the host's loopback, which only the user's grant opens (issue 33).
  grantInTests(p.dir, { env: ['API_KEY'], network: ['127.0.0.1'] });
  rt = new Runtime(resolveProject({ cwd: p.dir }), { env: { API_KEY: SECRET } });
});
afterAll(async () => {
  await rt.close();
  a.s.close();
  b.s.close();
  p.cleanup();
});

const call = (id: string, x?: string) =>
  rt.invoke({ id, args: x === undefined ? {} : { x } }).then(
    (r) => ({ code: 0, result: r.result as unknown, message: '' }),
    (e: ToolboxError) => ({ code: e.exitCode, error: e.code, message: `${e.message} ${e.hint ?? ''}` }),
  );

describe('item 8: the http loader', () => {
  it('a path value stays one segment: . and .. are refused, slashes encoded', async () => {
    expect(expected('http-dot-segment', 'none')).toBe('refused');
    seen.length = 0;
    for (const x of ['..', '.', '%2e%2e'])
      expect(await call('user', x)).toMatchObject({ code: 2, error: 'http_dot_segment' });
    expect(seen).toEqual([]);
    expect((await call('user', '../admin')).result).toEqual({ path: '/api/users/..%2Fadmin/profile' });
  });

  it('a redirect to another origin is not followed, so the API key never reaches it', async () => {
    expect(expected('http-cross-origin-redirect', 'none')).toBe('blocked');
    seen.length = 0;
    expect(await call('redir')).toMatchObject({ code: 4, error: 'tool_failed' });
    expect(seen.filter((s) => s.server === 'other')).toEqual([]);
  });

  it('redacts the secret in every encoding the server echoes', async () => {
    expect(expected('http-encoded-secret', 'none')).toBe('blocked');
    const r = await call('echo');
    expect(r.code).toBe(4);
    for (const form of [
      SECRET,
      encodeURIComponent(SECRET),
      Buffer.from(`user:${SECRET}`).toString('base64').slice(8, -4),
      Buffer.from(SECRET).toString('hex'),
    ])
      expect(r.message).not.toContain(form);
  });

  it('a secret never goes to an address an argument picks: run refuses before any request, validate says where', async () => {
    expect(expected('http-secret-argument-host', 'none')).toBe('refused');
    seen.length = 0;
    const other = `127.0.0.1:${b.port}`;
    const tries: [string, string][] = [
      ['pick_host', other],
      ['pick_port', String(b.port)],
      ['pick_base', `http://${other}`],
      ['pick_user', 'me'],
      ['pick_query', other],
      ['pick_body', other],
    ];
    for (const [id, x] of tries) {
      const r = await call(id, x);
      expect([id, r.code, (r as { error?: string }).error]).toEqual([id, 3, 'http_secret_to_argument_host']);
      expect(r.message).not.toContain(SECRET);
    }
    expect(seen).toEqual([]); // neither server heard anything
    // An argument in the path of a fixed host is fine: the key goes where the contract says.
    expect((await call('user', 'ada')).result).toEqual({ path: '/api/users/ada/profile' });
    expect(seen.map((s) => [s.server, s.headers['x-api-key']])).toEqual([['api', SECRET]]);
    const v = await cli(['validate', '--no-routing', '--json'], { cwd: p.dir, env: { API_KEY: SECRET } });
    const found = (v.json.diagnostics as { rule: string; file: string; line: number; column: number }[])
      .filter((d) => d.rule === 'loader-secret-host')
      .map((d) => `${d.file.split('/').pop()}:${d.line}:${d.column}`)
      .sort();
    // At the entry that carries the secret (the header's, the query's, the body's key).
    expect(found).toEqual([
      'pick_base.yaml:7:51',
      'pick_body.yaml:7:49',
      'pick_host.yaml:7:58',
      'pick_port.yaml:7:68',
      'pick_query.yaml:7:50',
      'pick_user.yaml:7:74',
    ]);
    expect(v.code).toBe(1);
  });
});

describe('issue 33: the http loader goes out through the egress proxy', () => {
  it(`a contract with network: true cannot make toolbox dial the host's loopback (${expected('egress-http-loader', 'none')})`, async () => {
    expect(expected('egress-http-loader', 'none')).toBe('blocked');
    // A cloned project names a loopback service; no grant of the user's opens it.
    const hostile = project({
      'tool_registry/admin.yaml': contract(
        'admin',
        'http',
        `{ url: "http://127.0.0.1:${a.port}/admin" }`,
        'sandbox: { network: true }',
      ),
      'tool_registry/local.yaml': contract(
        'local',
        'http',
        `{ url: "http://localhost:${a.port}/admin" }`,
        'sandbox: { network: true }',
      ),
    });
    const r2 = new Runtime(resolveProject({ cwd: hostile.dir }), { env: {} });
    try {
      seen.length = 0;
      for (const id of ['admin', 'local']) {
        const r = await r2.invoke({ id, args: {} }).then(
          () => ({ code: 0, error: '', message: '' }),
          (e: ToolboxError) => ({ code: e.exitCode, error: e.code, message: `${e.message} ${e.hint ?? ''}` }),
        );
        expect(r).toMatchObject({ code: 7, error: 'network_refused' });
        expect(r.message).toContain('grants.yaml');
      }
      expect(seen).toEqual([]);
    } finally {
      await r2.close();
      hostile.cleanup();
    }
  });
});
