// PLACEHOLDER (being replaced by the sandbox implementation): signatures only, so that loaders
// and the runtime can be written against them. Every function here throws until then.
import type { ResolvedLimits, SandboxInfo, SandboxProcess, SandboxResult, SandboxSpec } from './types.js';
import type { SandboxPolicy } from '../../contract/types.js';

export type { ResolvedLimits, SandboxInfo, SandboxProcess, SandboxResult, SandboxSpec } from './types.js';

/** Probe (once per process, cached on disk under .toolbox/ when a state dir is given) which tier works here. */
export async function probeSandbox(_opts: { stateDir?: string } = {}): Promise<SandboxInfo> {
  throw new Error('sandbox not implemented yet');
}

/** Defaults overlaid with a contract's `sandbox` section and an optional timeout override. */
export function resolveLimits(_policy: SandboxPolicy | undefined, _timeout: number | string | undefined, _overrideMs?: number): ResolvedLimits {
  throw new Error('sandbox not implemented yet');
}

/** Run one process to completion inside the sandbox; the whole process tree is gone when this resolves. */
export async function runSandboxed(_spec: SandboxSpec): Promise<SandboxResult> {
  throw new Error('sandbox not implemented yet');
}

/** Start a long-lived sandboxed process (MCP stdio server, warm worker). */
export async function startSandboxed(_spec: Omit<SandboxSpec, 'stdin'>): Promise<SandboxProcess> {
  throw new Error('sandbox not implemented yet');
}
