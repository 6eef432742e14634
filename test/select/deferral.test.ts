// The providers' tool-search hook shapes (Anthropic tool_reference blocks in a tool_result, OpenAI
// Responses tool_search_output with execution "client"), as their documentation gives them.
import { afterEach, describe, expect, it } from 'vitest';
import { deferredAnthropicTools, toolReferenceResult, toolSearchOutput } from '../../src/select/deferral.js';
import { cli } from '../helpers.js';
import { fixtureProject } from './fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());

describe('deferral formats', () => {
  it('answers an Anthropic custom tool search with tool_reference blocks', async () => {
    fx = fixtureProject();
    const r = await cli(['select', 'stock price of AAPL', '--format', 'tool-reference', '--call-id', 'toolu_01A'], {
      cwd: fx.dir,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01A',
      content: [{ type: 'tool_reference', tool_name: 'stock_price' }],
    });
    // no match: one text block, and a text block may not be empty
    expect(toolReferenceResult([], 'toolu_02')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_02',
      content: [{ type: 'text', text: expect.stringMatching(/\S/) }],
    });
  });

  it('answers an OpenAI client-executed tool_search_call with a tool_search_output item', async () => {
    fx = fixtureProject();
    const r = await cli(['select', 'stock price of AAPL', '--format', 'tool-search-output', '--call-id', 'call_9'], {
      cwd: fx.dir,
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as ReturnType<typeof toolSearchOutput>;
    expect(Object.keys(out).sort()).toEqual(['call_id', 'execution', 'status', 'tools', 'type']);
    expect(out).toMatchObject({
      type: 'tool_search_output',
      call_id: 'call_9',
      execution: 'client',
      status: 'completed',
    });
    expect(out.tools).toHaveLength(1);
    expect(out.tools[0]).toMatchObject({ type: 'function', name: 'stock_price', parameters: { type: 'object' } });
    expect(Object.keys(out.tools[0]!).sort()).toEqual(['description', 'name', 'parameters', 'strict', 'type']);
    expect(out.tools[0]!.strict).toBe(false);
  });

  it('refuses --format tool-reference / tool-search-output without --call-id (usage error, nothing on stdout)', async () => {
    fx = fixtureProject();
    for (const format of ['tool-reference', 'tool-search-output']) {
      for (const extra of [[], ['--call-id', ' ']]) {
        const r = await cli(['select', 'stock price of AAPL', '--format', format, ...extra, '--json'], { cwd: fx.dir });
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect((JSON.parse(r.stderr) as { error: { code: string } }).error.code).toBe('missing_call_id');
      }
    }
  });

  it('marks the Anthropic catalog defer_loading', () => {
    const c = { id: 'a', description: 'd', schema: { type: 'object' } } as Parameters<
      typeof deferredAnthropicTools
    >[0][0];
    expect(deferredAnthropicTools([c])).toEqual([
      { name: 'a', description: 'd', input_schema: { type: 'object' }, defer_loading: true },
    ]);
  });
});
