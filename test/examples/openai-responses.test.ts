// examples/openai-responses-tool-search.mjs with the real `openai` SDK against recorded Responses API
// responses: the model's client-side tool_search is answered by toolbox's selector (a
// tool_search_output with the converter's definition), the function call it then makes runs in the
// sandbox, and its output is what the SDK sends back.
import { afterEach, describe, expect, it } from 'vitest';
import { callLog, replay, runExample, shippedProject, type Replay } from './replay.js';

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
  temperature: 1,
  tool_choice: 'auto',
  tools: [],
  top_p: 1,
  usage: {
    input_tokens: 90,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  },
});

let server: Replay | undefined;
let project: ReturnType<typeof shippedProject> | undefined;
afterEach(async () => {
  await server?.close();
  project?.cleanup();
});

describe('examples/openai-responses-tool-search.mjs', () => {
  it('answers the tool search with the selector, runs the found tool in the sandbox, returns its output', async () => {
    server = await replay([
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
        body: response(2, [
          {
            type: 'function_call',
            id: 'fc_01',
            call_id: 'call_fn_01',
            name: 'convert_units',
            arguments: '{"value":26.2,"from_unit":"mile","to_unit":"km"}',
            status: 'completed',
          },
        ]),
      },
      {
        path: '/v1/responses',
        body: response(3, [
          {
            type: 'message',
            id: 'msg_01',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: '26.2 miles is 42.16 km.', annotations: [] }],
          },
        ]),
      },
    ]);
    project = shippedProject();
    const r = await runExample('openai-responses-tool-search.mjs', 'How many kilometres is 26.2 miles?', {
      cwd: project.dir,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('26.2 miles is 42.16 km.');

    const [first, second, third] = server.seen;
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
    const log = callLog(project.dir);
    expect(log).toEqual([expect.objectContaining({ tool: 'convert_units', ok: true, via: 'library' })]);
    expect(third!.body.input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_fn_01',
      output: '26.2 mile = 42.1648 km',
    });
  });
});
