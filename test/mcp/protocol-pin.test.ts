// loader_config.protocol (and `import mcp --protocol`) pins the MCP revision toolbox speaks to an
// upstream: a server that speaks both (toolbox's own `serve --http`) is reached with `initialize` at
// 2025-11-25 alone when so pinned (no server/discover is sent), at 2026-07-28 when that is pinned or
// nothing is. A Python SDK server cannot ask its questions at 2026-07-28: pinned, its tool works.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cli, grantInTests } from '../helpers.js';
import { EgressProxy } from '../../src/sandbox/egress/index.js';
import { loader } from '../../src/loaders/mcp.js';
import { openSession } from '../../src/mcp/session.js';
import { clearEraMemory } from '../../src/mcp/era.js';
import { parseContract } from '../../src/contract/parse.js';
import type { ToolClient } from '../../src/loaders/types.js';
import type { ToolContract } from '../../src/contract/types.js';
import { callCtx, mcpProject } from './fixtures.js';
import { serveUpstream } from './serve-upstream.js';

let up: Awaited<ReturnType<typeof serveUpstream>>;
const env = mcpProject();
// The upstream serve is on the host's loopback: only the user's network grant opens it (issue 33).
grantInTests(env.dir, { network: ['127.0.0.1'] });
const proxy = new EgressProxy();
async function egressFor(tool: string) {
  const listener = await proxy.lease({ tool, hosts: true, grants: ['127.0.0.1'] });
  return { socket: listener.socket, listener, mark: listener.total };
}

/** The JSON-RPC requests this process sends by fetch while `fn` runs: method and offered protocolVersion. */
async function sentDuring(fn: () => Promise<unknown>): Promise<{ method: string; version?: string }[]> {
  const spy = vi.spyOn(globalThis, 'fetch');
  try {
    await fn();
    return spy.mock.calls.flatMap(([, init]) => {
      if (typeof init?.body !== 'string') return [];
      const msgs = [JSON.parse(init.body) as unknown].flat() as {
        method?: string;
        params?: { protocolVersion?: string };
      }[];
      return msgs.filter((m) => m.method).map((m) => ({ method: m.method!, version: m.params?.protocolVersion }));
    });
  } finally {
    spy.mockRestore();
  }
}

let imported: { id: string; tool: string; file: string }[] = [];
beforeAll(async () => {
  up = await serveUpstream();
}, 60_000);
afterAll(async () => {
  await up?.close();
  await proxy.close();
  env.cleanup();
});

const contractOf = (tool: string) =>
  parse(readFileSync(imported.find((t) => t.tool === tool)!.file, 'utf8')) as ToolContract;

