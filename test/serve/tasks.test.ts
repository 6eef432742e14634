// MCP tasks (io.modelcontextprotocol/tasks, 2026-07-28) in `toolbox serve`, in process: two servers
// sharing one store stand for two replicas behind a load balancer, so a task created on one is
// followed (tasks/get), answered (tasks/update) and cancelled (tasks/cancel) through the other.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { MemoryStore, type ServeStore } from '../../src/serve/store.js';
import { modernPost, serveProject } from './fixtures.js';

const proj = serveProject();
proj.write(
  'serve_tools/jobs.py',
  `import time
from toolbox_tool import ask, background, elicit, question

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

def build(seconds, announce=True):
    if announce:
        background()
    time.sleep(seconds)
    return {"built": seconds}

def interview():
    background()
    answers = ask(first=question.elicit("First name?", NAME), last=question.elicit("Last name?", NAME))
    return "%s %s" % (answers["first"]["content"]["name"], answers["last"]["content"]["name"])
`,
);
const job = (id: string, fn: string, schema: string, task: string) => `id: ${id}
name: ${id}
description: A long job. Use to test tasks.
schema: ${schema}
loader: python_function
loader_config: { module: serve_tools.jobs, function: ${fn} }
timeout: 60
mcp: { task: ${task} }
`;
const BUILD =
  '{ type: object, properties: { seconds: { type: number }, announce: { type: boolean } }, required: [seconds] }';
proj.write('tool_registry/build.yaml', job('build', 'build', BUILD, 'optional'));
proj.write('tool_registry/build_only_task.yaml', job('build_only_task', 'build', BUILD, 'required'));
proj.write(
  'tool_registry/interview.yaml',
  job('interview', 'interview', '{ type: object, properties: {} }', 'optional'),
);
afterAll(() => proj.cleanup());

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: {} };
const meta = (caps: object) => ({ meta: { 'io.modelcontextprotocol/clientCapabilities': caps } });
const runs = (id: string) => {
  const f = join(proj.dir, '.toolbox', 'calls.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { tool: string; outcome: string })
    .filter((c) => c.tool === id)
    .map((c) => c.outcome);
};

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});
async function start(store: ServeStore, taskGraceMs = 1000) {
  const core = new ServeCore(resolveProject({ cwd: proj.dir, registry: proj.registry }), {
    expose: 'all',
    caller: {},
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    store,
    taskGraceMs,
  });
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, { port: 0, host: '127.0.0.1', auth: 'none', signal: ac.signal, onListening: res });
    done.catch(rej);
  });
  stops.push(async () => {
    ac.abort();
    await done;
    await core.close();
  });
  return url;
}
const task = (url: string, method: string, taskId: string, extra: object = {}, caps: object = TASKS) =>
  modernPost(url, method, { taskId, ...extra }, { ...meta(caps), headers: { 'mcp-name': taskId } });
const status = async (url: string, taskId: string) => (await task(url, 'tasks/get', taskId)).final!.result;

