// Task-augmented tools of a 2025-11-25 server (the v1 SDK's experimental tasks, test/fixtures/mcp-tasks):
// `import mcp` keeps execution.taskSupport as the contract's mcp.task (required, forbidden), `toolbox run`
// calls a `required` tool as a task (tools/call with `task`, tasks/get, tasks/result) with its progress
// relayed, and a call given up (its timeout) sends tasks/cancel, which the server records.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, REPO, cli, grantInTests, testConfigEnv } from '../helpers.js';
import { serveUpstream } from './serve-upstream.js';
import { loader } from '../../src/loaders/mcp.js';
import { closeAllSessions } from '../../src/mcp/pool.js';
import { parseContract } from '../../src/contract/parse.js';
import type { ToolContract } from '../../src/contract/types.js';
import type { ToolClient } from '../../src/loaders/types.js';
import { callCtx, mcpProject } from './fixtures.js';

const SERVER = readFileSync(join(REPO, 'test/fixtures/mcp-tasks/server.mjs'), 'utf8');
const env = mcpProject({ 'srv/tasks.mjs': SERVER });
afterAll(async () => {
  await closeAllSessions();
  env.cleanup();
});

type Row = { id: string; tool: string; status: string; file: string; note?: string };
let rows: Row[] = [];
const contractOf = (tool: string) => {
  const row = rows.find((r) => r.tool === tool)!;
  return { row, contract: parse(readFileSync(row.file, 'utf8')) as ToolContract };
};

describe('task-augmented tools of a 2025-11-25 server', () => {
  it('are imported, with execution.taskSupport kept as mcp.task (and the contracts valid)', async () => {
    const r = await cli(['import', 'mcp', '--json', '--', 'node', 'srv/tasks.mjs'], { cwd: env.dir });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    rows = r.json.tools as Row[];
    expect(rows.map((t) => [t.tool, t.status]).sort()).toEqual([
      ['cancelled_tasks', 'written'],
      ['plain_echo', 'written'],
      ['slow_count', 'written'],
    ]);
    expect(contractOf('slow_count').contract.mcp).toEqual({ task: 'required' });
    expect(contractOf('plain_echo').contract.mcp).toEqual({ task: 'forbidden' });
    // The v1 SDK lists a plain tool as taskSupport: forbidden.
    expect(contractOf('cancelled_tasks').contract.mcp).toEqual({ task: 'forbidden' });
    for (const t of rows) {
      const parsed = parseContract(t.file, readFileSync(t.file));
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
    const validate = await cli(['validate', '--json'], { cwd: env.dir });
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
  }, 60_000);

  it('`toolbox run` calls a required one as a task and prints its result', async () => {
    const id = contractOf('slow_count').row.id;
    const r = await cli(['run', id, '--steps', '3', '--ms', '300', '--json'], { cwd: env.dir });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    expect(r.json.result).toEqual({ count: 3 });
  }, 60_000);

  it('relays every progress notification of the task to the caller', async () => {
    const { contract, row } = contractOf('slow_count');
    const seen: unknown[] = [];
    const client: ToolClient = { progress: (p) => void seen.push(p) };
    const t = await loader.load({
      project: env.project,
      entry: { contract, file: row.file, line: 1 },
      longRunning: false,
      verbose: false,
    });
    const out = await t.call({ steps: 4, ms: 100 }, callCtx({ client }));
    expect(out.result).toEqual({ count: 4 });
    expect(seen).toEqual([1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `step ${i} of 4` })));
  }, 60_000);

  it('a call that times out sends tasks/cancel, and the server records it', async () => {
    const slow = contractOf('slow_count');
    const list = contractOf('cancelled_tasks');
    // One pooled server for both tools (a long-running process), so the second call asks the same one.
    const load = (c: { contract: ToolContract; row: Row }) =>
      loader.load({
        project: env.project,
        entry: { contract: c.contract, file: c.row.file, line: 1 },
        longRunning: true,
        verbose: false,
      });
    const [counter, lister] = await Promise.all([load(slow), load(list)]);
    try {
      const before = JSON.parse(String((await lister.call({}, callCtx())).result)) as string[];
      expect(before).toEqual([]);
      const err = await counter.call({ steps: 50, ms: 200 }, callCtx({ timeoutMs: 1500 })).catch((e: unknown) => e);
      expect(err).toMatchObject({ limit: 'timeout' });
      const after = JSON.parse(String((await lister.call({}, callCtx())).result)) as string[];
      expect(after).toHaveLength(1);
    } finally {
      await counter.dispose?.();
      await lister.dispose?.();
    }
  }, 60_000);

  it('`toolbox run` past its --timeout cancels the task before it closes the server (the server log says so)', async () => {
    const id = contractOf('slow_count').row.id;
    const r = await cli(['run', id, '--steps', '50', '--ms', '200', '--timeout', '1.5', '--verbose', '--json'], {
      cwd: env.dir,
    });
    expect(r.code).toBe(5);
    expect(r.errorJson?.error).toMatchObject({ code: 'tool_timeout' });
    expect(r.errorJson?.error.details.logs).toMatch(/task \S+ cancelled by the client/);
  }, 60_000);

  it('through `toolbox serve`: a client without tasks gets the result and the progress; its cancel reaches the server', async () => {
    const client = new Client({ name: 'top', version: '1.0.0' }, { capabilities: {} });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--registry', join(env.dir, 'tool_registry'), '--expose', 'all'],
        cwd: env.dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() },
        stderr: 'ignore',
      }),
    );
    try {
      const id = contractOf('slow_count').row.id;
      const progress: number[] = [];
      client.setNotificationHandler('notifications/progress', (n) => {
        if (n.params.progressToken === 'top') progress.push(n.params.progress);
      });
      const r = await client.callTool({ name: id, arguments: { steps: 3, ms: 100 }, _meta: { progressToken: 'top' } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ count: 3 });
      await expect.poll(() => progress).toEqual([1, 2, 3]);

      const cancelled = async () =>
        JSON.parse(
          (
            (await client.callTool({ name: contractOf('cancelled_tasks').row.id, arguments: {} })).content as {
              text: string;
            }[]
          )[0]!.text,
        ) as string[];
      const before = (await cancelled()).length;
      const ac = new AbortController();
      const long = client.callTool(
        { name: id, arguments: { steps: 50, ms: 200 }, _meta: { progressToken: 'stop' } },
        { signal: ac.signal },
      );
      client.setNotificationHandler('notifications/progress', (n) => {
        if (n.params.progressToken === 'stop') ac.abort(new Error('the person pressed stop'));
      });
      await expect(long).rejects.toThrow();
      await expect.poll(async () => (await cancelled()).length, { timeout: 10_000 }).toBe(before + 1);
    } finally {
      await client.close();
    }
  }, 60_000);
});

