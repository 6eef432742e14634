// `toolbox serve`: what an MCP client pays in prompt tokens for the tool list (--expose all vs
// --expose search), and calls per second of a trivial Python tool through one long-running
// server (warm workers) against one `toolbox run` process per call.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, median, REPO, registryAt, table, timeCommand } from './lib.mjs';

const { Client } = await import(join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js'));
const { StdioClientTransport } = await import(
  join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js')
);
const { countTokens } = await import(join(REPO, 'dist/select/tokens.js'));
const v2 = await import(join(REPO, 'node_modules/@modelcontextprotocol/client/dist/index.mjs'));

// Every Node child pays ~90 ms for NODE_EXTRA_CA_CERTS here; a user's shell usually does not.
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

async function connect(registry, args = [], extraEnv = {}) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--registry', registry, ...args],
      env: { ...env, ...extraEnv },
      stderr: 'ignore',
    }),
  );
  return client;
}

const tokensOf = async (v) => countTokens(JSON.stringify(v));

/** Tokens of tools/list under both modes, and of one search (its result plus the grown list). */
async function listTokens(registry, query) {
  const all = await connect(registry, ['--expose', 'all']);
  // tools/list comes in pages (100 tools each by default): the whole list is every page's tools.
  const full = [];
  let cursor;
  do {
    const page = await all.listTools(cursor ? { cursor } : undefined);
    full.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  await all.close();
  const s = await connect(registry);
  const small = (await s.listTools()).tools;
  const found = await s.callTool({ name: 'search_tools', arguments: { query } });
  const grown = (await s.listTools()).tools;
  await s.close();
  return {
    n: full.length,
    all: await tokensOf(full),
    search: await tokensOf(small),
    afterSearch: (await tokensOf(grown)) + (await tokensOf(found.content)),
  };
}

const WORDS = [
  'invoice',
  'weather',
  'calendar',
  'ticket',
  'customer',
  'shipment',
  'report',
  'image',
  'translate',
  'stock',
  'order',
  'payment',
  'email',
  'sensor',
  'document',
  'repository',
  'meeting',
  'expense',
  'flight',
  'recipe',
];
const VERBS = ['get', 'create', 'update', 'delete', 'search', 'summarise', 'export', 'validate', 'convert', 'list'];

/** A registry of `n` plausible tools (varied names, descriptions and parameters). */
function generatedRegistry(n) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-mcp-'));
  const reg = join(dir, 'tool_registry');
  mkdirSync(reg);
  for (let i = 0; i < n; i++) {
    const w = WORDS[i % WORDS.length];
    const v = VERBS[Math.floor(i / WORDS.length) % VERBS.length];
    const id = `${v}_${w}_${i}`;
    writeFileSync(
      join(reg, `${id}.yaml`),
      `id: ${id}
name: ${v} ${w} ${i}
description: ${v[0].toUpperCase() + v.slice(1)} a ${w} record in system ${i % 37}. Use when the user asks to ${v} a ${w}; returns the ${w} as JSON with its id, status and timestamps.
schema:
  type: object
  properties:
    ${w}_id: { type: string, description: identifier of the ${w} }
    limit: { type: integer, minimum: 1, maximum: 100, description: how many records at most }
    status: { type: string, enum: [open, closed, pending], description: filter by status }
  required: [${w}_id]
loader: command
loader_config: { argv: [echo, '{{${w}_id}}'] }
`,
    );
  }
  return { dir, reg };
}

/** A project with one trivial Python tool. */
function pythonProject() {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-py-'));
  mkdirSync(join(dir, 'bench_tools'));
  mkdirSync(join(dir, 'tool_registry'));
  writeFileSync(join(dir, 'bench_tools', '__init__.py'), '');
  writeFileSync(join(dir, 'bench_tools', 'echo.py'), 'def echo(text):\n    return {"echo": text}\n');
  writeFileSync(
    join(dir, 'tool_registry', 'echo_text.yaml'),
    `id: echo_text
name: Echo
description: Repeat a text back. Use when the user wants an echo.
schema: { type: object, properties: { text: { type: string, description: the text } }, required: [text] }
loader: python_function
loader_config: { module: bench_tools.echo, function: echo }
`,
  );
  return dir;
}

