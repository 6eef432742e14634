// Input-required results (MCP 2026-07-28 multi round-trip requests) in `toolbox serve`, in process so
// the wait for a client's answers can be made short: the retry resumes the waiting call; when the
// call is gone, the answers carried by requestState run it again; a requestState that was tampered
// with, or minted for another call, is refused.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { digest, mintState, verifyState } from '../../src/serve/request-state.js';
import { modernPost, serveProject } from './fixtures.js';

const proj = serveProject();
proj.write(
  'serve_tools/asking.py',
  `from toolbox_tool import ask, elicit, question

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

def ask_name(greeting):
    answer = elicit("What is your name?", NAME, key="name")
    return "%s, %s!" % (greeting, (answer.get("content") or {}).get("name"))

def ask_twice():
    first = elicit("First name?", NAME)   # no key: numbered elicitation-1, elicitation-2
    last = elicit("Last name?", NAME)
    return "%s %s" % (first["content"]["name"], last["content"]["name"])
`,
);
const tool = (id: string, fn: string, schema: string) => `id: ${id}
name: ${id}
description: Asks the user for names. Use to test questions.
schema: ${schema}
loader: python_function
loader_config: { module: serve_tools.asking, function: ${fn} }
`;
proj.write(
  'tool_registry/ask_name.yaml',
  tool('ask_name', 'ask_name', '{ type: object, properties: { greeting: { type: string } }, required: [greeting] }'),
);
proj.write('tool_registry/ask_twice.yaml', tool('ask_twice', 'ask_twice', '{ type: object, properties: {} }'));
afterAll(() => proj.cleanup());

const ELICIT = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
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

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});
async function start(inputWaitMs: number) {
  const core = new ServeCore(resolveProject({ cwd: proj.dir, registry: proj.registry }), {
    expose: 'all',
    caller: {},
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    inputWaitMs,
  });
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, { port: 0, host: '127.0.0.1', auth: 'none', signal: ac.signal, onListening: res });
    done.catch(rej);
  });
  stop = async () => {
    ac.abort();
    await done;
    await core.close();
  };
  return { url, core };
}
const accept = (name: string) => ({ action: 'accept', content: { name } });