describe('pinning an upstream to one MCP revision', () => {
  it('`import mcp --protocol 2025-11-25` lists the tools with initialize at 2025-11-25 only and writes the pin', async () => {
    let r: Awaited<ReturnType<typeof cli>> | undefined;
    const sent = await sentDuring(async () => {
      r = await cli(['import', 'mcp', '--json', '--url', up.url, '--protocol', '2025-11-25'], { cwd: env.dir });
    });
    expect(r!.errorJson?.error).toBeUndefined();
    expect(r!.code).toBe(0);
    imported = r!.json.tools;
    expect(imported.length).toBeGreaterThan(1);
    for (const t of imported) expect(contractOf(t.tool).loader_config).toMatchObject({ protocol: '2025-11-25' });
    expect(sent.map((m) => m.method)).not.toContain('server/discover');
    expect(sent.find((m) => m.method === 'initialize')).toEqual({ method: 'initialize', version: '2025-11-25' });
    // The contracts validate as written.
    const v = await cli(['validate', '--json'], { cwd: env.dir });
    expect(v.code).toBe(0);
  }, 60_000);

  it('the pinned session negotiates 2025-11-25; unpinned and pinned 2026-07-28 ones get 2026-07-28', async () => {
    clearEraMemory();
    const at = async (protocol?: '2025-11-25' | '2026-07-28') => {
      const target = {
        kind: 'http' as const,
        project: env.dir,
        url: up.url,
        headers: {},
        egress: (await egressFor('pin')).socket,
      };
      const s = await openSession(protocol ? { ...target, protocol } : target, {
        timeoutMs: 20_000,
        nodeBinary: process.execPath,
      });
      await s.close();
      return [s.protocolVersion, s.modern];
    };
    expect(await at('2025-11-25')).toEqual(['2025-11-25', false]);
    // The pinned 2025 verdict is not kept as a hint for the same server unpinned.
    let unpinned: unknown[] = [];
    const sent = await sentDuring(async () => (unpinned = await at()));
    expect(unpinned).toEqual(['2026-07-28', true]);
    // What the pinned connections never send (the spy sees it when it is sent).
    expect(sent.map((m) => m.method)).toContain('server/discover');
    expect(await at('2026-07-28')).toEqual(['2026-07-28', true]);
  }, 60_000);

  it("the loader calls a pinned tool at 2025-11-25: the server's questions come as requests, answered by the caller", async () => {
    const c = contractOf('greet');
    const t = await loader.load({
      project: env.project,
      entry: { contract: c, file: join(env.project.registryDir, 'greet.yaml'), line: 1 },
      longRunning: false,
      verbose: false,
    });
    const answers: Record<string, unknown> = {
      'elicitation/create': { action: 'accept', content: { name: 'Alice' } },
      'sampling/createMessage': { role: 'assistant', model: 'test', content: { type: 'text', text: 'Lovely day.' } },
    };
    const client: ToolClient = { ask: async (qs) => qs.map((q) => answers[q.method]) };
    let out: { result?: unknown } | undefined;
    const sent = await sentDuring(async () => {
      out = await t.call({ greeting: 'Hi' }, callCtx({ network: true, client, egress: await egressFor('greet') }));
    });
    expect(out!.result).toBe('Hi, Alice! Lovely day.');
    expect(sent.map((m) => m.method)).not.toContain('server/discover');
    expect(sent.find((m) => m.method === 'initialize')?.version).toBe('2025-11-25');
  }, 60_000);

  it('a stdio server that answers a pinned initialize with another revision is refused, naming the pin', async () => {
    // A 2025-03-26 server: whatever it is offered, it answers with its own revision.
    const old = `import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    send({ id: m.id, result: { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } } });
  else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;
    writeFileSync(join(env.dir, 'old-server.mjs'), old);
    const r = await cli(['import', 'mcp', '--json', '--protocol', '2025-11-25', '--', 'node', 'old-server.mjs'], {
      cwd: env.dir,
    });
    expect(r.code).toBe(4);
    expect(r.errorJson.error.code).toBe('mcp_server_failed');
    expect(r.errorJson.error.message).toMatch(
      /at the pinned revision 2025-11-25 \(loader_config\.protocol\).*2025-03-26/,
    );
  }, 60_000);

  it('an unknown --protocol is a usage error naming the revisions toolbox speaks', async () => {
    const r = await cli(['import', 'mcp', '--json', '--url', up.url, '--protocol', '2026-01-01'], { cwd: env.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('bad_protocol');
    expect(r.errorJson.error.hint).toContain('2025-11-25');
  });

  it('validate refuses an unknown loader_config.protocol at its line and column', async () => {
    const text = `id: pinned
name: pinned
description: A tool of an MCP server pinned to a revision that does not exist.
schema: { type: object }
loader: mcp
loader_config:
  url: http://127.0.0.1:1/mcp
  tool: pinned
  protocol: 2026-01-01
`;
    const d = parseContract('/r/pinned.yaml', new TextEncoder().encode(text)).diagnostics;
    expect(d.map((x) => `${x.line}:${x.column} ${x.rule} ${x.message}`)).toEqual([
      `9:3 contract-schema 'loader_config.protocol' must be one of: "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"`,
    ]);
    writeFileSync(join(env.project.registryDir, 'pinned.yaml'), text);
    const v = await cli(['validate'], { cwd: env.dir });
    expect(v.code).not.toBe(0);
    expect(v.stdout).toMatch(
      /pinned\.yaml\n(?: .*\n)*?\s+9:3\s+error\s+'loader_config\.protocol' must be one of: "2026-07-28"/,
    );
  });
});
