// The agent-loop helpers of the library API on a copy of the shipped registry: definitions in each
// provider's format, a provider's tool call run through the Runtime and answered in its shape (failures
// as text the model can act on), searches answered with the selector's tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerToolSearch,
  deferredCatalog,
  resolveProject,
  runToolCall,
  Runtime,
  selectDefinitions,
  selectExecutableTools,
  toolSearchTool,
} from '../../src/index.js';
import { callLog, shippedProject } from '../examples/replay.js';

let project: ReturnType<typeof shippedProject>;
let rt: Runtime;
beforeAll(() => {
  project = shippedProject();
  rt = new Runtime(resolveProject({ cwd: project.dir }), { longRunning: true });
});
afterAll(async () => {
  await rt.close();
  project.cleanup();
});

const MARATHON = 'How many kilometres is 26.2 miles?';

describe('selectDefinitions', () => {
  it('gives the tools for a message in each provider format, the matching tool first', async () => {
    const openai = await selectDefinitions(rt, MARATHON, 'openai');
    expect(openai[0]).toMatchObject({ type: 'function', function: { name: 'convert_units' } });
    const responses = await selectDefinitions(rt, MARATHON, 'openai-responses', { top: 1 });
    expect(responses).toHaveLength(1);
    expect(Object.keys(responses[0]!).sort()).toEqual(['description', 'name', 'parameters', 'strict', 'type']);
    expect(responses[0]!.strict).toBe(false);
    expect(responses[0]!.parameters).toMatchObject({ required: ['value', 'from_unit', 'to_unit'] });
    const anthropic = await selectDefinitions(rt, MARATHON, 'anthropic');
    expect(anthropic[0]).toMatchObject({ name: 'convert_units', input_schema: { type: 'object' } });
    const mcp = await selectDefinitions(rt, MARATHON, 'mcp');
    expect(mcp.tools[0]).toMatchObject({ name: 'convert_units', inputSchema: { type: 'object' } });
  });

  it('offers nothing for small talk, and never a tool the caller may not use', async () => {
    expect(await selectDefinitions(rt, 'thanks, that was helpful!', 'openai')).toEqual([]);
    const email = 'send an email to my manager';
    expect((await selectDefinitions(rt, email, 'anthropic')).map((d) => d.name)).toContain('send_email');
    const guest = await selectDefinitions(rt, email, 'anthropic', { caller: { role: 'guest' } });
    expect(guest.map((d) => d.name)).not.toContain('send_email');
  });
});

