// `toolbox serve`: what an MCP client pays in prompt tokens for the tool list (--expose all vs
// --expose search), and calls per second of a trivial Python tool through one long-running
// server (warm workers) against one `toolbox run` process per call.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, median, REPO, table, timeCommand } from './lib.mjs';

const { Client } = await import(join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js'));
const { StdioClientTransport } = await import(
  join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js')
);
const { countTokens } = await import(join(REPO, 'dist/select/tokens.js'));
const v2 = await import(join(REPO, 'node_modules/@modelcontextprotocol/client/dist/index.mjs'));

// Every Node child pays ~90 ms for NODE_EXTRA_CA_CERTS here; a user's shell usually does not.
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

async function connect(registry, args = []) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--registry', registry, ...args],
      env,
      stderr: 'ignore',
    }),
  );
  return client;
}

const tokensOf = async (v) => countTokens(JSON.stringify(v));

/** Tokens of tools/list under both modes, and of one search (its result plus the grown list). */
async function listTokens(registry, query) {
  const all = await connect(registry, ['--expose', 'all']);
  const full = (await all.listTools()).tools;
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
async function httpServer(registry) {
  const state = mkdtempSync(join(tmpdir(), 'toolbox-bench-state-'));
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--registry', registry, '--http', '0', '--json', '--expose', 'all'],
    {
      env: { ...env, XDG_STATE_HOME: state },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
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

export default async function () {
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

  const proj = pythonProject();
  try {
    const reg = join(proj, 'tool_registry');
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
  } finally {
    rmSync(proj, { recursive: true, force: true });
  }
}
