// One span per tool call (OpenTelemetry GenAI semantic conventions, execute_tool) and the
// gen_ai.execute_tool.duration histogram. Imported only once telemetry is running.
import { SpanKind, SpanStatusCode, metrics, trace, type Attributes } from '@opentelemetry/api';
import type { TelemetryHandle } from './types.js';

const tracer = () => trace.getTracer('toolbox');
let histogram: ReturnType<ReturnType<typeof metrics.getMeter>['createHistogram']> | undefined;
const duration = () =>
  (histogram ??= metrics.getMeter('toolbox').createHistogram('gen_ai.execute_tool.duration', {
    description: 'Duration of tool executions',
    unit: 's',
  }));

// Span attributes must stay small even when content capture is on.
const MAX_CONTENT = 8192;
const clip = (s: string) => (s.length > MAX_CONTENT ? `${s.slice(0, MAX_CONTENT)}…` : s);
const json = (v: unknown) => {
  try {
    return clip(typeof v === 'string' ? v : JSON.stringify(v));
  } catch {
    return '[unserializable]';
  }
};

/** What the span describes: the tool and this call. */
export interface ToolCallInfo {
  name: string;
  callId: string;
  description?: string;
  args?: unknown;
}

/**
 * Run `fn` inside an `execute_tool {name}` span: gen_ai.operation.name, gen_ai.tool.name,
 * gen_ai.tool.call.id, gen_ai.tool.type; on failure error.type (toolbox's error code) and an
 * error status. Arguments and the result are recorded only when content capture is on.
 */
export async function withToolSpan<T extends { text?: string }>(
  t: TelemetryHandle,
  info: ToolCallInfo,
  fn: () => Promise<T>,
): Promise<T> {
  const attrs: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': info.name,
    'gen_ai.tool.call.id': info.callId,
    'gen_ai.tool.type': 'function',
  };
  if (info.description) attrs['gen_ai.tool.description'] = clip(info.description);
  if (t.captureContent && info.args !== undefined) attrs['gen_ai.tool.call.arguments'] = json(info.args);
  const start = performance.now();
  return tracer().startActiveSpan(
    `execute_tool ${info.name}`,
    { kind: SpanKind.INTERNAL, attributes: attrs },
    async (span) => {
      const metricAttrs: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': info.name };
      try {
        const r = await fn();
        if (t.captureContent && r.text !== undefined) span.setAttribute('gen_ai.tool.call.result', clip(r.text));
        return r;
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        const type = typeof code === 'string' ? code : ((e as Error)?.name ?? 'Error');
        span.setAttribute('error.type', type);
        metricAttrs['error.type'] = type;
        span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error)?.message });
        throw e;
      } finally {
        duration().record((performance.now() - start) / 1000, metricAttrs);
        span.end();
      }
    },
  );
}