// A 2026-07-28 server with the tasks extension (SEP-2663): toolbox's own `serve --http`, whose `slow`
// tool (contract `mcp: { task: required }`: refused to a client without the extension) becomes a task a
// second in. 2026-07-28 lists no execution.taskSupport (the SDK deletes it from tools/list), so the
// imported contract has no mcp.task; toolbox as the client declares the extension on every call, gets
// `resultType: "task"`, and follows it with tasks/get.
const SLOW = `
export async function slow({ steps, ms }, tool) {
  for (let i = 1; i <= steps; i++) {
    await new Promise((r) => setTimeout(r, ms));
    tool.progress(i, steps, 'step ' + i);
  }
  return 'counted to ' + steps;
}
`;
const SLOW_CONTRACT = `id: slow
name: slow
description: Count to steps, one step every ms milliseconds; only as a task.
schema:
  type: object
  properties: { steps: { type: integer }, ms: { type: integer } }
  required: [steps, ms]
  additionalProperties: false
loader: node_module
loader_config: { module: tools/up.mjs, function: slow }
mcp: { task: required }
`;

describe('task-augmented tools of a 2026-07-28 server (the tasks extension)', () => {
  const modern = mcpProject();
  grantInTests(modern.dir, { network: ['127.0.0.1'] });
  let up: Awaited<ReturnType<typeof serveUpstream>> | undefined;
  afterAll(async () => {
    await up?.close();
    modern.cleanup();
  });

  it('are imported, and run as tasks: created, polled, the result inline', async () => {
    up = await serveUpstream({ tools: SLOW, contracts: { 'slow.yaml': SLOW_CONTRACT } });
    const r = await cli(['import', 'mcp', '--json', '--url', up.url], { cwd: modern.dir });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    const slow = (r.json.tools as Row[]).find((t) => t.tool === 'slow')!;
    expect((parse(readFileSync(slow.file, 'utf8')) as ToolContract).mcp).toBeUndefined();
    const run = await cli(['run', slow.id, '--steps', '3', '--ms', '700', '--json'], { cwd: modern.dir });
    expect(run.errorJson?.error).toBeUndefined();
    expect(run.code).toBe(0);
    expect(run.json.result).toBe('counted to 3');
  }, 60_000);

  it('a call past its timeout sends tasks/cancel: the server stops the call (its call log says cancelled)', async () => {
    const id = 'slow';
    const r = await cli(['run', id, '--steps', '40', '--ms', '250', '--timeout', '2', '--json'], { cwd: modern.dir });
    expect(r.code).toBe(5);
    // Left alone the call would end `ok` ten seconds in; cancelled, serve logs it as such at once.
    const last = () => {
      const lines = readFileSync(join(up!.dir, '.toolbox', 'calls.jsonl'), 'utf8')
        .trim()
        .split('\n');
      return lines
        .map((l) => JSON.parse(l) as { tool: string; outcome: string })
        .filter((c) => c.tool === 'slow')
        .pop()?.outcome;
    };
    await expect.poll(last, { timeout: 8000 }).toBe('cancelled');
  }, 60_000);
});