describe('runToolCall', () => {
  it('answers each provider in its own shape, through the pipeline', async () => {
    const before = callLog(project.dir).length;
    const args = '{"value": 26.2, "from_unit": "mile", "to_unit": "km"}';
    expect(
      await runToolCall(rt, { id: 'call_1', type: 'function', function: { name: 'convert_units', arguments: args } }),
    ).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '26.2 mile = 42.1648 km' });
    expect(
      await runToolCall(rt, { type: 'function_call', call_id: 'fc_1', name: 'convert_units', arguments: args }),
    ).toEqual({ type: 'function_call_output', call_id: 'fc_1', output: '26.2 mile = 42.1648 km' });
    expect(
      await runToolCall(rt, { type: 'tool_use', id: 'toolu_1', name: 'calculator', input: { expression: '2^10' } }),
    ).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: '2^10 = 1024' });
    const log = callLog(project.dir).slice(before);
    expect(log.map((l) => [l.tool, l.ok, l.via])).toEqual([
      ['convert_units', true, 'library'],
      ['convert_units', true, 'library'],
      ['calculator', true, 'library'],
    ]);
  });

  it('answers a failed call with an error text the model can act on, not a throw', async () => {
    const unknown = await runToolCall(rt, { type: 'tool_use', id: 't1', name: 'convert_unit', input: {} });
    expect(unknown).toMatchObject({ tool_use_id: 't1', is_error: true });
    expect(unknown.content).toMatch(/^Error \[unknown_tool\]: .*convert_units/s);

    const bad = await runToolCall(rt, { type: 'tool_use', id: 't2', name: 'convert_units', input: { value: 'five' } });
    expect(bad.is_error).toBe(true);
    expect(bad.content).toMatch(/^Error \[invalid_arguments\]: /);

    const notJson = await runToolCall(rt, {
      id: 'c3',
      type: 'function',
      function: { name: 'calculator', arguments: '{"expression": "1+' },
    });
    expect(notJson).toMatchObject({ role: 'tool', tool_call_id: 'c3' });
    expect(notJson.content).toMatch(/^Error \[invalid_args_json\]: .*\nHint: /s);

    const toolError = await runToolCall(rt, {
      type: 'function_call',
      call_id: 'fc_2',
      name: 'convert_units',
      arguments: '{"value": 1, "from_unit": "kg", "to_unit": "km"}',
    });
    expect(toolError.output).toMatch(/^Error \[\w+\]: /);

    // A Chat Completions custom (free-text) tool call: toolbox tools are functions.
    const custom = await runToolCall(rt, { id: 'c5', type: 'custom', custom: { name: 'calculator', input: '1+1' } });
    expect(custom).toMatchObject({ role: 'tool', tool_call_id: 'c5' });
    expect(custom.content).toMatch(/^Error \[unknown_tool\]: /);
  });

  it('throws when the caller cancelled the call', async () => {
    const ac = new AbortController();
    ac.abort();
    const call = { type: 'tool_use' as const, id: 't4', name: 'calculator', input: { expression: '1+1' } };
    await expect(runToolCall(rt, call, { signal: ac.signal })).rejects.toThrow();
  });
});

describe('tool search', () => {
  it('declares the search tool for each provider', () => {
    expect(toolSearchTool('openai-responses')).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(toolSearchTool('anthropic')).toMatchObject({ name: 'search_tools', input_schema: { required: ['query'] } });
  });

  it('answers an OpenAI tool_search_call with the selected tools and an Anthropic search with tool_reference', async () => {
    const openai = await answerToolSearch(rt, {
      type: 'tool_search_call',
      call_id: 'ts_1',
      execution: 'client',
      arguments: { query: 'convert miles to kilometres' },
    });
    expect(openai).toMatchObject({ type: 'tool_search_output', call_id: 'ts_1', execution: 'client' });
    expect(openai.tools[0]).toMatchObject({ type: 'function', name: 'convert_units' });

    const anthropic = await answerToolSearch(rt, {
      type: 'tool_use',
      id: 'toolu_9',
      name: 'search_tools',
      input: { query: 'convert miles to kilometres' },
    });
    expect(anthropic).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_9' });
    expect(anthropic.content[0]).toEqual({ type: 'tool_reference', tool_name: 'convert_units' });

    const nothing = await answerToolSearch(rt, { type: 'tool_use', id: 'toolu_10', name: 'search_tools', input: {} });
    expect(nothing.content).toEqual([{ type: 'text', text: expect.any(String) }]);
  });

  it('lists the deferred catalog: every tool the caller may use, each with defer_loading', () => {
    const all = deferredCatalog(rt);
    expect(all.length).toBe(18);
    expect(all.every((t) => t.defer_loading === true)).toBe(true);
    const guest = deferredCatalog(rt, { caller: { role: 'guest' } });
    expect(guest.map((t) => t.name)).not.toContain('send_email');
    expect(guest.length).toBe(all.length - 1);
  });
});

describe('selectExecutableTools', () => {
  it('gives tools with an execute that runs through toolbox', async () => {
    const tools = await selectExecutableTools(rt, 'what is 17*23');
    const calc = tools.find((t) => t.name === 'calculator')!;
    expect(calc.inputSchema).toMatchObject({ type: 'object', required: ['expression'] });
    expect(await calc.execute({ expression: '17*23' }, { toolCallId: 'x1' })).toBe('17*23 = 391');
    expect(await calc.execute({ expression: '' })).toMatch(/^Error \[invalid_arguments\]/);
  });
});
