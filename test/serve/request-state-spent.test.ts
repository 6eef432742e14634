// Issue 36 item 4: an input-required requestState is single-use. Spent when its call completes, and
// kept spent in the shared store, so no replica runs the call again for a replay; answers without a
// state answer only the questions asked by their keys; a state answers only the client it asked.
// Two real servers sharing a real redis-server, a real sandboxed Python tool that asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { SharedState } from '../../src/state/shared.js';
import { parseStateUrl } from '../../src/state/url.js';
// @ts-expect-error plain JavaScript helper of the deployment scripts
import { startRedis } from '../../deploy/local-cluster.mjs';
import { modernPost, serveProject } from './fixtures.js';

const proj = serveProject();
proj.write(
  'serve_tools/asking.py',
  `from toolbox_tool import elicit

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

def ask_name(greeting):
    answer = elicit("What is your name?", NAME, key="name")
    return "%s, %s!" % (greeting, (answer.get("content") or {}).get("name"))
`,
);
proj.write(
  'tool_registry/ask_name.yaml',
  `id: ask_name
name: ask_name
description: Asks the user for a name. Use to test questions.
schema: { type: object, properties: { greeting: { type: string } }, required: [greeting] }
loader: python_function
loader_config: { module: serve_tools.asking, function: ask_name }
`,
);

type Redis = { url: string; child: import('node:child_process').ChildProcess; exited: Promise<unknown> };
let redis: Redis;
const replicas: { url: string; stop: () => Promise<void> }[] = [];
const shared: SharedState[] = [];

async function replica(): Promise<string> {
  const s = await SharedState.open(parseStateUrl(`${redis.url}?ns=spent`, 'flag'), { connectWaitMs: 5000 });
  shared.push(s);
  const core = new ServeCore(resolveProject({ cwd: proj.dir, registry: proj.registry }), {
    expose: 'all',
    caller: {},
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    shared: s,
  });
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, { port: 0, host: '127.0.0.1', auth: 'none', signal: ac.signal, onListening: res });
    done.catch(rej);
  });
  replicas.push({
    url,
    stop: async () => {
      ac.abort();
      await done;
      await core.close();
    },
  });
  return url;
}

beforeAll(async () => {
  redis = (await startRedis()) as Redis;
}, 60_000);
afterAll(async () => {
  for (const r of replicas) await r.stop();
  for (const s of shared) await s.close();
  redis.child.kill('SIGKILL');
  await redis.exited;
  proj.cleanup();
});

const meta = (client = 'asker') => ({
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
});
const ask = (url: string, extra: Record<string, unknown> = {}, client?: string) =>
  modernPost(url, 'tools/call', { name: 'ask_name', arguments: { greeting: 'Hi' }, ...extra }, { meta: meta(client) });
const answer = { name: { action: 'accept', content: { name: 'Ann' } } };

describe('a requestState answers one call once', () => {
  it('spent when its call completes: a replay is refused (before anything runs) here and on the other replica', async () => {
    const [a, b] = [await replica(), await replica()];
    const asked = await ask(a);
    const state = asked.final!.result.requestState as string;
    const done = await ask(a, { inputResponses: answer, requestState: state });
    expect(done.final!.result.content[0].text).toBe('Hi, Ann!');
    for (const url of [a, b]) {
      const replay = await ask(url, { inputResponses: answer, requestState: state });
      expect(replay.final?.error?.code).toBe(-32602);
      expect(replay.final?.error?.message).toMatch(/requestState.*completed/);
    }
  });

  it('a call run again on another replica from the state spends the state it ran from', async () => {
    const [a, b] = [await replica(), await replica()];
    const asked = await ask(a);
    const state = asked.final!.result.requestState as string;
    // The retry reaches b: the call runs again there, answered from the state.
    const done = await ask(b, { inputResponses: answer, requestState: state });
    expect(done.final!.result.content[0].text).toBe('Hi, Ann!');
    const replay = await ask(a, { inputResponses: answer, requestState: state });
    expect(replay.final?.error?.code).toBe(-32602);
  });

  it('answers without a requestState only answer the questions the call asks by their keys (SEP-2322)', async () => {
    const [a] = [await replica()];
    // A key the tool does not ask answers nothing: the call asks its question (re-request), no error.
    const wrong = await ask(a, { inputResponses: { nickname: answer.name } });
    expect(wrong.final?.error).toBeUndefined();
    expect(wrong.final!.result.resultType).toBe('input_required');
    expect(JSON.stringify(wrong.final!.result.inputRequests)).toContain('What is your name?');
    // The key it asks, answered up front, is its answer (extra keys are ignored).
    const upfront = await ask(a, { inputResponses: { ...answer, extra: { action: 'accept', content: {} } } });
    expect(upfront.final!.result.content[0].text).toBe('Hi, Ann!');
  });

  it('a state minted for one client is refused to another', async () => {
    const [a] = [await replica()];
    const asked = await ask(a, {}, 'alice');
    const r = await ask(a, { inputResponses: answer, requestState: asked.final!.result.requestState }, 'mallory');
    expect(r.final?.error?.code).toBe(-32602);
    expect(JSON.stringify(r.final?.error)).toMatch(/another caller/);
    // The client it was minted for still completes the call.
    const ok = await ask(a, { inputResponses: answer, requestState: asked.final!.result.requestState }, 'alice');
    expect(ok.final!.result.content[0].text).toBe('Hi, Ann!');
  });
});
