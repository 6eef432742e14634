// Loaded only when telemetry is asked for: the OpenTelemetry Node SDK with OTLP/HTTP (JSON)
// exporters for traces and metrics. Versions pinned to lines that run on Node 20 (sdk 2.12,
// exporters 0.223; sdk-metrics 3.x and the 0.3xx exporters need Node 22).
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { packageVersion } from '../util/version.js';
import type { TelemetryHandle } from './types.js';

// An unreachable collector must not hold a CLI command: exports give up after this long.
const EXPORT_TIMEOUT_MS = 2000;

const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/** Start tracing and metrics towards an OTLP/HTTP endpoint (base URL: /v1/traces and /v1/metrics are added). */
export function startSdk(opts: {
  endpoint: string;
  env: NodeJS.ProcessEnv;
  serviceName: string;
  captureContent: boolean;
}): TelemetryHandle {
  const resource = resourceFromAttributes({ 'service.name': opts.serviceName, 'service.version': packageVersion() });
  const tracesUrl = opts.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || join(opts.endpoint, 'v1/traces');
  const metricsUrl = opts.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT || join(opts.endpoint, 'v1/metrics');
  const tracer = new NodeTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl, timeoutMillis: EXPORT_TIMEOUT_MS })),
    ],
  });
  // Registers the global tracer provider, the W3C trace-context propagator and an
  // AsyncLocalStorage context manager (so the tool span nests under serve's MCP span).
  tracer.register();
  const meter = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: metricsUrl, timeoutMillis: EXPORT_TIMEOUT_MS }),
        exportIntervalMillis: 15_000,
      }),
    ],
  });
  metrics.setGlobalMeterProvider(meter);
  return {
    captureContent: opts.captureContent,
    async shutdown() {
      const deadline = (p: Promise<unknown>) =>
        Promise.race([p, new Promise((r) => setTimeout(r, EXPORT_TIMEOUT_MS + 500).unref())]);
      await deadline(Promise.allSettled([tracer.forceFlush(), meter.forceFlush()]));
      await deadline(Promise.allSettled([tracer.shutdown(), meter.shutdown()]));
      // Unregister the globals, so a later start in the same process (tests, the library) registers anew.
      trace.disable();
      context.disable();
      propagation.disable();
      metrics.disable();
    },
  };
}
