import type { McpConfig } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';
import type { CallContext, LoadContext, LoadedTool, Loader, ToolOutput } from './types.js';
import { openSession, type McpSession, type McpTarget } from '../mcp/session.js';
import { contentText, resultValue, type CallResultLike } from '../mcp/result.js';
import type { ContentBlock } from '../mcp/content.js';
import { acquire, release, pooledSession } from '../mcp/pool.js';
import { codeVersion } from '../lock/tool-files.js';
import { callWithCaller } from './util/mcp-call.js';

/** `${NAME}` in a config value, taken from the (allow-listed) sandbox environment or PROJECT_ROOT. */
const expand = (s: string, env: Record<string, string>) =>
  s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, n: string) => env[n] ?? '');
const expandAll = (m: Record<string, string> | undefined, env: Record<string, string>) =>
  Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, expand(v, env)]));

function targetOf(cfg: McpConfig, ctx: LoadContext, cc: CallContext, code?: string): McpTarget {
  if (cfg.url) {
    if (!cc.network) {
      throw new ToolboxError(
        'network_closed',
        `tool '${ctx.entry.contract.id}' calls the MCP server at ${cfg.url} but its network is closed`,
        {
          exitCode: ExitCode.registry,
          location: { file: ctx.entry.file, line: ctx.entry.line },
          hint: 'Add `sandbox: { network: true }` to the contract to let it reach the server.',
        },
      );
    }
    // toolbox's own requests for the tool go out through its egress proxy, as the tool's would.
    if (!cc.egress) throw new Error(`tool '${ctx.entry.contract.id}' has the network open but no egress proxy`);
    return {
      kind: 'http',
      project: ctx.project.root,
      url: expand(cfg.url, cc.env),
      headers: expandAll(cfg.headers, cc.env),
      egress: cc.egress.socket,
      ...(cfg.protocol ? { protocol: cfg.protocol } : {}),
    };
  }
  // ${PROJECT_ROOT} lets a shipped contract hand the server a folder of the project (e.g. the
  // filesystem server's allowed directory) without an absolute path.
  const vars = { ...cc.env, PROJECT_ROOT: ctx.project.root };
  return {
    kind: 'stdio',
    root: ctx.project.root,
    command: cfg.command!,
    args: (cfg.args ?? []).map((a) => expand(a, vars)),
    env: { ...cc.env, ...expandAll(cfg.env, vars) },
    readOnlyPaths: cc.readOnlyPaths,
    network: cc.network,
    ...(cc.egress ? { egressSocket: cc.egress.socket } : {}),
    tool: ctx.entry.contract.id,
    granted: cc.granted,
    limits: cc.limits,
    // Bare server commands (`uvx`, `docker`) are looked up on the PATH toolbox was called with.
    pathVar: (ctx.hostEnv ?? process.env).PATH,
    ...(code ? { code } : {}),
    ...(cfg.protocol ? { protocol: cfg.protocol } : {}),
  };
}

/** Rejects when `signal` aborts, so a caller never waits on a shared promise past its own deadline. */
function until<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((res, rej) => {
    const onAbort = () => rej(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        res(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        rej(e);
      },
    );
  });
}

async function callOnce(
  s: McpSession,
  tool: string,
  args: Record<string, unknown>,
  cc: CallContext,
  signal: AbortSignal,
  deadline: number,
  inputSchema: Record<string, unknown>,
  task: 'forbidden' | 'optional' | 'required' | undefined,
): Promise<ToolOutput> {
  const mark = s.stderr.mark();
  const r: CallResultLike = await callWithCaller(s, tool, args, cc, signal, deadline, inputSchema, task);
  const logs = s.stderr.since(mark) || undefined;
  if (r.isError)
    throw new ToolRunError({
      kind: 'failed',
      message: contentText(r) || `MCP tool '${tool}' reported an error`,
      logs,
      tier: s.tier,
    });
  const result = resultValue(r);
  const size =
    Buffer.byteLength(typeof result === 'string' ? result : JSON.stringify(result)) +
    (r.content?.some((b) => b.type !== 'text') ? Buffer.byteLength(JSON.stringify(r.content)) : 0);
  if (size > cc.limits.outputBytes) {
    throw new ToolRunError({
      kind: 'limit',
      limit: 'output',
      message: `MCP tool '${tool}' returned ${size} bytes, over the output limit of ${cc.limits.outputBytes}`,
      logs,
      tier: s.tier,
    });
  }
  // The blocks pass through as the server sent them (images, audio, resources), not flattened.
  const content = r.content?.length ? (r.content as ContentBlock[]) : undefined;
  return { result, ...(content ? { content } : {}), logs, tier: s.tier };
}

