import type { ToolContract } from '../contract/types.js';
import type { ToolOutput } from '../loaders/types.js';
import { asToolContent, blocksText, type ContentBlock } from '../mcp/content.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';
import { formatResult } from './format.js';

/** A call's outcome as the runtime hands it on: the value, its MCP content if any, and the text. */
export interface Shaped {
  result: unknown;
  content?: ContentBlock[];
  text: string;
}

/**
 * Read a tool's output: MCP content (from an upstream server, or a tool that returned the
 * `{ content: [...], structuredContent? }` shape) keeps its blocks; the value is the structured
 * content when there is one, else the blocks' text. Malformed blocks fail the call with the reason.
 */
export function shapeOutput(c: ToolContract, out: ToolOutput): Shaped {
  let content = out.content;
  let result = out.result;
  if (!content) {
    let tc;
    try {
      tc = asToolContent(out.result);
    } catch (e) {
      throw new ToolRunError({
        kind: 'failed',
        message: `the tool returned malformed MCP content: ${(e as Error).message}`,
        logs: out.logs,
        tier: out.tier,
      });
    }
    if (tc) {
      content = tc.content;
      result = tc.structuredContent ?? blocksText(tc.content);
    }
  }
  if (!content) return { result, text: formatResult(c, result) };
  const structured = typeof result === 'object' && result !== null;
  return { result, content, text: c.format && structured ? formatResult(c, result) : blocksText(content) };
}