async function callsPerSecond(registry, n, concurrency) {
  const c = await connect(registry, ['--expose', 'all']);
  await c.callTool({ name: 'echo_text', arguments: { text: 'warm-up' } });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const r = await c.callTool({ name: 'echo_text', arguments: { text: `call ${i}` } });
        if (r.isError) throw new Error(JSON.stringify(r.content));
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  await c.close();
  return n / s;
}

/** `toolbox serve --http 0` with its token made in a fresh state folder; returns { url, headers, stop }. */
async function httpServer(registry, extra = ['--expose', 'all']) {
  const state = mkdtempSync(join(tmpdir(), 'toolbox-bench-state-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--registry', registry, '--http', '0', '--json', ...extra], {
    env: { ...env, XDG_STATE_HOME: state },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const doc = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      try {
        resolve(JSON.parse(out));
      } catch {
        /* not complete yet */
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  const token = readFileSync(doc.auth.file, 'utf8').trim();
  return {
    url: doc.url,
    headers: { authorization: `Bearer ${token}` },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(state, { recursive: true, force: true });
    },
  };
}

/**
 * One tool called in sequence through `serve --http` by the official v2 client, as a 2026-07-28
 * client (stateless: a fresh server instance per request) and as a 2025-11-25 one (its session),
 * alternating blocks of calls on the same server so the machine's load hits both alike. Returns the
 * median milliseconds per call of each.
 */
async function statelessVsSession(registry, blocks = 8, perBlock = 40) {
  const srv = await httpServer(registry);
  const clients = {};
  try {
    for (const [era, opts] of [
      ['2026-07-28', { versionNegotiation: { mode: 'auto' } }],
      ['2025-11-25', {}],
    ]) {
      const c = new v2.Client({ name: 'bench', version: '1' }, opts);
      await c.connect(
        new v2.StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: srv.headers } }),
      );
      if (c.getNegotiatedProtocolVersion() !== era)
        throw new Error(`expected ${era}, got ${c.getNegotiatedProtocolVersion()}`);
      await c.callTool({ name: 'echo_text', arguments: { text: 'warm-up' } });
      clients[era] = c;
    }
    const ms = { '2026-07-28': [], '2025-11-25': [] };
    for (let b = 0; b < blocks; b++) {
      for (const era of b % 2 ? ['2025-11-25', '2026-07-28'] : ['2026-07-28', '2025-11-25']) {
        const t0 = performance.now();
        for (let i = 0; i < perBlock; i++) {
          const r = await clients[era].callTool({ name: 'echo_text', arguments: { text: `call ${i}` } });
          if (r.isError) throw new Error(JSON.stringify(r.content));
        }
        ms[era].push((performance.now() - t0) / perBlock);
      }
    }
    return { stateless: median(ms['2026-07-28']), session: median(ms['2025-11-25']) };
  } finally {
    for (const c of Object.values(clients)) await c.close().catch(() => undefined);
    await srv.stop();
  }
}

/** The value at quantile `q` (0..1) of `xs` (nearest rank). */
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);

// A 2026-07-28 stateless request by raw POST, the way the SDK v2 client sends it (its clientInfo in
// `_meta`), so a 429/503 and its Retry-After are seen as they come. Also run in the flooding child.
const POST_SRC = `
let rpcId = 1;
function parseMessage(text, id) {
  if (text.startsWith('{')) return JSON.parse(text);
  for (const line of text.split('\\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      const m = JSON.parse(line.slice(5));
      if (m.id === id) return m;
    } catch {}
  }
  return undefined;
}
async function post(url, headers, client, method, params, signal) {
  const id = rpcId++;
  const r = await fetch(url, {
    method: 'POST',
    signal,
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(params.name ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
        },
      },
    }),
  });
  const text = await r.text();
  return { status: r.status, retryAfter: r.headers.get('retry-after'), bytes: Buffer.byteLength(text), msg: r.status === 200 ? parseMessage(text, id) : undefined };
}
`;
const { post } = await import('data:text/javascript,' + encodeURIComponent(POST_SRC + 'export { post };'));

