import { activeTelemetry } from '../telemetry/state.js';
import type { CallResult } from './results.js';

/**
 * A tools/call inside an MCP server span when telemetry is on (the span module is loaded only
 * then); the trace continues from the traceparent the client put in params._meta.
 */
export async function traceCall(
  name: string,
  meta: Record<string, unknown> | undefined,
  /** `http`: the request came over HTTP (a 2026-07-28 one has no session id). */
  extra: { sessionId?: string; requestId: string | number; http?: boolean },
  fn: () => Promise<CallResult>,
): Promise<CallResult> {
  if (!activeTelemetry()) return fn();
  const { withMcpSpan } = await import('../telemetry/mcp-span.js');
  return withMcpSpan(
    {
      method: 'tools/call',
      target: name,
      sessionId: extra.sessionId,
      requestId: extra.requestId,
      meta,
      transport: extra.http || extra.sessionId ? 'tcp' : 'pipe',
    },
    fn,
    (r) => r.isError === true,
  );
}
