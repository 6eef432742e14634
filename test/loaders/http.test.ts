import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressProxy } from '../../src/sandbox/egress/index.js';
import type { CallContext } from '../../src/loaders/types.js';
import { callCtx as baseCtx, loadTool, rejection } from './helpers.js';
import { expected } from '../security/cases.js';

/** A real HTTP server on 127.0.0.1 that records what it received. */
let server: Server;
let base = '';
const sockets = new Set<Socket>();

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url!, 'http://x');
    const body = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, type: string, text: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(text);
    };
    if (url.pathname.startsWith('/echo')) {
      send(
        200,
        'application/json; charset=utf-8',
        JSON.stringify({
          method: req.method,
          path: decodeURIComponent(url.pathname),
          rawPath: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body,
        }),
      );
    } else if (url.pathname === '/fail') send(500, 'text/plain', 'internal kaboom\nwith details');
    else if (url.pathname === '/deny') send(401, 'text/plain', `token ${req.headers.authorization} rejected`);
    else if (url.pathname === '/text') send(200, 'text/plain; charset=utf-8', '纯文本 plain text');
    else if (url.pathname === '/big') send(200, 'text/plain', 'x'.repeat(64 * 1024));
    else if (url.pathname === '/slow') {
      /* never answers: the loader's timeout must end the call */
    } else send(404, 'text/plain', 'no such route');
  });
}

// The runtime gives a network-open call its egress proxy; the server here is on loopback, so the
// proxy's policy carries the user's grant of 127.0.0.1, as grants.yaml would.
const proxy = new EgressProxy();
let egress: CallContext['egress'];
const callCtx = (o: Parameters<typeof baseCtx>[0] = {}): CallContext =>
  o.sandbox?.network ? { ...baseCtx(o), ...(egress ? { egress } : {}) } : baseCtx(o);

