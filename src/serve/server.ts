import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { LogLevel, ToolClient } from '../loaders/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import type { ServeCore } from './core.js';
import { CALL_TOOL, META_TOOLS, SEARCH_TOOL, metaToolDefs, toolDef, type McpToolDef } from './definitions.js';
import { badRequest, errorResult, type CallResult } from './results.js';
import type { LegacySession } from './session.js';
import { DEFAULT_INPUT_WAIT_MS, type Exchange } from './input-required.js';
import { addTaskHandlers, declaresTasks, needsTasks, TASK_GRACE_MS, TASKS_EXTENSION } from './tasks.js';
import type { ToolContract } from '../contract/types.js';
import { addResultResources } from './result-resources.js';
import { levelFilter, pushClient, type Notifier } from './tool-client.js';
import { traceCall } from './trace.js';
import { listPage, searchCursor, searchOffset } from './paging.js';

const VERSION = '0.1.0';
const MAX_TOP = 20;
/** How deep search_tools pages go: past this many matches a search needs other words. */
const MAX_SEARCH_RESULTS = 100;
/** How long a client may cache tools/list (2026-07-28 `ttlMs`); changes are announced on subscriptions/listen. */
const TOOLS_TTL_MS = 60_000;

export const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/**
 * Who one server instance serves. 2026-07-28 (`modern`): one request, everything it needs is in
 * the request itself. 2025-11-25 (`legacy`): a session that began with initialize, with the tools
 * search_tools found for it and its logging level.
 */
export type Connection = { era: 'modern' } | { era: 'legacy'; session: LegacySession };

/**
 * A fresh MCP server instance (the SDK's low-level Server: contracts already carry plain JSON
 * Schema) for one 2026-07-28 request or one 2025-11-25 session. Both revisions go through the same
 * handlers and the same ServeCore pipeline; only what is remembered between requests differs.
 */
