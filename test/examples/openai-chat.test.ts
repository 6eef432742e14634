// examples/openai-chat.mjs with the real `openai` SDK against recorded Chat Completions responses:
// the unit converter really runs through toolbox in the sandbox, and its result is what the SDK
// sends back to the "model".
import { afterEach, describe, expect, it } from 'vitest';
import { callLog, replay, runExample, shippedProject, type Replay } from './replay.js';
import { chat, openaiChat, play } from './scenarios.js';

let server: Replay | undefined;
let project: ReturnType<typeof shippedProject> | undefined;
afterEach(async () => {
  await server?.close();
  project?.cleanup();
});

describe('examples/openai-chat.mjs', () => {
  it('selects the converter, runs the call in the sandbox and sends the result back', () => play(openaiChat));

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
