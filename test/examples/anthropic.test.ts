// examples/anthropic-tool-search.mjs with the real `@anthropic-ai/sdk` against recorded Messages API
// responses: the catalog goes out deferred, the model's search is answered with tool_reference
// blocks chosen by toolbox's selector, the referenced tool runs in the sandbox and its result is
// the next request's tool_result.
import { afterEach, describe, expect, it } from 'vitest';
import { callLog, replay, runExample, shippedProject, type Replay } from './replay.js';
import { anthropic, message, play } from './scenarios.js';

let server: Replay | undefined;
let project: ReturnType<typeof shippedProject> | undefined;
afterEach(async () => {
  await server?.close();
  project?.cleanup();
});

describe('examples/anthropic-tool-search.mjs', () => {
  it('defers the catalog, answers the search with tool_reference, runs the tool, returns its result', () =>
    play(anthropic));

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
