// examples/openai-chat.mjs with the real `openai` SDK against recorded Chat Completions responses:
// the unit converter really runs through toolbox in the sandbox, and its result is what the SDK
// sends back to the "model".
import { afterEach, describe, expect, it } from 'vitest';
import { callLog, replay, runExample, shippedProject, type Replay } from './replay.js';

const created = 1767225600;
const chat = (message: object, finish: string) => ({
  id: `chatcmpl-${finish}`,
  object: 'chat.completion',
  created,
  model: 'gpt-5.4',
  choices: [
    { index: 0, message: { refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finish },
  ],
  usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
});

let server: Replay | undefined;
let project: ReturnType<typeof shippedProject> | undefined;
afterEach(async () => {
  await server?.close();
  project?.cleanup();
});

describe('examples/openai-chat.mjs', () => {
  it('selects the converter, runs the call in the sandbox and sends the result back', async () => {
    server = await replay([
      {
        path: '/v1/chat/completions',
        body: chat(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_abc123',
                type: 'function',
                function: {
                  name: 'convert_units',
                  arguments: '{"value": 26.2, "from_unit": "mile", "to_unit": "km"}',
                },
              },
            ],
          },
          'tool_calls',
        ),
      },
      {
        path: '/v1/chat/completions',
        body: chat({ role: 'assistant', content: 'A marathon, 26.2 miles, is about 42.16 km.' }, 'stop'),
      },
    ]);
    project = shippedProject();
    const r = await runExample('openai-chat.mjs', 'How many kilometres is 26.2 miles?', {
      cwd: project.dir,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('A marathon, 26.2 miles, is about 42.16 km.');

    const [first, second] = server.seen;
    expect(first!.headers.authorization).toBe('Bearer sk-test');
    // Only the selected tools were offered, in the Chat Completions shape.
    const offered = first!.body.tools.map((t: any) => t.function.name);
    expect(offered[0]).toBe('convert_units');
    expect(offered.length).toBeLessThan(6);
    expect(first!.body.tools[0]).toMatchObject({ type: 'function', function: { parameters: { type: 'object' } } });
    // The tool ran through toolbox's pipeline, in the sandbox...
    const log = callLog(project.dir);
    expect(log).toEqual([expect.objectContaining({ tool: 'convert_units', ok: true, via: 'library' })]);
    expect(log[0]!.sandbox).toMatch(/^(bwrap|unshare|none)$/);
    // ...and its result went back to the model as the tool message answering that call.
    expect(second!.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_abc123',
      content: '26.2 mile = 42.1648 km',
    });
    expect(second!.body.messages.at(-2).tool_calls[0].id).toBe('call_abc123');
  });
  it('offers no tools for small talk (the request has no tools field) and prints the reply', async () => {
    server = await replay([
      { path: '/v1/chat/completions', body: chat({ role: 'assistant', content: 'You are welcome!' }, 'stop') },
    ]);
    project = shippedProject();
    const r = await runExample('openai-chat.mjs', 'thanks, that was helpful!', {
      cwd: project.dir,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('You are welcome!');
    expect(server.seen[0]!.body.tools).toBeUndefined();
    expect(callLog(project.dir)).toEqual([]);
  });
});