export function createMcpServer(core: ServeCore, conn: Connection): Server {
  const server = new Server(
    { name: 'toolbox', version: VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        resources: {},
        ...(conn.era === 'modern' ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      },
      instructions:
        core.opts.expose === 'search'
          ? `This server fronts a tool registry. Call ${SEARCH_TOOL} to find tools for a task, then call them (directly, or via ${CALL_TOOL}).`
          : undefined,
      cacheHints: {
        'tools/list': { ttlMs: TOOLS_TTL_MS, cacheScope: 'private' },
        'server/discover': { ttlMs: TOOLS_TTL_MS, cacheScope: 'private' },
      },
    },
  );
  const top = core.project.config.select?.top ?? 5;

  if (conn.era === 'legacy') {
    // Replaces the SDK's own handler: no log message goes out before the client sets a level.
    server.setRequestHandler('logging/setLevel', async (req) => {
      await conn.session.setLevel(req.params.level as LogLevel);
      return {};
    });
  }

  addResultResources(server, core.store, core.results);

  if (conn.era === 'modern') addTaskHandlers(server, core.tasks, core.callerKey, (ctx) => clientCaps(ctx));

  // A 2026-07-28 client learns which tools may become tasks (execution.taskSupport); 2025 clients
  // are not offered tasks.
  const listed = (c: ToolContract): McpToolDef => {
    const task = offeredTask(c);
    return conn.era === 'modern' && task
      ? ({ ...toolDef(c), execution: { taskSupport: task } } as McpToolDef)
      : toolDef(c);
  };

  server.setRequestHandler('tools/list', async (req) => {
    const cursor = req.params?.cursor;
    if (core.opts.expose === 'all') {
      // Paged by id (paging.ts): any replica continues a cursor; one of another list version restarts.
      const { entries, ids, version } = core.listing();
      const page = listPage(entries, ids, version, cursor, core.pageSize);
      return {
        tools: page.items.map((e) => listed(e.contract)),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    }
    // Two tools and a session's found ones fit one page: a cursor was never handed out.
    if (cursor !== undefined) listPage([], [], '', cursor, 1);
    const extra: McpToolDef[] = [];
    if (conn.era === 'legacy') {
      const reg = core.registry();
      for (const id of conn.session.found) {
        const e = reg.byId.get(id);
        if (e && !META_TOOLS.has(id)) extra.push(toolDef(e.contract));
      }
    }
    return { tools: [...metaToolDefs(core.visibleTools().length, top), ...extra] };
  });

  server.setRequestHandler('tools/call', (req, ctx) => {
    const meta = (req.params._meta ?? {}) as Record<string, unknown>;
    // CallResult is the CallToolResult shape; the SDK's content types are narrower than ours.
    const where = { sessionId: ctx.sessionId, requestId: ctx.mcpReq.id, http: ctx.http !== undefined };
    return traceCall(req.params.name, meta, where, () =>
      callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>, ctx),
    ) as never;
  });

  const session = conn.era === 'legacy' ? conn.session.runtime : undefined;

  async function callTool(name: string, args: Record<string, unknown>, ctx: ServerContext): Promise<CallResult> {
    if (core.opts.expose === 'search' && name === SEARCH_TOOL) return search(args, ctx);
    let target: { id: string; args: Record<string, unknown> };
    if (core.opts.expose === 'search' && name === CALL_TOOL) {
      if (typeof args.id !== 'string' || !args.id)
        return badRequest(`${CALL_TOOL} needs "id": the name of a tool from ${SEARCH_TOOL}`);
      if (
        args.arguments !== undefined &&
        (typeof args.arguments !== 'object' || args.arguments === null || Array.isArray(args.arguments))
      ) {
        return badRequest(`${CALL_TOOL}: "arguments" must be an object`);
      }
      target = { id: args.id, args: (args.arguments ?? {}) as Record<string, unknown> };
    } else {
      assertKnown(core, name);
      // A direct call, listed or not: the runtime still checks permissions and arguments.
      target = { id: name, args };
    }
    const refused = clientLacks(target.id, ctx);
    if (refused) return refused;
    const task = taskPolicy(target.id);
    if (task === 'required' && !(conn.era === 'modern' && declaresTasks(clientCaps(ctx)))) {
      if (conn.era === 'modern') throw needsTasks(`tool '${target.id}'`);
      return errorResult(
        new ToolboxError('client_capability_missing', `tool '${target.id}' runs only as an MCP task`, {
          exitCode: ExitCode.usage,
          hint: 'Call it from a client that speaks MCP 2026-07-28 with the tasks extension.',
        }),
      );
    }
    const callId = String(ctx.mcpReq.id);
    const run = (client: ToolClient, signal: AbortSignal) =>
      core.call(target.id, target.args, session, signal, client, callId, owner(ctx));
    if (conn.era === 'legacy')
      return run(legacyClient(ctx), AbortSignal.any([ctx.mcpReq.signal, conn.session.ended.signal]));
    // 2026-07-28: the tool's questions become input-required results, its call resumed by the retry.
    return core.inputs.run({
      tool: name,
      args,
      // A state answers only the client it asked: serve's caller, and the client's principal and name.
      caller: `${core.callerKey}|${owner(ctx) ?? ''}`,
      store: core.store,
      state: ctx.mcpReq.requestState(),
      responses: ctx.mcpReq.inputResponses,
      round: { ...roundNotifier(ctx), signal: ctx.mcpReq.signal, caps: clientCaps(ctx) },
      secret: await core.store.secret(),
      waitMs: core.opts.inputWaitMs ?? DEFAULT_INPUT_WAIT_MS,
      start: run,
      ...(task && declaresTasks(clientCaps(ctx))
        ? {
            task: {
              afterMs: core.opts.taskGraceMs ?? TASK_GRACE_MS,
              adopt: (ex: Exchange) => core.tasks.adopt(ex, clientCaps(ctx), core.callerKey),
            },
          }
        : {}),
    }) as Promise<CallResult>;
  }

  function taskPolicy(id: string): 'optional' | 'required' | undefined {
    try {
      const t = offeredTask(core.runtime.find(id).contract);
      return t === 'forbidden' ? undefined : t;
    } catch {
      return undefined;
    }
  }

  /** Whose call it is, for the queue's fair share: the 2025 session, else the stateless client's key. */
  function owner(ctx: ServerContext): string | undefined {
    if (conn.era === 'legacy') return conn.session.runtime;
    return ctx.http?.authInfo?.clientId;
  }

  /** The capabilities this request's client declared (2026: in the request; 2025: at initialize). */
  function clientCaps(ctx: ServerContext): Record<string, unknown> {
    if (conn.era === 'legacy') return (server.getClientCapabilities() ?? {}) as Record<string, unknown>;
    return ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CAPS_KEY] ?? {}) as Record<string, unknown>;
  }

  /**
   * A tool whose contract says it cannot work without some client capability is refused before it
   * runs when the client did not declare it: MCP's -32021 on 2026-07-28, a tool error on 2025-11-25
   * (which has no such error).
   */
  function clientLacks(id: string, ctx: ServerContext): CallResult | undefined {
    let needs: string[];
    try {
      needs = core.runtime.find(id).contract.mcp?.client_capabilities ?? [];
    } catch {
      return undefined; // unknown or broken: the call reports it
    }
    const caps = clientCaps(ctx);
    const missing = needs.filter((c) => !caps[c]);
    if (!missing.length) return undefined;
    if (conn.era === 'modern')
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: Object.fromEntries(missing.map((c) => [c, {}])) },
        `Tool '${id}' needs the client capabilities: ${missing.join(', ')}`,
      );
    return errorResult(
      new ToolboxError('client_capability_missing', `tool '${id}' needs a client that supports ${missing.join(', ')}`, {
        exitCode: ExitCode.usage,
        hint: `Use an MCP client that declares ${missing.join(' and ')}.`,
      }),
    );
  }

  /** Where a request's progress and log messages go, and which log messages pass. */
  function roundNotifier(ctx: ServerContext): Notifier {
    const meta = (ctx.mcpReq._meta ?? {}) as Record<string, unknown>;
    const progressToken = meta.progressToken as string | number | undefined;
    const notify = (method: string, params: Record<string, unknown>) => ctx.mcpReq.notify({ method, params } as never);
    if (conn.era === 'legacy') return { progressToken, logs: (l: LogLevel) => conn.session.passes(l), notify };
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    return { progressToken, logs: levelFilter(envelope[LOG_LEVEL_KEY]), notify };
  }

  function legacyClient(ctx: ServerContext): ToolClient {
    return pushClient(roundNotifier(ctx), ctx, clientCaps(ctx));
  }

  async function search(args: Record<string, unknown>, ctx: ServerContext): Promise<CallResult> {
    if (typeof args.query !== 'string' || !args.query.trim())
      return badRequest(`${SEARCH_TOOL} needs "query": what you want to do, in plain words`);
    const k = args.top === undefined ? top : Number(args.top);
    if (!Number.isInteger(k) || k < 1 || k > MAX_TOP)
      return badRequest(`${SEARCH_TOOL}: "top" must be an integer from 1 to ${MAX_TOP}`);
    const { version } = core.listing();
    const offset = searchOffset(args.cursor, args.query, version);
    if (typeof offset === 'string')
      return badRequest(`${SEARCH_TOOL}: "cursor" is ${offset}: send the nextCursor of the last page, or none`);
    let hits;
    const want = Math.min(offset + k, MAX_SEARCH_RESULTS);
    try {
      // One more than the page, to know whether there is a next one.
      hits = await core.search(args.query, want + 1, session, ctx.mcpReq.signal);
    } catch (e) {
      return errorResult(e);
    }
    const nextCursor =
      hits.length > want && want < MAX_SEARCH_RESULTS ? searchCursor(args.query, version, want) : undefined;
    const tools = hits.slice(offset, want).map((e) => toolDef(e.contract));
    if (conn.era === 'legacy') {
      const changed = await conn.session.addFound(tools.map((t) => t.name).filter((n) => !META_TOOLS.has(n)));
      if (changed) await server.sendToolListChanged().catch(() => undefined);
    }
    const text = tools.length
      ? JSON.stringify(tools)
      : `No tool matches "${args.query}". Try other words (what the tool does, not how).`;
    const more = nextCursor
      ? [
          {
            type: 'text' as const,
            text: `More matches: call ${SEARCH_TOOL} with the same query and "cursor": "${nextCursor}".`,
          },
        ]
      : [];
    return {
      content: [{ type: 'text', text }, ...more],
      structuredContent: { tools, ...(nextCursor ? { nextCursor } : {}) },
    };
  }

  return server;
}

/**
 * A direct call to a name the registry does not have is a protocol error (MCP: "Unknown tool",
 * -32602), not a tool result: there is nothing the model can fix by changing its arguments.
 */
function assertKnown(core: ServeCore, name: string): void {
  try {
    core.runtime.find(name);
  } catch (e) {
    if (e instanceof ToolboxError && e.code === 'unknown_tool')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. ${e.message}`, {
        code: 'unknown_tool',
        ...(e.details ?? {}),
      });
    // A broken contract and the like: the tool exists; the call reports why it cannot run.
  }
}

/**
 * How serve offers a tool as a task (its contract's mcp.task). An `mcp` tool's `required` is its
 * server's: toolbox itself follows that task (loaders/util/mcp-call.ts), so serve's own clients need
 * no tasks to call it, and it is offered as `optional` (a task for those that declare the extension).
 */
export function offeredTask(c: ToolContract): 'forbidden' | 'optional' | 'required' | undefined {
  const t = c.mcp?.task;
  return t === 'required' && c.loader === 'mcp' ? 'optional' : t;
}
