// What the telemetry switch (state.ts) holds and the SDK module (sdk.ts) makes: a type both sides share.

/** What is running once telemetry has started. */
export interface TelemetryHandle {
  /** Record arguments and results on spans (opt-in). */
  captureContent: boolean;
  /** Export what is buffered and stop (a short-lived CLI must call this before it exits). */
  shutdown(): Promise<void>;
}
