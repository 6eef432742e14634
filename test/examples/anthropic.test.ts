// examples/anthropic-tool-search.mjs with the real `@anthropic-ai/sdk` against recorded Messages API
// responses: the catalog goes out deferred, the model's search is answered with tool_reference
// blocks chosen by toolbox's selector, the referenced tool runs in the sandbox and its result is
// the next request's tool_result.
import { afterEach, describe, expect, it } from 'vitest';
import { callLog, replay, runExample, shippedProject, type Replay } from './replay.js';

const message = (n: number, content: object[], stop: string) => ({
  id: `msg_0${n}`,
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 400, output_tokens: 40 },
});

let server: Replay | undefined;
let project: ReturnType<typeof shippedProject> | undefined;
afterEach(async () => {
  await server?.close();
  project?.cleanup();
});

describe('examples/anthropic-tool-search.mjs', () => {
  it('defers the catalog, answers the search with tool_reference, runs the tool, returns its result', async () => {
    server = await replay([
      {
        path: '/v1/messages',
        body: message(
          1,
          [
            { type: 'text', text: 'Let me find a unit converter.' },
            { type: 'tool_use', id: 'toolu_01', name: 'search_tools', input: { query: 'convert miles to kilometres' } },
          ],
          'tool_use',
        ),
      },
      {
        path: '/v1/messages',
        body: message(
          2,
          [
            {
              type: 'tool_use',
              id: 'toolu_02',
              name: 'convert_units',
              input: { value: 26.2, from_unit: 'mile', to_unit: 'km' },
            },
          ],
          'tool_use',
        ),
      },
      { path: '/v1/messages', body: message(3, [{ type: 'text', text: 'That is 42.16 km.' }], 'end_turn') },
    ]);
    project = shippedProject();
    const r = await runExample('anthropic-tool-search.mjs', 'How many kilometres is 26.2 miles?', {
      cwd: project.dir,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('That is 42.16 km.');

    const [first, second, third] = server.seen;
    // The key goes as x-api-key or a bearer token, depending on the SDK version.
    expect(`${first!.headers['x-api-key'] ?? first!.headers.authorization}`).toContain('sk-ant-test');
    expect(first!.headers['anthropic-version']).toBeTruthy();
    // One tool up front (the search); every other tool of the registry deferred.
    const tools = first!.body.tools;
    expect(tools[0]).toMatchObject({ name: 'search_tools', input_schema: { required: ['query'] } });
    expect(tools[0].defer_loading).toBeUndefined();
    expect(tools.length).toBe(19);
    expect(tools.slice(1).every((t: any) => t.defer_loading === true)).toBe(true);
    // toolbox's selector answered the search: tool_reference blocks, the converter first.
    const search = second!.body.messages.at(-1);
    expect(search.role).toBe('user');
    expect(search.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01' });
    expect(search.content[0].content[0]).toEqual({ type: 'tool_reference', tool_name: 'convert_units' });
    // The referenced tool ran through toolbox in the sandbox; its result went back for that tool_use.
    expect(callLog(project.dir)).toEqual([
      expect.objectContaining({ tool: 'convert_units', ok: true, via: 'library' }),
    ]);
    expect(third!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: '26.2 mile = 42.1648 km' }],
    });
  });
  it('answers a call the tool refuses with is_error and what to do, and the model corrects itself', async () => {
    server = await replay([
      {
        path: '/v1/messages',
        body: message(
          0,
          [
            {
              type: 'tool_use',
              id: 'toolu_10',
              name: 'search_tools',
              input: { query: 'calculate an arithmetic expression' },
            },
          ],
          'tool_use',
        ),
      },
      {
        path: '/v1/messages',
        body: message(
          1,
          [{ type: 'tool_use', id: 'toolu_11', name: 'calculator', input: { expression: '17 * 23 =' } }],
          'tool_use',
        ),
      },
      {
        path: '/v1/messages',
        body: message(
          2,
          [{ type: 'tool_use', id: 'toolu_12', name: 'calculator', input: { expression: '17 * 23' } }],
          'tool_use',
        ),
      },
      { path: '/v1/messages', body: message(3, [{ type: 'text', text: '391' }], 'end_turn') },
    ]);
    project = shippedProject();
    const r = await runExample('anthropic-tool-search.mjs', 'What is 17 * 23?', {
      cwd: project.dir,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('391');
    const found = server.seen[1]!.body.messages.at(-1).content[0];
    expect(found.content[0]).toEqual({ type: 'tool_reference', tool_name: 'calculator' });
    const refused = server.seen[2]!.body.messages.at(-1).content[0];
    expect(refused).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_11', is_error: true });
    expect(refused.content).toMatch(/^Error \[[a-z_]+\]: /);
    expect(server.seen[3]!.body.messages.at(-1).content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_12', content: '17 * 23 = 391' },
    ]);
    const log = callLog(project.dir);
    expect(log.map((l) => [l.tool, l.ok])).toEqual([
      ['calculator', false],
      ['calculator', true],
    ]);
  });
});