// The flooding client, in a process of its own so that its loop does not slow the measuring one:
// `inFlight` requests from one clientInfo at all times, each sent again the moment it is answered
// (it ignores Retry-After, as a flood does). Reports its counts when told to stop.
const FLOOD_SRC = `${POST_SRC}
import { setMaxListeners } from 'node:events';
const { URL_, TOKEN_, IN_FLIGHT } = process.env;
const headers = { authorization: 'Bearer ' + TOKEN_ };
const counts = { sent: 0, ok: 0, refused: 0, other: 0 };
const ac = new AbortController();
setMaxListeners(0, ac.signal); // one signal for every request in flight, on purpose
let stopped = false;
const loops = Array.from({ length: Number(IN_FLIGHT) }, async () => {
  while (!stopped) {
    counts.sent++;
    try {
      const r = await post(URL_, headers, 'flood', 'tools/call', { name: 'echo_text', arguments: { text: 'x' } }, ac.signal);
      if (r.status === 200) counts.ok++;
      else if (r.status === 429 || r.status === 503) counts.refused++;
      else counts.other++;
    } catch {
      if (!stopped) counts.other++;
    }
  }
});
process.send('started');
process.on('message', async () => {
  stopped = true;
  ac.abort();
  await Promise.all(loops);
  process.send(counts, () => process.exit(0));
});
`;

async function startFlood(srv, inFlight) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', FLOOD_SRC], {
    env: { ...env, URL_: srv.url, TOKEN_: srv.headers.authorization.slice(7), IN_FLIGHT: String(inFlight) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((res, rej) => {
    child.once('message', res);
    child.once('exit', (c) => rej(new Error(`flood exited ${c}`)));
  });
  return {
    async stop() {
      const counts = new Promise((res) => child.once('message', res));
      child.send('stop');
      return counts;
    },
  };
}

/**
 * `clients` stateless clients (distinct clientInfo), all at once, each making `calls` calls in turn.
 * A 429/503 is retried after its Retry-After, as a real client would; the latency of a call counts
 * its retries. Returns the milliseconds of every call, errors and retries.
 */
async function crowd(srv, clients, calls, tag) {
  const ms = [];
  const st = { errors: 0, retries: 0, firstError: undefined };
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      for (let j = 0; j < calls; j++) {
        const text = `${tag}.${i}.${j}`;
        const t0 = performance.now();
        for (;;) {
          let r;
          try {
            r = await post(srv.url, srv.headers, `${tag}-agent-${i}`, 'tools/call', {
              name: 'echo_text',
              arguments: { text },
            });
          } catch (e) {
            st.errors++;
            st.firstError ??= String(e);
            break;
          }
          if (r.status === 429 || r.status === 503) {
            st.retries++;
            await sleep(Number(r.retryAfter ?? 1) * 1000);
            continue;
          }
          const res = r.msg?.result;
          if (r.status !== 200 || !res || res.isError || res.structuredContent?.echo !== text) {
            st.errors++;
            st.firstError ??= `${r.status} ${JSON.stringify(r.msg ?? {}).slice(0, 200)}`;
          } else ms.push(performance.now() - t0);
          break;
        }
      }
    }),
  );
  return { ms, ...st };
}

/** Issue 36 item 7: many stateless clients on one host, without and then with one flooding beside them. */
async function fairness(registry) {
  const clients = Number(process.env.BENCH_MCP_CLIENTS ?? 200);
  const calls = Number(process.env.BENCH_MCP_CALLS ?? 20);
  const floodN = Number(process.env.BENCH_MCP_FLOOD ?? 1000);
  const srv = await httpServer(registry);
  try {
    await crowd(srv, 8, 5, 'warm');
    const t0 = performance.now();
    const calm = await crowd(srv, clients, calls, 'calm');
    const calmS = (performance.now() - t0) / 1000;
    const flood = await startFlood(srv, floodN);
    await sleep(1000);
    const t1 = performance.now();
    const loud = await crowd(srv, clients, calls, 'loud');
    const loudS = (performance.now() - t1) / 1000;
    const fc = await flood.stop();
    console.log(
      `\n${clients} stateless 2026-07-28 clients (raw POSTs, distinct clientInfo) × ${calls} calls of a trivial Python tool, ` +
        `all at once, over one serve --http --expose all (429/503 retried after Retry-After; a call's time counts its retries):\n`,
    );
    const row = (label, r, s) => [
      label,
      r.ms.length,
      r.errors,
      r.retries,
      f1(median(r.ms)),
      f1(quantile(r.ms, 0.95)),
      f1(r.ms.length / s),
    ];
    table(
      ['run', 'calls ok', 'errors', 'retries', 'p50 ms', 'p95 ms', 'calls/s'],
      [row('alone', calm, calmS), row(`beside 1 client with ${floodN} requests in flight`, loud, loudS)],
    );
    console.log(
      `\nflooding client: ${fc.sent} requests sent, ${fc.ok} answered, ${fc.refused} refused (429/503), ${fc.other} other` +
        `\nothers' p95 with the flood / without: ${(quantile(loud.ms, 0.95) / quantile(calm.ms, 0.95)).toFixed(2)}× (goal ≤ 2×); ` +
        `p50 ${(median(loud.ms) / median(calm.ms)).toFixed(2)}×`,
    );
    for (const r of [calm, loud]) if (r.firstError) console.log(`first error: ${r.firstError}`);
  } finally {
    await srv.stop();
  }
}