describe('tasks', () => {
  it('a call that goes to the background becomes a task; another replica follows it to its result', async () => {
    const store = new MemoryStore();
    const [a, b] = [await start(store), await start(store)];
    const created = await modernPost(a, 'tools/call', { name: 'build', arguments: { seconds: 1.5 } }, meta(TASKS));
    const t = created.final!.result;
    expect(t.resultType).toBe('task');
    expect(t.status).toBe('working');
    expect(Number.isInteger(t.ttlMs) && Number.isInteger(t.pollIntervalMs)).toBe(true);
    // Durable before the handle is returned: the other replica finds it at once.
    expect((await status(b, t.taskId)).status).toBe('working');
    await expect.poll(async () => (await status(b, t.taskId)).status, { timeout: 15_000 }).toBe('completed');
    const done = await status(b, t.taskId);
    expect(done.result.structuredContent).toEqual({ built: 1.5 });
    expect(done.resultType).toBe('complete');
  });

  it('a call that may be a task but ends within the grace answers at once', async () => {
    // A grace far longer than the call, so a loaded machine cannot turn it into a task.
    const url = await start(new MemoryStore(), 60_000);
    const quick = await modernPost(
      url,
      'tools/call',
      { name: 'build', arguments: { seconds: 0, announce: false } },
      meta(TASKS),
    );
    expect(quick.final!.result.resultType).toBe('complete');
    expect(quick.final!.result.structuredContent).toEqual({ built: 0 });
  });

  it('one that runs past the grace without saying so becomes a task', async () => {
    // A call that cannot end before 3 s, against a grace of 300 ms: a task whatever the load.
    const url = await start(new MemoryStore(), 300);
    const slow = await modernPost(
      url,
      'tools/call',
      { name: 'build', arguments: { seconds: 3, announce: false } },
      meta(TASKS),
    );
    expect(slow.final!.result.resultType).toBe('task');
    await expect
      .poll(async () => (await status(url, slow.final!.result.taskId)).status, { timeout: 20_000 })
      .toBe('completed');
  });

  it('its questions show on tasks/get; answers come with tasks/update, one at a time if need be, through any replica', async () => {
    const store = new MemoryStore();
    const [a, b] = [await start(store), await start(store)];
    const t = (await modernPost(a, 'tools/call', { name: 'interview', arguments: {} }, meta(TASKS))).final!.result;
    await expect.poll(async () => (await status(b, t.taskId)).status, { timeout: 15_000 }).toBe('input_required');
    expect(Object.keys((await status(b, t.taskId)).inputRequests)).toEqual(['first', 'last']);
    const ack = await task(b, 'tasks/update', t.taskId, {
      inputResponses: { first: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(ack.final!.result).toMatchObject({ resultType: 'complete' });
    await expect.poll(async () => Object.keys((await status(a, t.taskId)).inputRequests ?? {})).toEqual(['last']);
    // An answer for a question that is not open is ignored.
    await task(b, 'tasks/update', t.taskId, { inputResponses: { nope: { action: 'accept', content: {} } } });
    await task(b, 'tasks/update', t.taskId, {
      inputResponses: { last: { action: 'accept', content: { name: 'Lovelace' } } },
    });
    await expect.poll(async () => (await status(a, t.taskId)).status, { timeout: 15_000 }).toBe('completed');
    expect((await status(a, t.taskId)).result.content[0].text).toBe('Ada Lovelace');
  });

  it('tasks/cancel stops the call (it ends cancelled), and answers the same on a task that already ended', async () => {
    const url = await start(new MemoryStore());
    const before = runs('build').length;
    const t = (await modernPost(url, 'tools/call', { name: 'build', arguments: { seconds: 30 } }, meta(TASKS))).final!
      .result;
    expect((await task(url, 'tasks/cancel', t.taskId)).final!.result).toMatchObject({ resultType: 'complete' });
    await expect.poll(async () => (await status(url, t.taskId)).status, { timeout: 15_000 }).toBe('cancelled');
    expect(runs('build').slice(before)).toEqual(['cancelled']);
    expect((await task(url, 'tasks/cancel', t.taskId)).final!.result).toMatchObject({ resultType: 'complete' });
  });

  it('a client without the extension: calls run synchronously, a task-only tool and the task methods are -32021', async () => {
    const url = await start(new MemoryStore());
    const sync = await modernPost(url, 'tools/call', { name: 'build', arguments: { seconds: 0.2 } });
    expect(sync.final!.result.structuredContent).toEqual({ built: 0.2 });
    const only = await modernPost(url, 'tools/call', { name: 'build_only_task', arguments: { seconds: 0 } });
    expect(only.status).toBe(400);
    expect(only.final!.error.code).toBe(-32021);
    expect(only.final!.error.data.requiredCapabilities).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const get = await task(url, 'tasks/get', 'whatever', {}, {});
    expect(get.final!.error.code).toBe(-32021);
    // With it: an unknown task is -32602; the Mcp-Name header must name the task.
    expect((await task(url, 'tasks/get', 'no-such-task')).final!.error.code).toBe(-32602);
    const t = (await modernPost(url, 'tools/call', { name: 'build', arguments: { seconds: 1 } }, meta(TASKS))).final!
      .result;
    const lying = await modernPost(
      url,
      'tasks/get',
      { taskId: t.taskId },
      { ...meta(TASKS), headers: { 'mcp-name': 'other' } },
    );
    expect(lying.status).toBe(400);
    expect(lying.final!.error.code).toBe(-32020);
  });
});
