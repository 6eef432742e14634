// The telemetry switch, with no imports: the CLI's exit path and the runtime's hot path consult it
// without loading anything. The OpenTelemetry SDK is loaded (by ./sdk.ts) only when asked for.

/** What is running once telemetry has started. */
export interface TelemetryHandle {
  /** Record arguments and results on spans (opt-in). */
  captureContent: boolean;
  /** Export what is buffered and stop (a short-lived CLI must call this before it exits). */
  shutdown(): Promise<void>;
}

let started: Promise<TelemetryHandle | undefined> | undefined;
let handle: TelemetryHandle | undefined;
let missing: string | undefined;

/**
 * The OpenTelemetry SDK packages: optional peer dependencies (about 55 MB installed, which every user
 * would otherwise download for a feature that is off by default). Only @opentelemetry/api is a dependency.
 */
export const SDK_PACKAGES = [
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-http',
] as const;

const notFound = (e: unknown) => {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
};

/** Settings from toolbox.config.yaml's `telemetry:` section. */
export interface TelemetryConfig {
  endpoint?: string;
  capture_content?: boolean;
  service_name?: string;
}

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());

/**
 * The OTLP/HTTP base URL when tracing is asked for: OTEL_EXPORTER_OTLP_ENDPOINT (or the traces
 * endpoint variable), else `telemetry.endpoint` in the config. OTEL_SDK_DISABLED=true wins.
 */
export function telemetryEndpoint(env: NodeJS.ProcessEnv, config?: TelemetryConfig): string | undefined {
  if (truthy(env.OTEL_SDK_DISABLED)) return undefined;
  return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || config?.endpoint || undefined;
}

/** Start telemetry once per process when the environment or config asks for it; else nothing is loaded. */
export function ensureTelemetry(
  env: NodeJS.ProcessEnv,
  config?: TelemetryConfig,
): Promise<TelemetryHandle | undefined> {
  if (started) return started;
  const endpoint = telemetryEndpoint(env, config);
  if (!endpoint) return Promise.resolve(undefined);
  started = import('./sdk.js')
    .then((m) =>
      m.startSdk({
        endpoint,
        env,
        serviceName: env.OTEL_SERVICE_NAME || config?.service_name || 'toolbox',
        captureContent:
          truthy(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT) || config?.capture_content === true,
      }),
    )
    .then(
      (h) => (handle = h),
      (e: unknown) => {
        // Tracing asked for, SDK not installed: the command still runs, untraced, and says so once.
        if (!notFound(e)) throw e;
        missing =
          `tracing is on (${endpoint}) but the OpenTelemetry SDK is not installed, so nothing is exported: ` +
          `npm install ${SDK_PACKAGES.join(' ')} (or set OTEL_SDK_DISABLED=true)`;
        return undefined;
      },
    );
  return started;
}

/** Why tracing was asked for but is off (SDK packages not installed), once: the next call returns undefined. */
export function takeTelemetryWarning(): string | undefined {
  const m = missing;
  missing = undefined;
  return m;
}

/** The running telemetry, if any (synchronous: for hot paths). */
export const activeTelemetry = (): TelemetryHandle | undefined => handle;

/** Flush and stop telemetry if it was started. Never throws: an unreachable collector must not fail a command. */
export async function shutdownTelemetry(): Promise<void> {
  const h = started ? await started.catch(() => undefined) : undefined;
  started = undefined;
  handle = undefined;
  if (h) await h.shutdown().catch(() => undefined);
}
