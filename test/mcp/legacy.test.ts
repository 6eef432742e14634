// The MCP client side with 2025-11-25 servers: server-everything (the v1 SDK line) asks its questions
// as requests during a call, and they reach the tool's caller; progress and log messages too. The
// revision is chosen once per server and kept only as a hint: a server that quits on the
// server/discover probe is started again with initialize, a 2025 server is not probed on the next
// connection, and one that moved to 2026-07-28 is probed again when initialize fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loader } from '../../src/loaders/mcp.js';
import { openSession, serverIdentity, type McpTarget } from '../../src/mcp/session.js';
import { clearEraMemory, eraHint } from '../../src/mcp/era.js';
import type { Question, ToolClient } from '../../src/loaders/types.js';
import { EVERYTHING, LIMITS, callCtx, entry, mcpProject } from './fixtures.js';

const env = mcpProject();
const cache = mkdtempSync(join(tmpdir(), 'toolbox-era-cache-'));
const saved = process.env.XDG_CACHE_HOME;
beforeAll(() => {
  process.env.XDG_CACHE_HOME = cache;
  clearEraMemory();
});
afterAll(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  clearEraMemory();
  env.cleanup();
  rmSync(cache, { recursive: true, force: true });
});

function caller(answers: Partial<Record<Question['method'], unknown>>) {
  const seen = { progress: [] as unknown[], logs: [] as unknown[], asked: [] as Question[] };
  const client: ToolClient = {
    progress: (p) => void seen.progress.push(p),
    log: (m) => void seen.logs.push(m),
    ask: async (qs) => {
      seen.asked.push(...qs);
      return qs.map((q) => answers[q.method]);
    },
  };
  return { seen, client };
}

const load = (tool: string, command = EVERYTHING, args = ['stdio']) =>
  loader.load({
    project: env.project,
    entry: entry(tool, { command, args, tool }),
    longRunning: false,
    verbose: false,
  });

describe('mcp loader with a 2025-11-25 server (server-everything over stdio)', () => {
  it("passes the server's elicitation request to the tool's caller and the answer back", async () => {
    const { seen, client } = caller({
      'elicitation/create': { action: 'accept', content: { name: 'Ada Lovelace', check: true } },
    });
    const out = await (await load('trigger-elicitation-request')).call({}, callCtx({ client }));
    expect(seen.asked.map((q) => q.method)).toEqual(['elicitation/create']);
    expect(JSON.stringify(out.result)).toContain('Ada Lovelace');
  }, 30_000);

  it("passes sampling to the caller's LLM", async () => {
    const { seen, client } = caller({
      'sampling/createMessage': { role: 'assistant', model: 'm', content: { type: 'text', text: 'forty-two' } },
    });
    const out = await (
      await load('trigger-sampling-request')
    ).call({ prompt: 'the answer?', maxTokens: 10 }, callCtx({ client }));
    expect(seen.asked[0]).toMatchObject({ method: 'sampling/createMessage' });
    expect(JSON.stringify(out.result)).toContain('forty-two');
  }, 30_000);

  it('passes progress on', async () => {
    const { seen, client } = caller({});
    await (await load('trigger-long-running-operation')).call({ duration: 1, steps: 3 }, callCtx({ client }));
    expect(seen.progress, JSON.stringify(seen.progress)).toHaveLength(3);
    expect(seen.progress[2]).toMatchObject({ progress: 3, total: 3 });
  }, 30_000);
});

/** A 2025 stdio server that exits on any request it does not know before initialize (some SDKs do). */
const QUITTER = `import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
let asked;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'server/discover') process.exit(3);
  if (m.method === 'initialize')
    send({ id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'quitter', version: '1' } } });
  else if (m.method === 'tools/list')
    send({ id: m.id, result: { tools: [{ name: 'ask', inputSchema: { type: 'object' } }] } });
  else if (m.method === 'tools/call') {
    asked = m.id;
    send({ method: 'notifications/message', params: { level: 'info', data: 'asking now' } });
    send({ id: 'q1', method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } });
  } else if (m.id === 'q1')
    send({ id: asked, result: { content: [{ type: 'text', text: 'got ' + JSON.stringify(m.result ?? m.error) }] } });
  else if (m.id !== undefined && m.method) send({ id: m.id, result: {} });
});
`;

describe('choosing the revision once per server, as a hint', () => {
  it('a server that quits on the server/discover probe is started again with initialize, and remembered', async () => {
    mkdirSync(join(env.dir, 'srv'), { recursive: true });
    writeFileSync(join(env.dir, 'srv', 'quitter.mjs'), QUITTER);
    const target: McpTarget = {
      kind: 'stdio',
      root: env.dir,
      command: 'node',
      args: ['srv/quitter.mjs'],
      env: {},
      readOnlyPaths: [],
      network: false,
      limits: LIMITS,
      pathVar: process.env.PATH,
      granted: callCtx().granted,
    };
    const s = await openSession(target, { timeoutMs: 20_000, nodeBinary: process.execPath });
    await s.close();
    expect(s.modern).toBe(false);
    expect(s.protocolVersion).toBe('2025-11-25');
    expect(eraHint(serverIdentity(target))).toBe('legacy');
    // Its questions and log messages reach the caller of the one call in flight.
    const { seen, client } = caller({ 'elicitation/create': { action: 'accept', content: { name: 'Bo' } } });
    const out = await (await load('ask', 'node', ['srv/quitter.mjs'])).call({}, callCtx({ client }));
    expect(out.result).toBe('got {"action":"accept","content":{"name":"Bo"}}');
    expect(seen.logs).toContainEqual(expect.objectContaining({ level: 'info', data: 'asking now' }));
  }, 30_000);

  it('a 2025 server is not probed again; one that moved to 2026-07-28 is found when initialize fails', async () => {
    let modern = false;
    const methods: string[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const m = JSON.parse(body || '{}') as { id?: number | string; method: string };
        if (m.method) methods.push(m.method);
        const json = (status: number, o: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(o));
        if (m.id === undefined) return res.writeHead(202).end();
        if (m.method === 'server/discover' && modern)
          return json(200, {
            jsonrpc: '2.0',
            id: m.id,
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
              serverInfo: { name: 'mover', version: '2' },
            },
          });
        if (m.method === 'initialize' && !modern)
          return json(200, {
            jsonrpc: '2.0',
            id: m.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {} },
              serverInfo: { name: 'mover', version: '1' },
            },
          });
        return json(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: not supported' } });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    // OAuth state is kept per project (issue 33 item 4): this session's project is the test's cwd.
    const target: McpTarget = { kind: 'http', project: process.cwd(), url, headers: {} };
    const open = async () => {
      const s = await openSession(target, { timeoutMs: 10_000, nodeBinary: process.execPath });
      await s.close();
      return s;
    };
    try {
      expect((await open()).modern).toBe(false);
      expect(methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
      methods.length = 0;
      expect((await open()).modern).toBe(false);
      expect(methods).not.toContain('server/discover');
      // The server upgrades: the hinted initialize fails, the hint is dropped, the probe finds 2026-07-28.
      modern = true;
      methods.length = 0;
      const s = await open();
      expect(s.modern).toBe(true);
      expect(methods).toEqual(['initialize', 'server/discover']);
      expect(eraHint(serverIdentity(target))).toBeUndefined();
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 30_000);
});