/** Map what the SDK threw (timeouts, a server that died, protocol errors) to a ToolRunError. */
function mapError(e: unknown, tool: string, timedOut: boolean, outer: AbortSignal, s?: McpSession): unknown {
  if (e instanceof ToolRunError || e instanceof ToolboxError) return e;
  const err = e as Error & { code?: number };
  if (timedOut || err.code === -32001 || (err.code as unknown) === 'REQUEST_TIMEOUT') {
    return new ToolRunError({
      kind: 'limit',
      limit: 'timeout',
      message: `MCP tool '${tool}' did not answer in time`,
      logs: s?.stderr.tail(),
      tier: s?.tier,
    });
  }
  if (outer.aborted) return outer.reason ?? e;
  const tail = s?.stderr.tail(600).trim();
  const died = err.code === -32000 || s?.closed;
  return new ToolRunError({
    kind: 'failed',
    message: `${died ? 'MCP server closed the connection during' : 'MCP error in'} '${tool}': ${err.message ?? String(e)}${died && tail ? `\n--- server stderr ---\n${tail}` : ''}`,
    logs: s?.stderr.tail(),
    tier: s?.tier,
  });
}

/**
 * The `mcp` loader: the tool is one tool of an MCP server. stdio servers start on first call,
 * inside the sandbox; in a long-running process (serve, library) one connection per server is
 * shared by all its tools and kept open; in a one-shot `run` it is closed after the call.
 */
export const loader: Loader = {
  type: 'mcp',
  async load(ctx: LoadContext): Promise<LoadedTool> {
    const cfg = ctx.entry.contract.loader_config as unknown as McpConfig;
    const held = new Set<string>();
    // A server whose code in the project was edited is another server: the tool loaded again after
    // the edit (the runtime compares the same fingerprint) must not get the old one from the pool.
    const code = ctx.longRunning ? codeVersion(ctx.project.root, ctx.entry.contract) : undefined;
    return {
      async call(args, cc) {
        const target = targetOf(cfg, ctx, cc, code);
        const ac = new AbortController();
        let timedOut = false;
        const started = Date.now();
        const timer = setTimeout(() => {
          timedOut = true;
          ac.abort(new Error('timeout'));
        }, cc.limits.timeoutMs);
        const onOuter = () => ac.abort(cc.signal.reason);
        cc.signal.addEventListener('abort', onOuter, { once: true });
        let session: McpSession | undefined;
        try {
          const openUrl = cc.client?.openUrl?.bind(cc.client);
          const open = {
            timeoutMs: cc.limits.timeoutMs,
            nodeBinary: process.execPath,
            ...(openUrl ? { openUrl } : {}),
          };
          if (ctx.longRunning) {
            const key = acquire(target, held);
            session = await until(
              pooledSession(key, () => openSession(target, open)),
              ac.signal,
            );
          } else {
            session = await openSession(target, { ...open, signal: ac.signal });
          }
          const out = await callOnce(
            session,
            cfg.tool,
            args,
            cc,
            ac.signal,
            started + cc.limits.timeoutMs,
            ctx.entry.contract.schema as Record<string, unknown>,
            ctx.entry.contract.mcp?.task,
          );
          if (ctx.verbose && session.binds.length) {
            const said = session.binds.map((b) => `bound read-only: ${b.path} (${b.why})`).join('\n');
            out.logs = `${said}\n${out.logs ?? ''}`;
          }
          return out;
        } catch (e) {
          throw mapError(e, cfg.tool, timedOut, cc.signal, session);
        } finally {
          clearTimeout(timer);
          cc.signal.removeEventListener('abort', onOuter);
          if (!ctx.longRunning) await session?.close();
        }
      },
      async dispose() {
        await Promise.all([...held].map((k) => release(k)));
        held.clear();
      },
    };
  },
};
