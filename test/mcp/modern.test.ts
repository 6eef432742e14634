// The MCP client side at 2026-07-28: `import mcp --url` and the mcp loader against a real 2026-07-28
// server (toolbox's own `serve --http`): server/discover, no session, the server's $schema kept,
// input-required results put to the tool's caller by key and the call retried with the answers,
// progress and log messages passed on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cli, grantInTests } from '../helpers.js';
import { EgressProxy } from '../../src/sandbox/egress/index.js';
import { loader } from '../../src/loaders/mcp.js';
import { openSession } from '../../src/mcp/session.js';
import type { Question, ToolClient } from '../../src/loaders/types.js';
import type { ToolContract } from '../../src/contract/types.js';
import { isToolRunError } from '../../src/sandbox/tool-run-error.js';
import { callCtx, mcpProject } from './fixtures.js';
import { serveUpstream } from './serve-upstream.js';

let up: Awaited<ReturnType<typeof serveUpstream>>;
const env = mcpProject();
// The upstream serve is on the host's loopback: only the user's network grant opens it (issue 33).
grantInTests(env.dir, { network: ['127.0.0.1'] });
// The loader calls below bring their own egress proxy, as the runtime would, with that grant.
const proxy = new EgressProxy();
async function egressFor(tool: string) {
  const listener = await proxy.lease({ tool, hosts: true, grants: ['127.0.0.1'] });
  return { socket: listener.socket, listener, mark: listener.total };
}
let imported: { id: string; tool: string; file: string; status: string }[] = [];

beforeAll(async () => {
  up = await serveUpstream();
  const r = await cli(['import', 'mcp', '--json', '--url', up.url], { cwd: env.dir });
  expect(r.errorJson?.error).toBeUndefined();
  expect(r.code).toBe(0);
  imported = r.json.tools;
}, 60_000);
afterAll(async () => {
  await up?.close();
  await proxy.close();
  env.cleanup();
});

const contractOf = (tool: string) =>
  parse(readFileSync(imported.find((t) => t.tool === tool)!.file, 'utf8')) as ToolContract;

/** A caller that records what reached it and answers questions like a 2026-07-28 client would. */
function caller(answers: Record<string, unknown>) {
  const seen = { progress: [] as unknown[], logs: [] as unknown[], asked: [] as Question[][] };
  const client: ToolClient = {
    progress: (p) => void seen.progress.push(p),
    log: (m) => void seen.logs.push(m),
    ask: async (qs) => {
      seen.asked.push(qs);
      return qs.map((q) => answers[q.method]);
    },
  };
  return { seen, client };
}

describe('mcp client against a 2026-07-28 server (toolbox serve)', () => {
  it('speaks 2026-07-28 with a server that offers it: server/discover, no session', async () => {
    const s = await openSession(
      // OAuth state is kept per project (issue 33 item 4).
      { kind: 'http', project: env.dir, url: up.url, headers: {}, egress: (await egressFor('discover')).socket },
      { timeoutMs: 20_000, nodeBinary: process.execPath },
    );
    try {
      expect(s.modern).toBe(true);
      expect(s.protocolVersion).toBe('2026-07-28');
      expect(s.server.name).toBeTruthy();
    } finally {
      await s.close();
    }
  });

  it("keeps the server's $schema: a 2020-12 tuple schema accepts valid calls and refuses bad ones", async () => {
    const c = contractOf('pair');
    expect(c.schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: { pair: { prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } },
    });
    const ok = await cli(['run', 'pair', '--args', '{"pair":["apples",3]}', '--json'], { cwd: env.dir });
    expect(ok.errorJson?.error).toBeUndefined();
    expect(ok.code).toBe(0);
    expect(ok.json.result).toBe('apples x3');
    // Draft-07 reads items: false as "no items at all" and refused the valid call above; 2020-12 refuses a third item.
    const bad = await cli(['run', 'pair', '--args', '{"pair":["apples",3,"extra"]}', '--json'], { cwd: env.dir });
    expect(bad.code).toBe(2);
    expect(bad.errorJson.error.code).toBe('invalid_arguments');
  }, 60_000);

  it('puts input-required questions to the caller by key and retries the call with the answers', async () => {
    const c = contractOf('greet');
    const t = await loader.load({
      project: env.project,
      entry: { contract: c, file: join(env.project.registryDir, 'greet.yaml'), line: 1 },
      longRunning: false,
      verbose: false,
    });
    const { seen, client } = caller({
      'elicitation/create': { action: 'accept', content: { name: 'Alice' } },
      'sampling/createMessage': { role: 'assistant', model: 'test', content: { type: 'text', text: 'Lovely day.' } },
    });
    const out = await t.call({ greeting: 'Hi' }, callCtx({ network: true, client, egress: await egressFor('greet') }));
    expect(out.result).toBe('Hi, Alice! Lovely day.');
    // One round, both questions together, each under a key of its own derived from the server's.
    expect(seen.asked.length).toBe(1);
    expect(seen.asked[0]!.map((q) => q.method).sort()).toEqual(['elicitation/create', 'sampling/createMessage']);
    for (const q of seen.asked[0]!) expect(q.key).toMatch(/^mcp\.r1\./);
    expect(seen.asked[0]!.find((q) => q.method === 'elicitation/create')!.params).toMatchObject({
      message: 'Your name?',
    });
    // Progress (by the request's progressToken) and the tool's log message reached the caller.
    expect(seen.progress).toContainEqual(expect.objectContaining({ progress: 3, total: 3, message: 'done' }));
    expect(seen.logs).toContainEqual(expect.objectContaining({ level: 'info', data: 'greet: asking for a name' }));
  }, 60_000);

  it('a caller that cannot answer gets a clear failure, not a hang or a loop', async () => {
    const c = contractOf('greet');
    const t = await loader.load({
      project: env.project,
      entry: { contract: c, file: join(env.project.registryDir, 'greet.yaml'), line: 1 },
      longRunning: false,
      verbose: false,
    });
    const err = await t.call({}, callCtx({ network: true, egress: await egressFor('greet') })).catch((e: unknown) => e);
    expect(isToolRunError(err)).toBe(true);
    expect((err as Error).message).toMatch(/does not support elicitation|cannot answer/);
  }, 60_000);
});
