// An MCP server's messages are parsed by the SDK's schemas (zod) recursively: a reply nested a few
// thousand levels deep (a tool's inputSchema 900 levels deep is 1,800) ends the client with
// "Maximum call stack size exceeded" before toolbox sees it. Every message is measured first,
// without recursion, and one nested too deep never reaches the SDK: a reply becomes a JSON-RPC
// error for its request (which toolbox reports as `mcp_reply_too_deep`), anything else is dropped.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { ExitCode, ToolboxError } from '../errors.js';
import { MAX_SCHEMA_DEPTH, nestedDeeperThan, pathDeeperThan } from '../util/json-depth.js';
import type { ListedTool } from './contract-file.js';

/**
 * Deepest nesting (JSON levels) of one message from a server. Room for a tool definition whose
 * schemas reach MAX_SCHEMA_DEPTH inside a tools/list page, far below where the SDK's parser fails.
 */
export const MAX_MESSAGE_DEPTH = MAX_SCHEMA_DEPTH + 64;

const MARK = 'toolbox refused the MCP server’s reply: it is nested more than';
const refusal = `${MARK} ${MAX_MESSAGE_DEPTH} levels deep`;

type Handler = (message: JSONRPCMessage, extra?: unknown) => void;

/**
 * The transport, with every message it hands to the client measured first (see above), then passed
 * through `rewrite` when given (task-call.ts: a 2026-07-28 task handle the SDK has no result type for).
 */
export function guardDepth<T extends Transport>(
  transport: T,
  rewrite?: (message: JSONRPCMessage) => JSONRPCMessage,
): T {
  let inner: Handler | undefined;
  const through =
    (h: Handler): Handler =>
    (message, extra) => {
      if (!nestedDeeperThan(message, MAX_MESSAGE_DEPTH)) return h(rewrite ? rewrite(message) : message, extra);
      const m = message as { id?: string | number; method?: string };
      if (m.id !== undefined && m.method === undefined)
        return h({ jsonrpc: '2.0', id: m.id, error: { code: -32600, message: refusal } } as JSONRPCMessage, extra);
      transport.onerror?.(new Error(`${refusal} (${m.method ?? 'a message'}): dropped`));
    };
  // The handler read back is bound to the one set at that time: a client that wraps the previous
  // handler in its own never calls itself.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (inner ? through(inner) : undefined),
    set: (h: Handler | undefined) => {
      inner = h;
    },
  });
  return transport;
}

/** The error an import or a call reports when the server's reply was refused as too deep, else undefined. */
export function tooDeepError(e: unknown, what: string): ToolboxError | undefined {
  const msg = e instanceof Error ? e.message : '';
  if (!msg.includes(MARK)) return undefined;
  return new ToolboxError(
    'mcp_reply_too_deep',
    `${what}: the MCP server's reply is nested more than ${MAX_MESSAGE_DEPTH} levels deep; toolbox refuses it (a tool's schema may nest at most ${MAX_SCHEMA_DEPTH} levels)`,
    {
      exitCode: ExitCode.toolFailed,
      hint: "The server's tool definitions (or its result) are deeper than any client can safely walk: ask its authors to flatten them (a repeated shape can be named once under $defs and referred to with $ref).",
    },
  );
}

/**
 * A tool whose inputSchema or outputSchema nests deeper than a contract may (MAX_SCHEMA_DEPTH) is
 * refused with the whole import, naming it: its contract would only be refused by validate later.
 */
export function refuseDeepSchemas(server: string, tools: ListedTool[]): void {
  const deep = tools.filter((t) =>
    [t.inputSchema, t.outputSchema].some((s) => s && pathDeeperThan(s, MAX_SCHEMA_DEPTH) !== undefined),
  );
  if (!deep.length) return;
  const names = deep.slice(0, 5).map((t) => `'${String(t.name).slice(0, 64)}'`);
  throw new ToolboxError(
    'mcp_schema_too_deep',
    `MCP server '${server}': the schema of ${names.join(', ')}${deep.length > 5 ? ` and ${deep.length - 5} more` : ''} is nested more than ${MAX_SCHEMA_DEPTH} levels deep; toolbox refuses it`,
    {
      exitCode: ExitCode.toolFailed,
      hint: "Ask the server's authors to flatten it (a repeated shape can be named once under $defs and referred to with $ref). Nothing was written.",
      details: { tools: deep.slice(0, 20).map((t) => String(t.name)), limit: MAX_SCHEMA_DEPTH },
    },
  );
}
