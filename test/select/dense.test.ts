// Dense retrieval against a real local HTTP server that implements POST /v1/embeddings
// deterministically: a hashed bag of "concepts", where a few words share a concept (a stand-in for
// what a real embedding model knows and a lexical ranker cannot: umbrella ~ rain ~ weather).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { selectTools } from '../../src/select/index.js';
import { fixtureContract, fixtureProject } from './fixture.js';

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
const requests: { auth?: string; inputs: string[] }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404).end();
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      requests.push({ auth: req.headers.authorization, inputs: input });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: vector(t) })),
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => {
  fx?.cleanup();
  requests.length = 0;
});
const configure = () => writeFileSync(join(fx.dir, 'toolbox.config.yaml'), config(url));
const config = (u: string) =>
  `select:\n  embeddings:\n    url: ${u}\n    model: test-embed\n    api_key_env: EMB_KEY\n    weight: 1\n`;

describe('dense retrieval fused with the lexical ranking', () => {
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
    fx = fixtureProject({ 'toolbox.config.yaml': config(url) });
    await selectTools(fx.project(), 'latest forecast');
    expect(requests.flatMap((r) => r.inputs)).toHaveLength(8 + 1);
    requests.length = 0;
    await selectTools(fx.project(), 'latest forecast again');
    expect(requests.flatMap((r) => r.inputs)).toEqual(['latest forecast again']);
    requests.length = 0;
    writeFileSync(
      join(fx.dir, 'tool_registry', 'stock_price.yaml'),
      fixtureContract('stock_price').replace('ticker symbol', 'ticker symbol or company name'),
    );
    await selectTools(fx.project(), 'latest forecast');
    expect(requests.flatMap((r) => r.inputs)).toHaveLength(1 + 1);
  });

  it('falls back to lexical ranking with a warning when the endpoint fails', async () => {
    fx = fixtureProject({ 'toolbox.config.yaml': config(url.replace('/v1', '/nope')) });
    const sel = await selectTools(fx.project(), 'latest share forecast');
    expect(sel.results[0]!.id).toBe('stock_price');
    expect(sel.warnings.join('\n')).toMatch(/dense retrieval unavailable.*404/);
  });
});