beforeAll(async () => {
  const listener = await proxy.lease({ tool: 'l_test_tool', hosts: true, grants: ['127.0.0.1'] });
  egress = { socket: listener.socket, listener, mark: listener.total };
  server = createServer(handle);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await proxy.close();
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const net = { network: true };

describe('http loader', () => {
  it('GET: {{params}} are URL-encoded in the path, query values encoded, a missing optional query param left out, no body', async () => {
    const tool = await loadTool(
      'http',
      { url: `${base}/echo/{{city}}`, query: { q: '{{q}}', lang: 'zh', opt: '{{missing}}' } },
      { sandbox: net },
    );
    const out = await tool.call({ city: '北京 市/../admin?x=1', q: 'a&b=c "引号"' }, callCtx({ sandbox: net }));
    const got = out.result as Record<string, any>;
    expect(got.method).toBe('GET');
    expect(got.path).toBe('/echo/北京 市/../admin?x=1');
    expect(got.rawPath).not.toContain('/../'); // the value stayed one path segment
    expect(got.query).toEqual({ q: 'a&b=c "引号"', lang: 'zh' });
    expect(got.body).toBe('');
    expect(out.tier).toBe('none');
  });

  it('POST: an object body keeps argument types where a string is exactly {{param}}', async () => {
    const cfg = {
      method: 'POST',
      url: `${base}/echo`,
      body: {
        city: '{{city}}',
        days: '{{days}}',
        flags: '{{flags}}',
        nested: { label: 'city: {{city}}' },
        opt: '{{missing}}',
      },
    };
    const tool = await loadTool('http', cfg, { sandbox: net });
    const out = await tool.call(
      { city: '上海 "quoted"', days: 3, flags: [true, null, { a: 1.5 }] },
      callCtx({ sandbox: net }),
    );
    const got = out.result as Record<string, any>;
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got.body)).toEqual({
      city: '上海 "quoted"',
      days: 3,
      flags: [true, null, { a: 1.5 }],
      nested: { label: 'city: 上海 "quoted"' },
    });
  });

  it('a body without a method means POST; a string body template is sent as text', async () => {
    const tool = await loadTool(
      'http',
      {
        url: `${base}/echo`,
        body: 'name={{name}}&n={{n}}',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      { sandbox: net },
    );
    const got = (await tool.call({ name: 'Zoë', n: 2 }, callCtx({ sandbox: net }))).result as Record<string, any>;
    expect(got.method).toBe('POST');
    expect(got.body).toBe('name=Zoë&n=2');
    expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('${ENV} in a header comes from the allow-listed env; an argument cannot expand it', async () => {
    const sandbox = { ...net, env: ['L_TOKEN'] };
    const tool = await loadTool(
      'http',
      { url: `${base}/echo`, headers: { Authorization: 'Bearer ${L_TOKEN}' }, query: { q: '{{q}}' } },
      { sandbox },
    );
    const got = (await tool.call({ q: '${L_TOKEN}' }, callCtx({ sandbox, env: { L_TOKEN: 's3cret-value' } })))
      .result as Record<string, any>;
    expect(got.headers.authorization).toBe('Bearer s3cret-value');
    expect(got.query.q).toBe('${L_TOKEN}');
  });

  it('secret values never appear in error messages', async () => {
    const sandbox = { ...net, env: ['L_TOKEN'] };
    const tool = await loadTool('http', { url: `${base}/deny`, headers: { Authorization: '${L_TOKEN}' } }, { sandbox });
    const err = await rejection(tool.call({}, callCtx({ sandbox, env: { L_TOKEN: 's3cret-value' } })));
    expect(err.name).toBe('ToolRunError');
    expect(err.message).toContain('401');
    expect(err.message).not.toContain('s3cret-value');
  });

  it('${ENV} not in sandbox.env is refused at load; allow-listed but unset is env_missing', async () => {
    const err = await rejection(loadTool('http', { url: `${base}/echo?k=\${L_KEY}` }, { sandbox: net }));
    expect(err.code).toBe('env_not_allowed');
    expect(err.exitCode).toBe(3);
    const sandbox = { ...net, env: ['L_KEY'] };
    const tool = await loadTool('http', { url: `${base}/echo?k=\${L_KEY}` }, { sandbox });
    const err2 = await rejection(tool.call({}, callCtx({ sandbox })));
    expect(err2.code).toBe('env_missing');
    expect(err2.exitCode).toBe(6);
  });

  it('an HTTP error status is a tool failure with the status and a body excerpt', async () => {
    const tool = await loadTool('http', { url: `${base}/fail` }, { sandbox: net });
    const err = await rejection(tool.call({}, callCtx({ sandbox: net })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toMatch(/HTTP 500/);
    expect(err.message).toContain('internal kaboom');
  });

  it('a non-JSON body is returned as text', async () => {
    const tool = await loadTool('http', { url: `${base}/text` }, { sandbox: net });
    expect((await tool.call({}, callCtx({ sandbox: net }))).result).toBe('纯文本 plain text');
  });

  it('connection refused is "cannot reach <host>"', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const tool = await loadTool('http', { url: `http://127.0.0.1:${port}/x` }, { sandbox: net });
    const err = await rejection(tool.call({}, callCtx({ sandbox: net })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toContain(`cannot reach 127.0.0.1:${port}`);
    expect(err.message).toContain('connection refused');
  });

  it('a server that does not answer hits the timeout (limit)', async () => {
    const tool = await loadTool('http', { url: `${base}/slow` }, { sandbox: net });
    const err = await rejection(tool.call({}, callCtx({ sandbox: net, timeout: '300ms' })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'timeout' });
  });

  it('a response larger than the output limit is stopped (limit)', async () => {
    const sandbox = { ...net, output: '16K' };
    const tool = await loadTool('http', { url: `${base}/big` }, { sandbox });
    const err = await rejection(tool.call({}, callCtx({ sandbox })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'output' });
  });

  it(`hostile: network open without the user's grant, the host's loopback is never dialled (${expected('egress-http-loader', 'bwrap')})`, async () => {
    // A contract may not reach the host's own services: an http tool is toolbox's own request, and
    // it goes out through the same egress proxy as a sandboxed tool's.
    const bare = new EgressProxy();
    try {
      const listener = await bare.lease({ tool: 'l_test_tool', hosts: true, grants: [] });
      const before = { socket: listener.socket, listener, mark: listener.total };
      let hits = 0;
      const count = () => hits++;
      server.on('request', count);
      const tool = await loadTool('http', { url: `${base}/echo` }, { sandbox: net });
      const err = await rejection(tool.call({}, { ...baseCtx({ sandbox: net }), egress: before }));
      server.off('request', count);
      expect(hits).toBe(0);
      expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
      const refused = listener.since(before.mark);
      expect(refused.map((r) => [r.reason, r.addressClass])).toEqual([['address', 'loopback']]);
      expect(bare.stats.dials).toBe(0);
    } finally {
      await bare.close();
    }
  });

  it('without sandbox.network the call is refused before any request', async () => {
    const tool = await loadTool('http', { url: `${base}/echo` });
    const err = await rejection(tool.call({}, callCtx()));
    expect(err.code).toBe('network_not_allowed');
    expect(err.exitCode).toBe(7);
  });

  it('an aborted call is cancelled', async () => {
    const tool = await loadTool('http', { url: `${base}/slow` }, { sandbox: net });
    const ac = new AbortController();
    const p = tool.call({}, callCtx({ sandbox: net, signal: ac.signal }));
    setTimeout(() => ac.abort(), 50);
    const err = await rejection(p);
    expect(err.code).toBe('cancelled');
    expect(err.exitCode).toBe(130);
  });
});
