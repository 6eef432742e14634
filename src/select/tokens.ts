import type { ToolContract } from '../contract/types.js';

type Encoder = { countTokens(text: string): number };
let encoder: Encoder | undefined;

// gpt-tokenizer costs ~300 ms to import: only commands that count tokens load it.
async function getEncoder(): Promise<Encoder> {
  if (!encoder) encoder = (await import('gpt-tokenizer/encoding/o200k_base')) as unknown as Encoder;
  return encoder;
}

/** The definition a model sees for one tool under full binding (OpenAI function format). */
export function toolDefinition(c: ToolContract): {
  type: 'function';
  function: { name: string; description: string; parameters: unknown };
} {
  return { type: 'function', function: { name: c.id, description: c.description, parameters: c.schema } };
}

/** o200k tokens of `text`. Long text is counted in chunks (the tokenizer is quadratic on long CJK runs). */
export async function countTokens(text: string): Promise<number> {
  const enc = await getEncoder();
  if (text.length <= 2000) return enc.countTokens(text);
  let n = 0;
  for (let i = 0; i < text.length; i += 2000) n += enc.countTokens(text.slice(i, i + 2000));
  return n;
}

/** Tokens one tool's definition costs in a prompt. */
export async function definitionTokens(c: ToolContract): Promise<number> {
  return countTokens(JSON.stringify(toolDefinition(c)));
}
