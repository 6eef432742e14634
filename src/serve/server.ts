import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { LogLevelState, toolClient } from './tool-client.js';
import type { ServeCore } from './core.js';
import { CALL_TOOL, META_TOOLS, SEARCH_TOOL, metaToolDefs, toolDef, type McpToolDef } from './definitions.js';
import { badRequest, errorResult, type CallResult } from './results.js';
import { traceCall } from './trace.js';

const VERSION = '0.1.0';
const MAX_TOP = 20;
/** Tools search_tools adds to a session's list: the most recently found, at most this many. */
export const MAX_FOUND = 20;

/**
 * Add `ids` to the found set as the most recent, dropping the oldest past `max`. Returns whether
 * the set's members changed (then the client is sent list_changed).
 */
export function addFound(found: Set<string>, ids: string[], max = MAX_FOUND): boolean {
  const before = [...found].sort().join('\n');
  for (const id of ids) {
    found.delete(id); // re-inserted last: a Set keeps insertion order, oldest first
    found.add(id);
  }
  for (const oldest of found) {
    if (found.size <= max) break;
    found.delete(oldest);
  }
  return [...found].sort().join('\n') !== before;
}

/**
 * One MCP connection (stdio, or one Streamable HTTP session): the low-level SDK Server, because
 * contracts already carry plain JSON Schema. Under --expose search the connection remembers the
 * tools search_tools found and lists them as real tools from then on (announced with
 * notifications/tools/list_changed).
 */
export function createMcpServer(core: ServeCore, session: string): { server: Server; found: Set<string> } {
  const server = new Server(
    { name: 'toolbox', version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions:
        core.opts.expose === 'search'
          ? `This server fronts a tool registry. Call ${SEARCH_TOOL} to find tools for a task, then call them (directly, or via ${CALL_TOOL}).`
          : undefined,
    },
  );
  const found = new Set<string>();
  const top = core.project.config.select?.top ?? 5;
  const logs = new LogLevelState();
  server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    logs.level = req.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (core.opts.expose === 'all') return { tools: core.visibleTools().map((e) => toolDef(e.contract)) };
    const reg = core.registry();
    const extra: McpToolDef[] = [];
    for (const id of found) {
      const e = reg.byId.get(id);
      if (e && !META_TOOLS.has(id)) extra.push(toolDef(e.contract));
    }
    return { tools: [...metaToolDefs(core.visibleTools().length, top), ...extra] };
  });

  server.setRequestHandler(CallToolRequestSchema, (req, extra): Promise<CallResult> =>
    traceCall(req.params.name, req.params._meta, extra, async (): Promise<CallResult> => {
      const { name } = req.params;
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      const client = toolClient(server, extra as never, req.params._meta?.progressToken, logs);
      if (core.opts.expose === 'search' && name === SEARCH_TOOL) return search(args, extra.signal);
      if (core.opts.expose === 'search' && name === CALL_TOOL) {
        if (typeof args.id !== 'string' || !args.id)
          return badRequest(`${CALL_TOOL} needs "id": the name of a tool from ${SEARCH_TOOL}`);
        if (
          args.arguments !== undefined &&
          (typeof args.arguments !== 'object' || args.arguments === null || Array.isArray(args.arguments))
        ) {
          return badRequest(`${CALL_TOOL}: "arguments" must be an object`);
        }
        return core.call(args.id, args.arguments ?? {}, session, extra.signal, client, String(extra.requestId));
      }
      // A direct call, listed or not: the runtime still checks the id, permissions and arguments.
      return core.call(name, args, session, extra.signal, client, String(extra.requestId));
    }),
  );

  async function search(args: Record<string, unknown>, signal: AbortSignal): Promise<CallResult> {
    if (typeof args.query !== 'string' || !args.query.trim())
      return badRequest(`${SEARCH_TOOL} needs "query": what you want to do, in plain words`);
    const k = args.top === undefined ? top : Number(args.top);
    if (!Number.isInteger(k) || k < 1 || k > MAX_TOP)
      return badRequest(`${SEARCH_TOOL}: "top" must be an integer from 1 to ${MAX_TOP}`);
    let hits;
    try {
      hits = await core.search(args.query, k, session, signal);
    } catch (e) {
      return errorResult(e);
    }
    const tools = hits.map((e) => toolDef(e.contract));
    const changed = addFound(
      found,
      tools.map((t) => t.name).filter((n) => !META_TOOLS.has(n)),
    );
    if (changed) await server.sendToolListChanged().catch(() => undefined);
    const text = tools.length
      ? JSON.stringify(tools)
      : `No tool matches "${args.query}". Try other words (what the tool does, not how).`;
    return { content: [{ type: 'text', text }], structuredContent: { tools } };
  }

  return { server, found };
}