describe('input-required results', () => {
  it('the retry resumes the waiting call: one run of the tool for two requests', async () => {
    const { url, core } = await start(60_000);
    const before = runs('ask_name').length;
    const r1 = await modernPost(
      url,
      'tools/call',
      { name: 'ask_name', arguments: { greeting: 'Hi' } },
      { meta: ELICIT },
    );
    const ir = r1.final!.result;
    expect(ir.resultType).toBe('input_required');
    expect(Object.keys(ir.inputRequests)).toEqual(['name']);
    expect(core.inputs.size).toBe(1);
    const r2 = await modernPost(
      url,
      'tools/call',
      {
        name: 'ask_name',
        arguments: { greeting: 'Hi' },
        inputResponses: { name: accept('Ann') },
        requestState: ir.requestState,
      },
      { meta: ELICIT, id: 2 },
    );
    expect(r2.final!.result.content[0].text).toBe('Hi, Ann!');
    expect(core.inputs.size).toBe(0);
    expect(runs('ask_name').slice(before)).toEqual(['ok']);
  });

  it('when the waiting call was given up, the retry runs it again with the answers the state carries', async () => {
    const { url, core } = await start(150);
    const before = runs('ask_twice').length;
    const r1 = await modernPost(url, 'tools/call', { name: 'ask_twice', arguments: {} }, { meta: ELICIT });
    expect(Object.keys(r1.final!.result.inputRequests)).toEqual(['elicitation-1']);
    const r2 = await modernPost(
      url,
      'tools/call',
      {
        name: 'ask_twice',
        arguments: {},
        inputResponses: { 'elicitation-1': accept('Ann') },
        requestState: r1.final!.result.requestState,
      },
      { meta: ELICIT, id: 2 },
    );
    expect(Object.keys(r2.final!.result.inputRequests)).toEqual(['elicitation-2']);
    // The client takes its time: the suspended call is cancelled (on a slow machine the first one may
    // have been too, before the second request came: then that one ran the tool again)...
    await expect.poll(() => core.inputs.size, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => runs('ask_twice').slice(before)).toContain('cancelled');
    // ...and the answer still completes the call: run again, the first question answered from the state.
    const r3 = await modernPost(
      url,
      'tools/call',
      {
        name: 'ask_twice',
        arguments: {},
        inputResponses: { 'elicitation-2': accept('Lee') },
        requestState: r2.final!.result.requestState,
      },
      { meta: ELICIT, id: 3 },
    );
    expect(r3.final!.result.content[0].text).toBe('Ann Lee');
    // One run completed the call; every other run was a wait given up.
    const all = runs('ask_twice').slice(before);
    expect(all.filter((o) => o === 'ok')).toHaveLength(1);
    expect(all.filter((o) => o !== 'ok').every((o) => o === 'cancelled')).toBe(true);
  });

  it('asks again for an answer that is missing or malformed, instead of failing the call', async () => {
    const { url } = await start(60_000);
    const r1 = await modernPost(
      url,
      'tools/call',
      { name: 'ask_name', arguments: { greeting: 'Yo' } },
      { meta: ELICIT },
    );
    const state = r1.final!.result.requestState;
    const wrong = await modernPost(
      url,
      'tools/call',
      { name: 'ask_name', arguments: { greeting: 'Yo' }, inputResponses: { nom: accept('X') }, requestState: state },
      { meta: ELICIT, id: 2 },
    );
    expect(Object.keys(wrong.final!.result.inputRequests)).toEqual(['name']);
    const bad = await modernPost(
      url,
      'tools/call',
      {
        name: 'ask_name',
        arguments: { greeting: 'Yo' },
        inputResponses: { name: { action: 'maybe' } },
        requestState: wrong.final!.result.requestState,
      },
      { meta: ELICIT, id: 3 },
    );
    expect(Object.keys(bad.final!.result.inputRequests)).toEqual(['name']);
    const good = await modernPost(
      url,
      'tools/call',
      {
        name: 'ask_name',
        arguments: { greeting: 'Yo' },
        inputResponses: { name: accept('Bo') },
        requestState: bad.final!.result.requestState,
      },
      { meta: ELICIT, id: 4 },
    );
    expect(good.final!.result.content[0].text).toBe('Yo, Bo!');
  });

  it('refuses a requestState that was altered, or minted for other arguments (-32602)', async () => {
    const { url } = await start(60_000);
    const r1 = await modernPost(
      url,
      'tools/call',
      { name: 'ask_name', arguments: { greeting: 'Hi' } },
      { meta: ELICIT },
    );
    const state: string = r1.final!.result.requestState;
    // Swap the carried answers for others (same signature): refused.
    const [body, mac] = state.split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString());
    forged.n = { name: accept('Mallory') };
    const tampered = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
    for (const [args, rs] of [
      [{ greeting: 'Hi' }, tampered],
      [{ greeting: 'Bye' }, state],
    ] as const) {
      const r = await modernPost(
        url,
        'tools/call',
        { name: 'ask_name', arguments: args, requestState: rs },
        { meta: ELICIT, id: 2 },
      );
      expect(r.final!.error.code).toBe(-32602);
      expect(r.final!.error.message).toBe('Invalid or expired requestState');
    }
  });

  it('a client without the elicitation capability is not asked: the tool sees that it cannot ask', async () => {
    const { url } = await start(60_000);
    const r = await modernPost(url, 'tools/call', { name: 'ask_name', arguments: { greeting: 'Hi' } });
    expect(r.final!.result.isError).toBe(true);
    expect(r.final!.result.content[0].text).toMatch(/does not support elicitation/);
  });
});

describe('requestState', () => {
  const secret = Buffer.alloc(32, 7);
  const expect_ = { tool: 't', args: digest({ a: 1 }), caller: '[null,null]' };
  const mint = (now = Date.now()) =>
    mintState(secret, { c: 'x', r: 1, t: 't', a: expect_.args, p: expect_.caller, n: {} }, now);
  it('is bound to the tool, its arguments (in any key order), the caller and a time', () => {
    expect(digest({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(digest({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(verifyState(secret, mint(), expect_).c).toBe('x');
    expect(() => verifyState(secret, mint(), { ...expect_, tool: 'u' })).toThrow(/Invalid or expired/);
    expect(() => verifyState(secret, mint(), { ...expect_, caller: '["eve",null]' })).toThrow(/Invalid or expired/);
    expect(() => verifyState(secret, mint(Date.now() - 2 * 60 * 60_000), expect_)).toThrow(/Invalid or expired/);
    expect(() => verifyState(Buffer.alloc(32, 8), mint(), expect_)).toThrow(/Invalid or expired/);
    for (const junk of [42, '', 'abc', 'abc.def', `${mint()}x`])
      expect(() => verifyState(secret, junk, expect_)).toThrow();
  });
});
