// One recorded conversation per example: the provider responses the loopback server replays (in
// each API's documented wire format), and what must hold afterwards: the tool ran through toolbox
// in the sandbox (the call log) and its result went back to the "model" for that call id. Played
// by each example's test on Node 20 with the SDK versions in package.json, and by latest-sdks.test.ts
// on Node 22 with the newest SDK lines.
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO } from '../helpers.js';
import { callLog, replay, runExample, shippedProject, type Recorded, type Seen } from './replay.js';

export interface Scenario {
  file: string;
  question: string;
  script: Recorded[];
  env(url: string): NodeJS.ProcessEnv;
  answer: string;
  /** What the requests carried and what the project's call log holds. */
  check(seen: Seen[], project: string): void;
}

/** Run the example on the scenario: the reply printed, nothing on stderr, the scenario's checks. Returns the requests. */
export async function play(s: Scenario, opts: { node?: string; examples?: string } = {}): Promise<Seen[]> {
  const server = await replay(s.script);
  const project = shippedProject();
  try {
    const r = await runExample(join(opts.examples ?? join(REPO, 'examples'), s.file), s.question, {
      cwd: project.dir,
      env: s.env(server.url),
      node: opts.node,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(s.answer);
    expect(server.seen).toHaveLength(s.script.length);
    s.check(server.seen, project.dir);
    return server.seen;
  } finally {
    await server.close();
    project.cleanup();
  }
}

const openaiEnv = (url: string) => ({
  OPENAI_API_KEY: 'sk-test',
  OPENAI_BASE_URL: `${url}/v1`,
  OPENAI_AGENTS_DISABLE_TRACING: '1',
});
const anthropicEnv = (url: string) => ({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: url });

/** A Chat Completions response. */
export const chat = (message: object, finish: string) => ({
  id: `chatcmpl-${finish}`,
  object: 'chat.completion',
  created: 1767225600,
  model: 'gpt-5.4',
  choices: [
    { index: 0, message: { refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finish },
  ],
  usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
});
const chatToolCall = (id: string, name: string, args: string) =>
  chat(
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] },
    'tool_calls',
  );

/** A Responses API response. */
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
const functionCall = (n: number, callId: string, name: string, args: string) =>
  response(n, [{ type: 'function_call', id: `fc_${n}`, call_id: callId, name, arguments: args, status: 'completed' }]);
const responseText = (n: number, text: string) =>
  response(n, [
    {
      type: 'message',
      id: `msg_${n}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ]);

/** An Anthropic Messages response. */
export const message = (n: number, content: object[], stop: string) => ({
  id: `msg_0${n}`,
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 400, output_tokens: 40 },
});

const MARATHON = 'How many kilometres is 26.2 miles?';
const CONVERTED = '26.2 mile = 42.1648 km';
const ranConverter = (project: string) =>
  expect(callLog(project)).toEqual([expect.objectContaining({ tool: 'convert_units', ok: true, via: 'library' })]);

export const openaiChat: Scenario = {
  file: 'openai-chat.mjs',
  question: MARATHON,
  env: openaiEnv,
  answer: 'A marathon, 26.2 miles, is about 42.16 km.',
  script: [
    {
      path: '/v1/chat/completions',
      body: chatToolCall('call_abc123', 'convert_units', '{"value": 26.2, "from_unit": "mile", "to_unit": "km"}'),
    },
    {
      path: '/v1/chat/completions',
      body: chat({ role: 'assistant', content: 'A marathon, 26.2 miles, is about 42.16 km.' }, 'stop'),
    },
  ],
  check([first, second], project) {
    expect(first!.headers.authorization).toBe('Bearer sk-test');
    // Only the selected tools were offered, in the Chat Completions shape.
    const offered = first!.body.tools.map((t: any) => t.function.name);
    expect(offered[0]).toBe('convert_units');
    expect(offered.length).toBeLessThan(6);
    expect(first!.body.tools[0]).toMatchObject({ type: 'function', function: { parameters: { type: 'object' } } });
    // The tool ran through toolbox's pipeline, in the sandbox...
    ranConverter(project);
    expect(callLog(project)[0]!.sandbox).toMatch(/^(bwrap|unshare|none)$/);
    // ...and its result went back to the model as the tool message answering that call.
    expect(second!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_abc123', content: CONVERTED });
    expect(second!.body.messages.at(-2).tool_calls[0].id).toBe('call_abc123');
  },
};

export const openaiResponses: Scenario = {
  file: 'openai-responses-tool-search.mjs',
  question: MARATHON,
  env: openaiEnv,
  answer: '26.2 miles is 42.16 km.',
  script: [
    {
      path: '/v1/responses',
      body: response(1, [
        {
          type: 'tool_search_call',
          id: 'tsc_01',
          call_id: 'call_search_01',
          execution: 'client',
          arguments: { query: 'convert miles to kilometres' },
          status: 'completed',
        },
      ]),
    },
    {
      path: '/v1/responses',
      body: functionCall(2, 'call_fn_01', 'convert_units', '{"value":26.2,"from_unit":"mile","to_unit":"km"}'),
    },
    { path: '/v1/responses', body: responseText(3, '26.2 miles is 42.16 km.') },
  ],
  check([first, second, third], project) {
    // The model starts with the client-executed search tool only.
    expect(first!.body.tools).toEqual([
      expect.objectContaining({ type: 'tool_search', execution: 'client', parameters: expect.any(Object) }),
    ]);
    // The search was answered by toolbox's selector: the converter's definition, for that call.
    const found = second!.body.input.at(-1);
    expect(found).toMatchObject({ type: 'tool_search_output', call_id: 'call_search_01', execution: 'client' });
    expect(found.tools[0]).toMatchObject({
      type: 'function',
      name: 'convert_units',
      parameters: { required: ['value', 'from_unit', 'to_unit'] },
    });
    expect(second!.body.input.at(-2)).toMatchObject({ type: 'tool_search_call', call_id: 'call_search_01' });
    // The call ran through toolbox in the sandbox, and its output went back for that call id.
    ranConverter(project);
    expect(third!.body.input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_fn_01',
      output: CONVERTED,
    });
  },
};

export const anthropic: Scenario = {
  file: 'anthropic-tool-search.mjs',
  question: MARATHON,
  env: anthropicEnv,
  answer: 'That is 42.16 km.',
  script: [
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
  ],
  check([first, second, third], project) {
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
    ranConverter(project);
    expect(third!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: CONVERTED }],
    });
  },
};

// The framework examples: the framework's own loop calls the tool through toolbox's `execute`.
const ANSWER = '17 × 23 = 391.';
const RESULT = '17*23 = 391';
const ranCalculator = (project: string) =>
  expect(callLog(project)).toEqual([expect.objectContaining({ tool: 'calculator', ok: true, via: 'library' })]);
const responsesFramework = (file: string): Scenario => ({
  file,
  question: 'What is 17 * 23?',
  env: openaiEnv,
  answer: ANSWER,
  script: [
    { path: '/v1/responses', body: functionCall(1, 'call_calc_01', 'calculator', '{"expression":"17*23"}') },
    { path: '/v1/responses', body: responseText(2, ANSWER) },
  ],
  check([first, second], project) {
    expect(first!.body.tools.map((t: any) => t.name)).toEqual(['calculator']);
    ranCalculator(project);
    const back = second!.body.input.find((i: any) => i.type === 'function_call_output');
    expect(back).toMatchObject({ call_id: 'call_calc_01', output: RESULT });
  },
});

export const vercelAi = responsesFramework('vercel-ai.mjs');
export const openaiAgents = responsesFramework('openai-agents.mjs');
export const langchain: Scenario = {
  file: 'langchain.mjs',
  question: 'What is 17 * 23?',
  env: openaiEnv,
  answer: ANSWER,
  script: [
    { path: '/v1/chat/completions', body: chatToolCall('call_calc_01', 'calculator', '{"expression":"17*23"}') },
    { path: '/v1/chat/completions', body: chat({ role: 'assistant', content: ANSWER }, 'stop') },
  ],
  check([first, second], project) {
    expect(first!.body.tools.map((t: any) => t.function.name)).toEqual(['calculator']);
    ranCalculator(project);
    const back = second!.body.messages.find((m: any) => m.role === 'tool');
    expect(back).toMatchObject({ tool_call_id: 'call_calc_01', content: RESULT });
  },
};

export const ALL: Scenario[] = [openaiChat, openaiResponses, anthropic, vercelAi, langchain, openaiAgents];
