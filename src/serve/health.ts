// Health endpoints for a load balancer, answered before authentication and revealing nothing but a
// status word and the sandbox tier: `GET /healthz` (the process answers) and `GET /readyz` (it
// should get calls: the registry loads, a call can run (a sandbox when one is required, a writable
// temporary folder), the shared state is reachable or the replica serves on its own state meanwhile,
// and it is not draining). While draining after SIGTERM, /readyz and every new call get 503 with
// Retry-After, so the balancer sends calls to the other replicas while this one finishes its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServeCore } from './core.js';
import { tempWritable } from './preflight.js';

export const HEALTH_PATHS = new Set(['/healthz', '/readyz']);
/** What a refused client is told to wait before it tries again (another replica will answer). */
export const RETRY_AFTER_S = 1;

export type Readiness =
  'ready' | 'degraded' | 'draining' | 'registry_unavailable' | 'sandbox_unavailable' | 'no_writable_temp';

/** Whether this replica should get calls now, and why not. */
export function readiness(core: ServeCore, draining: boolean): Readiness {
  if (draining) return 'draining';
  try {
    core.registry();
  } catch {
    return 'registry_unavailable';
  }
  if (core.sandbox?.error) return 'sandbox_unavailable';
  if (!tempWritable()) return 'no_writable_temp';
  const s = core.shared?.status();
  return s && s.health !== 'connected' ? 'degraded' : 'ready';
}

/** Answer a health request; false when `req` is not one. */
export function answerHealth(req: IncomingMessage, res: ServerResponse, core: ServeCore, draining: boolean): boolean {
  const path = (req.url ?? '/').split('?')[0]!;
  if (!HEALTH_PATHS.has(path)) return false;
  const head = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...head, allow: 'GET, HEAD' }).end(JSON.stringify({ status: 'method_not_allowed' }));
    return true;
  }
  if (path === '/healthz') {
    res.writeHead(200, head).end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: 'alive' }));
    return true;
  }
  const r = readiness(core, draining);
  const ok = r === 'ready' || r === 'degraded';
  // The tier is no secret worth keeping from a balancer, and an operator must see it: `none` means
  // tools run unconfined (serve refuses that on a non-loopback address unless --allow-unsandboxed).
  const sandbox = core.sandbox?.tier;
  res
    .writeHead(ok ? 200 : 503, ok ? head : { ...head, 'retry-after': String(RETRY_AFTER_S) })
    .end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: r, ...(sandbox ? { sandbox } : {}) }));
  return true;
}
