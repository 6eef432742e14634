// `serve --log-format json`: one JSON object per line on stderr, for a log collector. Every answered
// request but health checks and /metrics scrapes gives one line (what a balancer polls twice a
// second would drown the rest); serve's own messages (listening, draining, Redis away and back) are
// lines too, with `message`. No token, argument, result or header is ever written.
import { hostname } from 'node:os';

export type LogFormat = 'text' | 'json';

/** One answered request. */
export interface RequestLogEntry {
  time: string;
  /** The client's address (X-Forwarded-For's last entry behind a trusted balancer), or `local`. */
  client: string;
  /** The JSON-RPC method (`tools/call`, `initialize`, `batch`), else the HTTP method. */
  method: string;
  /** The tool a call ran (the registry tool behind call_tool too). */
  tool?: string;
  /** `ok`, a toolbox error code (`tool_failed`, `circuit_open`, …), or `http_<status>` for a refusal. */
  outcome: string;
  status: number;
  durationMs: number;
}

/** Which replica wrote a line: TOOLBOX_REPLICA, else the host name (a container's or a pod's). */
export function replicaName(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLBOX_REPLICA || hostname();
}

export function requestLine(e: RequestLogEntry, replica: string): string {
  return JSON.stringify({
    time: e.time,
    level: 'info',
    replica,
    client: e.client,
    method: e.method,
    ...(e.tool !== undefined ? { tool: e.tool } : {}),
    outcome: e.outcome,
    status: e.status,
    duration_ms: Math.round(e.durationMs * 100) / 100,
  });
}

/** One of serve's own messages as a line (colour codes, if any, removed). */
export function messageLine(message: string, replica: string, level: 'info' | 'warn' = 'info'): string {
  const text = message.replace(/\u001b\[[0-9;]*m/g, '');
  return JSON.stringify({ time: new Date().toISOString(), level, replica, message: text });
}