/** tools/list of a big registry under --expose all, page by page with its cursors. */
async function paging(n) {
  const reg = join(registryAt(n), 'tool_registry');
  const t0 = performance.now();
  const srv = await httpServer(reg);
  const startS = (performance.now() - t0) / 1000;
  try {
    const rounds = [];
    for (let round = 0; round < 2; round++) {
      const pages = [];
      let cursor;
      let tools = 0;
      const t1 = performance.now();
      do {
        const t = performance.now();
        const r = await post(srv.url, srv.headers, 'pager', 'tools/list', cursor ? { cursor } : {});
        if (r.status !== 200 || !r.msg?.result) throw new Error(`tools/list: ${r.status}`);
        pages.push({ ms: performance.now() - t, bytes: r.bytes });
        tools += r.msg.result.tools.length;
        cursor = r.msg.result.nextCursor;
      } while (cursor);
      rounds.push({ pages, tools, total: performance.now() - t1 });
    }
    console.log(
      `\ntools/list of ${n} generated tools (serve --http --expose all, default page size; started in ${f1(startS)} s), ` +
        `all pages in turn with their cursors, twice:\n`,
    );
    table(
      [
        'pass',
        'tools',
        'pages',
        'bytes/page median',
        'bytes/page max',
        'ms/page median',
        'ms/page p95',
        'first page ms',
        'total ms',
        'total MB',
      ],
      rounds.map((r, i) => {
        const b = r.pages.map((p) => p.bytes);
        const m = r.pages.map((p) => p.ms);
        return [
          i ? 'second' : 'first',
          r.tools,
          r.pages.length,
          median(b),
          Math.max(...b),
          f1(median(m)),
          f1(quantile(m, 0.95)),
          f1(m[0]),
          f0(r.total),
          f1(b.reduce((a, x) => a + x, 0) / 1e6),
        ];
      }),
    );
  } finally {
    await srv.stop();
  }
}
const f0 = (x) => x.toFixed(0);

/** Under the default --expose search: search_tools, then a call of the tool it found first (by its name). */
async function searchThenCall(n, pairs = Number(process.env.BENCH_MCP_PAIRS ?? 60)) {
  const reg = join(registryAt(n), 'tool_registry');
  const srv = await httpServer(reg, []);
  const topics = [
    'weather',
    'invoice',
    'flight',
    'recipe',
    'payment',
    'hotel',
    'playlist',
    'mortgage',
    'vaccine',
    'budget',
  ];
  const verbs = ['convert', 'summarise', 'cancel', 'track', 'export', 'compare'];
  try {
    const pair = [];
    const search = [];
    const call = [];
    let errors = 0;
    for (let i = 0; i < pairs + 3; i++) {
      const query = `${verbs[i % verbs.length]} a ${topics[i % topics.length]}`;
      const t0 = performance.now();
      const s = await post(srv.url, srv.headers, 'searcher', 'tools/call', {
        name: 'search_tools',
        arguments: { query, top: 5 },
      });
      const t1 = performance.now();
      const found = s.msg?.result?.structuredContent?.tools?.[0]?.name;
      if (!found) throw new Error(`search_tools: ${s.status} ${JSON.stringify(s.msg ?? {}).slice(0, 300)}`);
      const c = await post(srv.url, srv.headers, 'searcher', 'tools/call', {
        name: found,
        arguments: { key: `K-${i}` },
      });
      const t2 = performance.now();
      if (c.status !== 200 || !c.msg?.result || c.msg.result.isError) {
        errors++;
        if (errors === 1) console.log(`call error: ${c.status} ${JSON.stringify(c.msg ?? {}).slice(0, 300)}`);
      }
      if (i < 3) continue; // warm-up
      search.push(t1 - t0);
      call.push(t2 - t1);
      pair.push(t2 - t0);
    }
    console.log(
      `\nsearch-then-call on ${n} generated tools (serve --http, default --expose search; search_tools top 5, then ` +
        `the first match called by its name: a sandboxed \`echo\` command), ${pairs} pairs in turn, ${errors} errors:\n`,
    );
    table(
      ['step', 'p50 ms', 'p95 ms'],
      [
        ['search_tools', f1(median(search)), f1(quantile(search, 0.95))],
        ['call of the found tool', f1(median(call)), f1(quantile(call, 0.95))],
        ['the pair', f1(median(pair)), f1(quantile(pair, 0.95))],
      ],
    );
  } finally {
    await srv.stop();
  }
}

