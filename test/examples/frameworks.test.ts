// The framework examples (Vercel AI SDK, LangChain.js, OpenAI Agents SDK) with the real packages
// against recorded OpenAI responses: the framework's own loop calls the tool through toolbox's
// `execute`, the calculator really runs in the sandbox, and its result is what the framework sends
// back to the "model" in the next request.
import { afterEach, describe, expect, it } from 'vitest';
import { callLog, replay, runExample, shippedProject, type Recorded, type Replay } from './replay.js';

const QUESTION = 'What is 17 * 23?';
const ANSWER = '17 × 23 = 391.';
const RESULT = '17*23 = 391';

// The Responses API (Vercel AI SDK's default OpenAI model, the Agents SDK's default).
const response = (n: number, output: object[]) => ({
  id: `resp_${n}`,
  object: 'response',
  created_at: 1767225600 + n,
  status: 'completed',
  error: null,
  incomplete_details: null,
  instructions: null,
  model: 'gpt-5.4',
  output,
  parallel_tool_calls: true,
  previous_response_id: null,
  tool_choice: 'auto',
  tools: [],
  usage: {
    input_tokens: 90,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  },
});
const responsesScript: Recorded[] = [
  {
    path: '/v1/responses',
    body: response(1, [
      {
        type: 'function_call',
        id: 'fc_01',
        call_id: 'call_calc_01',
        name: 'calculator',
        arguments: '{"expression":"17*23"}',
        status: 'completed',
      },
    ]),
  },
  {
    path: '/v1/responses',
    body: response(2, [
      {
        type: 'message',
        id: 'msg_01',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: ANSWER, annotations: [] }],
      },
    ]),
  },
];

// Chat Completions (LangChain's ChatOpenAI).
const chat = (message: object, finish: string) => ({
  id: `chatcmpl-${finish}`,
  object: 'chat.completion',
  created: 1767225600,
  model: 'gpt-5.4',
  choices: [{ index: 0, message: { refusal: null, ...message }, logprobs: null, finish_reason: finish }],
  usage: { prompt_tokens: 80, completion_tokens: 12, total_tokens: 92 },
});
const chatScript: Recorded[] = [
  {
    path: '/v1/chat/completions',
    body: chat(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_calc_01',
            type: 'function',
            function: { name: 'calculator', arguments: '{"expression":"17*23"}' },
          },
        ],
      },
      'tool_calls',
    ),
  },
  { path: '/v1/chat/completions', body: chat({ role: 'assistant', content: ANSWER }, 'stop') },
];

// What the next request carries back for the call: the tool's result, for that call id.
const responsesResult = (body: any) =>
  body.input.find((i: any) => i.type === 'function_call_output' && i.call_id === 'call_calc_01');
const offeredResponses = (body: any) => body.tools.map((t: any) => t.name);
const chatResult = (body: any) =>
  body.messages.find((m: any) => m.role === 'tool' && m.tool_call_id === 'call_calc_01');
const offeredChat = (body: any) => body.tools.map((t: any) => t.function.name);

const CASES = [
  { file: 'vercel-ai.mjs', script: responsesScript, result: responsesResult, offered: offeredResponses },
  { file: 'langchain.mjs', script: chatScript, result: chatResult, offered: offeredChat },
  { file: 'openai-agents.mjs', script: responsesScript, result: responsesResult, offered: offeredResponses },
];

let server: Replay | undefined;
let project: ReturnType<typeof shippedProject> | undefined;
afterEach(async () => {
  await server?.close();
  project?.cleanup();
});

describe.each(CASES)('examples/$file', ({ file, script, result, offered }) => {
  it('offers the selected tools, runs the call through toolbox in the sandbox, returns the answer', async () => {
    server = await replay(script);
    project = shippedProject();
    const r = await runExample(file, QUESTION, {
      cwd: project.dir,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_AGENTS_DISABLE_TRACING: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(ANSWER);
    expect(server.seen).toHaveLength(2);
    const [first, second] = server.seen;
    expect(offered(first!.body)).toEqual(['calculator']);
    expect(callLog(project.dir)).toEqual([expect.objectContaining({ tool: 'calculator', ok: true, via: 'library' })]);
    const back = result(second!.body);
    expect(back.output ?? back.content).toBe(RESULT);
  });
});
