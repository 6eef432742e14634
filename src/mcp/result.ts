/** One content block of a tools/call result, as far as toolbox reads it. */
interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** A tools/call result (MCP CallToolResult, loosely typed: servers vary). */
export interface CallResultLike {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Pre-2025 servers answer `{ toolResult }`. */
  toolResult?: unknown;
}

const b64Bytes = (s: string) => Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);

/** A line that stands for a non-text block: enough for a model to know what came back. */
function summarise(c: ContentBlock): string {
  switch (c.type) {
    case 'image':
    case 'audio':
      return `[${c.type} ${c.mimeType ?? ''}, ${c.data ? b64Bytes(c.data) : 0} bytes]`;
    case 'resource': {
      const r = c.resource ?? {};
      if (typeof r.text === 'string') return r.text;
      return `[resource ${r.uri ?? ''}${r.mimeType ? ` (${r.mimeType})` : ''}${r.blob ? `, ${b64Bytes(r.blob)} bytes` : ''}]`;
    }
    case 'resource_link':
      return `[resource link ${c.uri ?? ''}${c.name ? ` (${c.name})` : ''}]`;
    default:
      return `[${c.type} content]`;
  }
}

/** The text of a result's content blocks, joined by newlines; non-text blocks summarised. */
export function contentText(r: CallResultLike): string {
  return (r.content ?? []).map((c) => (c.type === 'text' ? (c.text ?? '') : summarise(c))).join('\n');
}

/**
 * What an MCP tool result becomes in toolbox: `structuredContent` when the server sent it (it is
 * the machine-readable form), else the text content joined.
 */
export function resultValue(r: CallResultLike): unknown {
  if (r.structuredContent !== undefined && r.structuredContent !== null) return r.structuredContent;
  if (r.toolResult !== undefined) return r.toolResult;
  return contentText(r);
}
