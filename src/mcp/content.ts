import { contentText } from './result.js';

/** One MCP content block (text, image, audio, embedded resource, resource link). */
export type ContentBlock = { type: string; [k: string]: unknown };

/**
 * What a tool returns when it wants MCP content rather than one JSON value: the shape of an MCP
 * CallToolResult. Python, Node and command tools return it as a plain object (the runner-side
 * helpers build it); upstream MCP servers send it as is.
 */
export interface ToolContent {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
}

const KEYS = new Set(['content', 'structuredContent']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const str = (v: unknown) => typeof v === 'string';

/** Why a block is not valid MCP content, or undefined when it is. */
export function blockProblem(b: unknown): string | undefined {
  if (!isObject(b) || typeof b.type !== 'string') return 'a content block must be an object with a "type"';
  switch (b.type) {
    case 'text':
      return str(b.text) ? undefined : 'a text block needs "text" (a string)';
    case 'image':
    case 'audio':
      if (!str(b.mimeType)) return `an ${b.type} block needs "mimeType"`;
      return str(b.data) && BASE64.test(b.data as string) && (b.data as string).length % 4 === 0
        ? undefined
        : `an ${b.type} block needs "data": base64 text`;
    case 'resource': {
      const r = b.resource;
      if (!isObject(r) || !str(r.uri)) return 'a resource block needs "resource": { uri, text or blob }';
      if (str(r.text) || (str(r.blob) && BASE64.test(r.blob as string))) return undefined;
      return 'an embedded resource needs "text", or "blob" as base64 text';
    }
    case 'resource_link':
      return str(b.uri) && str(b.name) ? undefined : 'a resource_link block needs "uri" and "name"';
    default:
      return `unknown content block type '${b.type}' (use text, image, audio, resource or resource_link)`;
  }
}

/**
 * The result as MCP content when it has exactly that shape: an object whose keys are `content`
 * (a non-empty list of blocks, each with a known `type`) and optionally `structuredContent`.
 * Anything else is an ordinary result. Throws with the reason when the shape is meant (the keys
 * match and every block has a `type`) but a block is malformed.
 */
export function asToolContent(value: unknown): ToolContent | undefined {
  if (!isObject(value) || !Array.isArray(value.content) || value.content.length === 0) return undefined;
  if (!Object.keys(value).every((k) => KEYS.has(k))) return undefined;
  if (!value.content.every((b) => isObject(b) && typeof b.type === 'string')) return undefined;
  if (value.structuredContent !== undefined && !isObject(value.structuredContent)) return undefined;
  value.content.forEach((b, i) => {
    const p = blockProblem(b);
    if (p) throw new Error(`content[${i}]: ${p}`);
  });
  return value as unknown as ToolContent;
}

/** Text for people and logs: text blocks as they are, other blocks as one summary line each. */
export function blocksText(blocks: ContentBlock[]): string {
  return contentText({ content: blocks as never });
}

/** The blocks that are not text (what `run --out DIR` saves). */
export const binaryBlocks = (blocks: ContentBlock[]) => blocks.filter((b) => b.type !== 'text');
