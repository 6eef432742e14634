// serve's MCP server spans (OpenTelemetry MCP semantic conventions): `{mcp.method.name} {target}`,
// kind SERVER, continuing the trace whose context the client sent in params._meta (traceparent).
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
} from '@opentelemetry/api';

/** One MCP request as the span describes it. */
export interface McpRequestInfo {
  method: string;
  /** The tool name for tools/call. */
  target?: string;
  sessionId?: string;
  requestId?: string | number;
  /** params._meta of the request: may carry traceparent / tracestate. */
  meta?: Record<string, unknown>;
  transport: 'pipe' | 'tcp';
}

const getter = {
  keys: (c: Record<string, unknown>) => Object.keys(c),
  get: (c: Record<string, unknown>, k: string) => (typeof c[k] === 'string' ? (c[k] as string) : undefined),
};

/** Run `fn` inside an MCP server span; the tool's own span (from the runtime) becomes its child. */
export function withMcpSpan<T>(info: McpRequestInfo, fn: () => Promise<T>, isError?: (r: T) => boolean): Promise<T> {
  const parent = info.meta ? propagation.extract(ROOT_CONTEXT, info.meta, getter) : context.active();
  const attrs: Attributes = { 'mcp.method.name': info.method, 'network.transport': info.transport };
  if (info.sessionId) attrs['mcp.session.id'] = info.sessionId;
  if (info.requestId !== undefined) attrs['jsonrpc.request.id'] = String(info.requestId);
  if (info.target && info.method === 'tools/call') {
    attrs['gen_ai.tool.name'] = info.target;
    attrs['gen_ai.operation.name'] = 'execute_tool';
  }
  const name = info.target ? `${info.method} ${info.target}` : info.method;
  return trace
    .getTracer('toolbox')
    .startActiveSpan(name, { kind: SpanKind.SERVER, attributes: attrs }, parent, async (span) => {
      try {
        const r = await fn();
        if (isError?.(r)) {
          span.setAttribute('error.type', 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return r;
      } catch (e) {
        span.setAttribute('error.type', (e as Error)?.name ?? 'Error');
        span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error)?.message });
        throw e;
      } finally {
        span.end();
      }
    });
}
