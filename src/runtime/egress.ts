// What the egress proxy refused during a call, told with the call's outcome. The tool itself only
// sees a 403 from its proxy (or a SOCKS refusal, or an exception built on them), which it may word
// any way or swallow; the proxy's own log for the tool's policy says which host, why, and what
// would allow it. A failed call that met a refusal is `network_refused` (exit 7); a call that
// succeeded anyway carries the refusal as a warning.
import { ExitCode, ToolboxError } from '../errors.js';
import type { CallContext } from '../loaders/types.js';
import type { Refusal } from '../sandbox/egress/policy.js';

function refusalsOf(egress: CallContext['egress']): Refusal[] {
  return egress ? egress.listener.since(egress.mark) : [];
}

/** The call failed: if the proxy refused a destination during it, that is the error the caller sees. */
export function egressError(egress: CallContext['egress']): ToolboxError | undefined {
  const all = refusalsOf(egress);
  const r = all[all.length - 1];
  if (!r) return undefined;
  const others = [...new Set(all.slice(0, -1).map((x) => `${x.host}:${x.port}`))].filter(
    (h) => h !== `${r.host}:${r.port}`,
  );
  return new ToolboxError('network_refused', `the egress proxy refused: ${r.message}`, {
    exitCode: ExitCode.permission,
    hint: r.hint,
    details: {
      host: r.host,
      port: r.port,
      reason: r.reason,
      ...(r.address ? { address: r.address } : {}),
      ...(r.addressClass ? { addressClass: r.addressClass } : {}),
      ...(others.length ? { alsoRefused: others } : {}),
    },
  });
}

/** The call succeeded: refusals during it are warnings. */
export function egressWarnings(egress: CallContext['egress']): string[] {
  return refusalsOf(egress).map((r) => `the egress proxy refused ${r.host}:${r.port}: ${r.message}`);
}