const BARE_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const server = new McpServer({ name: 'bare-echo', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Repeat a text back.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
`;

/**
 * A warm call of a bare stdio MCP server (official SDK, one trivial tool) straight from the SDK
 * client, against the same call through `toolbox serve` (stdio) whose mcp-loader contract starts that
 * server in the sandbox. Alternating blocks on both connections; medians of the calls.
 */
async function warmThroughServe(blocks = 10, perBlock = 50) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-bare-'));
  const cfg = mkdtempSync(join(tmpdir(), 'toolbox-bench-cfg-'));
  const clients = [];
  try {
    mkdirSync(join(dir, 'srv'));
    mkdirSync(join(dir, 'tool_registry'));
    writeFileSync(join(dir, 'srv', 'echo.mjs'), BARE_SERVER);
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(
      join(dir, 'tool_registry', 'echo.yaml'),
      `id: echo
name: echo
description: Repeat a text back. Use when the user wants an echo.
schema: { type: object, properties: { text: { type: string } }, required: [text], additionalProperties: false }
loader: mcp
loader_config: { command: node, args: [srv/echo.mjs], tool: echo }
`,
    );
    // The user's grant for the linked node_modules (outside the project), as grants.yaml holds it.
    mkdirSync(join(cfg, 'toolbox'));
    writeFileSync(
      join(cfg, 'toolbox', 'grants.yaml'),
      JSON.stringify({
        projects: { [realpathSync(dir)]: { '*': { paths: [realpathSync(join(REPO, 'node_modules'))] } } },
      }),
      { mode: 0o600 },
    );
    const bare = new Client({ name: 'bench', version: '1' });
    await bare.connect(
      new StdioClientTransport({ command: process.execPath, args: ['srv/echo.mjs'], cwd: dir, env, stderr: 'ignore' }),
    );
    clients.push(bare);
    const served = await connect(join(dir, 'tool_registry'), ['--expose', 'all'], { XDG_CONFIG_HOME: cfg });
    clients.push(served);
    const ms = { bare: [], served: [] };
    const by = { bare, served };
    for (const k of ['bare', 'served']) {
      for (let i = 0; i < 20; i++) {
        const r = await by[k].callTool({ name: 'echo', arguments: { text: 'warm-up' } });
        if (r.isError) throw new Error(`${k}: ${JSON.stringify(r.content).slice(0, 300)}`);
      }
    }
    for (let b = 0; b < blocks; b++) {
      for (const k of b % 2 ? ['served', 'bare'] : ['bare', 'served']) {
        for (let i = 0; i < perBlock; i++) {
          const t0 = performance.now();
          const r = await by[k].callTool({ name: 'echo', arguments: { text: `call ${i}` } });
          ms[k].push(performance.now() - t0);
          if (r.isError || r.content?.[0]?.text !== `call ${i}`)
            throw new Error(`${k}: ${JSON.stringify(r).slice(0, 300)}`);
        }
      }
    }
    console.log(
      `\nA warm call of a bare stdio MCP server (official SDK v1 McpServer, one echo tool), from the SDK client ` +
        `directly vs through toolbox serve (stdio, --expose all; an mcp-loader contract, the server in the sandbox); ` +
        `${blocks} alternating blocks of ${perBlock} calls each:\n`,
    );
    table(
      ['path', 'p50 ms', 'p95 ms'],
      [
        ['SDK client → bare server', f2(median(ms.bare)), f2(quantile(ms.bare, 0.95))],
        ['SDK client → toolbox serve → bare server', f2(median(ms.served)), f2(quantile(ms.served, 0.95))],
      ],
    );
    console.log(
      `\nthrough serve − direct, p50: ${f2(median(ms.served) - median(ms.bare))} ms (goal ≤ 2 ms); ` +
        `ratio ${(median(ms.served) / median(ms.bare)).toFixed(2)}×`,
    );
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    rmSync(cfg, { recursive: true, force: true });
  }
}

// BENCH_MCP_ONLY=tokens,calls,fair,paging,search,warm runs only those sections (all by default).
export default async function () {
  const only = process.env.BENCH_MCP_ONLY?.split(',');
  const want = (k) => !only || only.includes(k);
  if (want('tokens')) await tokenTables();
  if (want('calls') || want('fair')) await callTables(want);
  if (want('paging')) await paging(Number(process.env.BENCH_MCP_TOOLS ?? 10000));
  if (want('search')) await searchThenCall(Number(process.env.BENCH_MCP_TOOLS ?? 10000));
  if (want('warm')) await warmThroughServe();
}

async function tokenTables() {
  const shipped = join(REPO, 'tool_registry');
  const gen = generatedRegistry(1000);
  try {
    const rows = [];
    for (const [label, reg, q] of [
      ['shipped registry', shipped, 'convert 3 miles to km'],
      ['generated registry', gen.reg, 'update a customer ticket status'],
    ]) {
      const t = await listTokens(reg, q);
      rows.push([label, t.n, t.all, t.search, t.afterSearch, (t.all / t.search).toFixed(1) + '×']);
    }
    console.log('Tokens an MCP client sees for the tool list (o200k; JSON of tools/list):\n');
    table(
      ['registry', 'tools', '--expose all', '--expose search', 'search: list + 1 search_tools result', 'all / search'],
      rows,
    );
  } finally {
    rmSync(gen.dir, { recursive: true, force: true });
  }
}

async function callTables(want) {
  const proj = pythonProject();
  try {
    const reg = join(proj, 'tool_registry');
    if (want('fair') && !want('calls')) return await fairness(reg);
    const serial = await callsPerSecond(reg, 200, 1);
    const parallel = await callsPerSecond(reg, 200, 8);
    const perRunMs = timeCommand(process.execPath, [BIN, 'run', 'echo_text', '--text', 'hi'], {
      n: 10,
      warmup: 2,
      cwd: proj,
      env,
    });
    const runRate = 1000 / perRunMs;
    console.log('\nCalls per second of a trivial Python tool:\n');
    table(
      ['how', 'calls/s', 'ms per call', 'ratio to toolbox run'],
      [
        ['toolbox run (one process per call)', runRate.toFixed(1), perRunMs.toFixed(1), '1.0×'],
        [
          'toolbox serve, warm worker, 1 client in sequence',
          serial.toFixed(1),
          (1000 / serial).toFixed(1),
          (serial / runRate).toFixed(1) + '×',
        ],
        [
          'toolbox serve, warm worker, 8 calls in flight',
          parallel.toFixed(1),
          (1000 / parallel).toFixed(1),
          (parallel / runRate).toFixed(1) + '×',
        ],
      ],
    );
    const sv = await statelessVsSession(reg);
    console.log('\nThe same call over serve --http, 2026-07-28 (stateless) vs 2025-11-25 (session), same server:\n');
    table(
      ['client', 'ms per call', 'calls/s'],
      [
        ['2025-11-25 session (official v2 client, default)', sv.session.toFixed(2), (1000 / sv.session).toFixed(0)],
        ['2026-07-28 stateless (official v2 client, auto)', sv.stateless.toFixed(2), (1000 / sv.stateless).toFixed(0)],
      ],
    );
    console.log(`\nstateless / session, time per call: ${(sv.stateless / sv.session).toFixed(2)}× (1.00 = as fast)`);
    await fairness(reg);
  } finally {
    rmSync(proj, { recursive: true, force: true });
  }
}
