// The telemetry switch, with no imports but a type: the CLI's exit path and the runtime's hot path
// consult it without loading anything. The OpenTelemetry SDK is loaded (by ./sdk.ts) only when asked for.
import type { TelemetryHandle } from './types.js';

let started: Promise<TelemetryHandle | undefined> | undefined;
let handle: TelemetryHandle | undefined;
let missing: string | undefined;

/**
 * The OpenTelemetry SDK packages, in the lines toolbox is tested with (its devDependencies; the 3.x SDK
 * and 0.3xx exporters need Node 22), about 55 MB installed: not dependencies,
 * because nobody who leaves tracing off should download them. They are found where Node finds any
 * package (the project's or a global node_modules); only @opentelemetry/api is a dependency. Not peer
 * dependencies either: npm would then refuse to install toolbox next to another SDK version.
 */
export const SDK_PACKAGES = [
  '@opentelemetry/sdk-trace-node@2.12',
  '@opentelemetry/sdk-metrics@2.12',
  '@opentelemetry/resources@2.12',
  '@opentelemetry/exporter-trace-otlp-http@0.223',
  '@opentelemetry/exporter-metrics-otlp-http@0.223',
] as const;

/** Where traces go, for a message: scheme, host and port only (user, password, path and query may hold secrets). */
export function endpointOrigin(endpoint: string): string {
  try {
    const u = new URL(endpoint);
    return u.protocol.startsWith('http') ? `${u.protocol}//${u.host}` : 'the configured endpoint';
  } catch {
    return 'the configured endpoint';
  }
}

/** Why the SDK could not start, in words a user can act on (never the endpoint's credentials). */
export function telemetryProblem(e: unknown, endpoint: string): string {
  const err = e as { code?: unknown; message?: unknown } | null;
  const message = (typeof err?.message === 'string' ? err.message : String(e))
    .split(endpoint)
    .join(endpointOrigin(endpoint));
  if (err?.code === 'ERR_MODULE_NOT_FOUND' || err?.code === 'MODULE_NOT_FOUND') {
    const pkg = /Cannot find (?:module|package) '([^']+)'/.exec(message)?.[1];
    return `the OpenTelemetry SDK is not installed${pkg ? ` (no ${pkg.replace(/^(.*\/node_modules\/)/, '')})` : ''}`;
  }
  return `the OpenTelemetry SDK could not start (${message.split('\n')[0]!.slice(0, 200)}; toolbox needs SDK 2.x and exporters 0.2xx)`;
}

/**
 * The user's telemetry settings: the `telemetry:` section of their own ~/.config/toolbox/config.yaml
 * (policy/user-settings.ts), never a project's toolbox.config.yaml, which may only name the service.
 */
export interface TelemetryConfig {
  endpoint?: string;
  capture_content?: boolean;
  service_name?: string;
}

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());

/** The user's settings, or how to read them (only read when the environment names no endpoint). */
export type TelemetrySettings = TelemetryConfig | (() => TelemetryConfig | undefined) | undefined;

/**
 * The OTLP/HTTP base URL when tracing is asked for: OTEL_EXPORTER_OTLP_ENDPOINT (or the traces
 * endpoint variable), else `telemetry.endpoint` in the user's config. OTEL_SDK_DISABLED=true wins.
 */
export function telemetryEndpoint(env: NodeJS.ProcessEnv, config?: TelemetryConfig): string | undefined {
  if (truthy(env.OTEL_SDK_DISABLED)) return undefined;
  return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || config?.endpoint || undefined;
}

/** Start telemetry once per process when the environment or the user's config asks for it; else nothing is loaded. */
export function ensureTelemetry(
  env: NodeJS.ProcessEnv,
  settings?: TelemetrySettings,
): Promise<TelemetryHandle | undefined> {
  if (started) return started;
  if (truthy(env.OTEL_SDK_DISABLED)) return Promise.resolve(undefined);
  const config = typeof settings === 'function' ? settings() : settings;
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
        // Tracing must never fail a command: without a working SDK it runs untraced, and says so once.
        missing =
          `tracing is on (${endpointOrigin(endpoint)}) but ${telemetryProblem(e, endpoint)}, so nothing is exported: ` +
          `npm install ${SDK_PACKAGES.join(' ')} (or set OTEL_SDK_DISABLED=true)`;
        return undefined;
      },
    );
  return started;
}

/** Why tracing was asked for but is off (SDK missing or unusable), once: the next call returns undefined. */
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
