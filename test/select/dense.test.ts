// Dense retrieval against a real local HTTP server that implements POST /v1/embeddings
// deterministically: a hashed bag of "concepts", where a few words share a concept (a stand-in for
// what a real embedding model knows and a lexical ranker cannot: umbrella ~ rain ~ weather).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ExitCode } from '../../src/errors.js';
import { denseScores } from '../../src/select/dense.js';
import { openSelector, selectTools } from '../../src/select/index.js';
import { fixtureContract, fixtureProject } from './fixture.js';
import { userConfigInTests } from '../helpers.js';

const DIM = 64;
const CONCEPT: Record<string, string> = {
  umbrella: 'weather',
  rain: 'weather',
  forecast: 'weather',
  weather: 'weather',
  mail: 'email',
  email: 'email',
  letter: 'email',
};
function vector(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const c = CONCEPT[w] ?? w;
    let h = 0;
    for (const ch of c) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % DIM]! += CONCEPT[w] ? 3 : 1;
  }
  return v;
}

let server: Server;
let url: string;
let origin: string;
const requests: { auth?: string; inputs: string[]; path?: string; type?: string; model?: string }[] = [];
// POST …/embeddings. Variants by the path's first segment: /v1 answers plainly; /rev answers in reverse
// order (each item with its index) with every vector scaled by a different factor (cosine must not
// care); /short answers one vector too few.
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const variant = req.url?.split('/')[1];
      if (
        req.method !== 'POST' ||
        !/\/embeddings\/?$/.test(req.url ?? '') ||
        !['v1', 'rev', 'short'].includes(variant!)
      ) {
        res.writeHead(404).end();
        return;
      }
      const { input, model } = JSON.parse(body) as { input: string[]; model?: string };
      requests.push({
        auth: req.headers.authorization,
        inputs: input,
        path: req.url,
        type: req.headers['content-type'],
        model,
      });
      let data = input.map((t, index) => ({ object: 'embedding', index, embedding: vector(t) }));
      if (variant === 'rev')
        data = data.map((d) => ({ ...d, embedding: d.embedding.map((x) => x * (d.index + 2) * 7) })).reverse();
      if (variant === 'short') data = data.slice(1);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  url = `${origin}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => {
  fx?.cleanup();
  userConfigInTests(undefined);
  requests.length = 0;
});
const configure = () => userConfigInTests(config(url));
// The endpoint is the user's own setting (their config.yaml), never the project's.
const yours = (text: string) => (userConfigInTests(text), {});
const config = (u: string) =>
  `select:\n  embeddings:\n    url: ${u}\n    model: test-embed\n    api_key_env: EMB_KEY\n    weight: 1\n`;

describe('dense retrieval fused with the lexical ranking', () => {
  it("a project's select.embeddings is ignored: its server gets neither your queries nor the key it names", async () => {
    fx = fixtureProject({ 'toolbox.config.yaml': config(url) });
    const sel = await selectTools(fx.project(), 'latest share forecast', { env: { EMB_KEY: 'sk-yours' } });
    expect(requests).toHaveLength(0);
    expect(sel.results.every((r) => r.dense === undefined)).toBe(true);
    // The same endpoint in your own config.yaml is used.
    userConfigInTests(config(url));
    await selectTools(fx.project(), 'latest share forecast', { env: { EMB_KEY: 'sk-yours' } });
    expect(requests.length).toBeGreaterThan(0);
  });

  it('is off unless configured', async () => {
    fx = fixtureProject();
    const sel = await selectTools(fx.project(), 'do I need an umbrella today');
    expect(requests).toHaveLength(0);
    expect(sel.results.map((r) => r.id)).not.toContain('query_weather');
  });

  it('reorders lexical candidates it agrees with, sends the API key, never adds a tool the words did not match', async () => {
    fx = fixtureProject();
    const lexicalOnly = (await selectTools(fx.project(), 'latest share forecast')).results.map((r) => r.id);
    expect(lexicalOnly.slice(0, 2)).toEqual(['stock_price', 'query_weather']);
    configure();
    const sel = await selectTools(fx.project(), 'latest share forecast', { env: { EMB_KEY: 'sk-test' } });
    expect(sel.results.map((r) => r.id).slice(0, 2)).toEqual(['query_weather', 'stock_price']);
    expect(sel.results[0]!.dense).toBeGreaterThan(sel.results[1]!.dense!);
    expect(requests.every((r) => r.auth === 'Bearer sk-test')).toBe(true);
    // No lexical match: the embedding alone never brings a tool in.
    expect((await selectTools(fx.project(), 'do I need an umbrella today')).results).toEqual([]);
    // A clear lexical winner stays first even at a configured weight of 1 (clamped to 0.5).
    expect((await selectTools(fx.project(), 'stock price of AAPL')).results[0]!.id).toBe('stock_price');
  });

  it('embeds each tool once, and again only when its text changes', async () => {
    fx = fixtureProject({ ...yours(config(url)) });
    await selectTools(fx.project(), 'latest forecast');
    expect(requests.flatMap((r) => r.inputs)).toHaveLength(8 + 1);
    requests.length = 0;
    await selectTools(fx.project(), 'latest forecast again');
    expect(requests.map((r) => r.inputs)).toEqual([['latest forecast again']]); // one request: the query
    requests.length = 0;
    writeFileSync(
      join(fx.dir, 'tool_registry', 'stock_price.yaml'),
      fixtureContract('stock_price').replace('ticker symbol', 'ticker symbol or company name'),
    );
    await selectTools(fx.project(), 'latest forecast');
    expect(requests.flatMap((r) => r.inputs)).toHaveLength(1 + 1);
  });

  it('falls back to lexical ranking with a warning when the endpoint fails', async () => {
    fx = fixtureProject({ ...yours(config(url.replace('/v1', '/nope'))) });
    const sel = await selectTools(fx.project(), 'latest share forecast');
    expect(sel.results[0]!.id).toBe('stock_price');
    expect(sel.warnings.join('\n')).toMatch(/dense retrieval unavailable.*404/);
  });

  it('takes a base url or the full /embeddings url, trailing slashes aside', async () => {
    const paths: Record<string, string> = {
      [`${origin}/v1`]: '/v1/embeddings',
      [`${origin}/v1//`]: '/v1/embeddings',
      [`${origin}/v1/embeddings`]: '/v1/embeddings',
      [`${origin}/v1/embeddings/`]: '/v1/embeddings/',
      [`${origin}/v1/embeddings/x`]: '/v1/embeddings/x/embeddings',
    };
    for (const [u, path] of Object.entries(paths)) {
      fx = fixtureProject({ ...yours(config(u)) });
      const sel = await selectTools(fx.project(), 'latest share forecast');
      expect(sel.warnings, u).toEqual([]);
      expect(new Set(requests.map((r) => r.path)), u).toEqual(new Set([path]));
      fx.cleanup();
      requests.length = 0;
    }
  });

  it('posts JSON with the model, in batches of 64 tools, and no Authorization without a key', async () => {
    const extra = Object.fromEntries(
      Array.from({ length: 62 }, (_, i) => [
        `tool_registry/extra_${i}.yaml`,
        fixtureContract('read_file').replace(/^id: read_file$/m, `id: extra_${i}`),
      ]),
    );
    fx = fixtureProject({ ...yours(config(url)), ...extra });
    const sel = await selectTools(fx.project(), 'latest share forecast', { env: {} });
    expect(sel.warnings).toEqual([]);
    expect(requests.map((r) => r.inputs.length)).toEqual([64, 6, 1]); // 70 tools, then the query
    expect(requests.every((r) => r.type === 'application/json' && r.model === 'test-embed' && !r.auth)).toBe(true);
  });

  it('matches each vector to its input by index and compares by cosine (the scale of a vector does not count)', async () => {
    fx = fixtureProject({ ...yours(config(url)) });
    const plain = await selectTools(fx.project(), 'latest share forecast');
    fx.cleanup();
    fx = fixtureProject({ ...yours(config(`${origin}/rev`)) });
    const rev = await selectTools(fx.project(), 'latest share forecast');
    expect(rev.warnings).toEqual([]);
    const dense = (s: typeof plain) => s.results.map((r) => [r.id, Number(r.dense!.toFixed(5))]);
    expect(dense(rev)).toEqual(dense(plain));
    // cosine of the query's concepts with each tool's: between 0 and 1 here, and the first tool's highest
    expect(plain.results[0]!.dense).toBeGreaterThan(0);
    expect(plain.results[0]!.dense).toBeLessThanOrEqual(1 + 1e-6);
  });

  it('caches the normalised vectors per endpoint and model, and embeds everything again for another model', async () => {
    fx = fixtureProject({ ...yours(config(url)) });
    await selectTools(fx.project(), 'latest forecast');
    const dir = join(fx.dir, '.toolbox', 'cache');
    const files = readdirSync(dir).filter((f) => /^embeddings-[0-9a-f]{16}\.json$/.test(f));
    expect(files).toHaveLength(1);
    const cache = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as Record<string, string>;
    expect(Object.keys(cache)).toHaveLength(8);
    for (const b64 of Object.values(cache)) {
      const b = Buffer.from(b64, 'base64');
      const v = new Float32Array(b.buffer, b.byteOffset, b.length / 4);
      expect(v).toHaveLength(64);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
    requests.length = 0;
    userConfigInTests(config(url).replace('test-embed', 'other-embed'));
    await selectTools(fx.project(), 'latest forecast');
    expect(requests.flatMap((r) => r.inputs)).toHaveLength(8 + 1);
    expect(readdirSync(dir).filter((f) => f.startsWith('embeddings-'))).toHaveLength(2);
  });

  it('denseScores fails with embeddings_failed (exit 7) on an HTTP error, too few vectors, no server', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    fx = fixtureProject();
    const sel = await openSelector(fx.project());
    for (const u of [`${origin}/nope`, `${origin}/short`, gone]) {
      const cfg = { url: u, model: 'test-embed' };
      await expect(denseScores(fx.project(), sel.index, 'latest forecast', cfg, {}), u).rejects.toMatchObject({
        code: 'embeddings_failed',
        exitCode: ExitCode.toolFailed,
      });
    }
  });

  it('falls back with a warning naming the endpoint when it answers too few vectors or cannot be reached', async () => {
    fx = fixtureProject({ ...yours(config(`${origin}/short`)) });
    const short = await selectTools(fx.project(), 'latest share forecast');
    expect(short.results[0]!.id).toBe('stock_price');
    expect(short.results[0]!.dense).toBeUndefined();
    expect(short.warnings).toEqual([expect.stringContaining(`${origin}/short/embeddings`)]);
    fx.cleanup();
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    fx = fixtureProject({ ...yours(config(gone)) });
    const down = await selectTools(fx.project(), 'latest share forecast');
    expect(down.results[0]!.id).toBe('stock_price');
    expect(down.warnings).toEqual([expect.stringContaining(`${gone}/embeddings`)]);
  });
});
