// Token costs (src/select/tokens.ts): o200k counts of a tool's definition, long text counted in
// 2,000-character chunks (the tokenizer is quadratic on long CJK runs). Counts from gpt-tokenizer's o200k_base.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { countTokens, definitionTokens, toolDefinition } from '../../src/select/tokens.js';

describe('token counts', () => {
  it('counts o200k tokens, long text chunk by chunk', async () => {
    expect(await countTokens('')).toBe(0);
    expect(await countTokens('hello world')).toBe(2);
    // 2,400 characters: 401 tokens in one piece, 403 as 2,000 + 400 characters (splits at 1,999 or 2,001 give 402)
    expect(await countTokens('hello world '.repeat(200))).toBe(403);
    // 2,003 × "x": 250 + 1 (splits at 1,999 or 2,001 give 252)
    expect(await countTokens('x'.repeat(2003))).toBe(251);
  });

  it('counts a tool as the OpenAI function definition a model sees', async () => {
    const c = { id: 'a', description: 'b', schema: { type: 'object' }, loader: 'command' } as unknown as ToolContract;
    expect(toolDefinition(c)).toEqual({
      type: 'function',
      function: { name: 'a', description: 'b', parameters: { type: 'object' } },
    });
    expect(await definitionTokens(c)).toBe(22);
  });
});
