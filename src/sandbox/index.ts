// The sandbox every loader runs tool code through. See docs/sandbox.md for what each tier
// isolates and what it does not.
import { chooseTier, describeTier, probeFacts, TIERS, type ProbeFacts } from './probe.js';
import { runWith, startWith } from './run.js';
import type { SandboxInfo, SandboxResult, SandboxSpec, SandboxTier } from './types.js';
import type { SandboxProcess } from './process-types.js';
import { DEFAULT_LIMITS } from './limits.js';
import { probeCauses, type SandboxCause } from './diagnose.js';
import type { Tools } from './wrap.js';
import { withEgress } from './egress/attach.js';

export type { LimitHit, ResolvedLimits, SandboxInfo, SandboxResult, SandboxSpec, SandboxTier } from './types.js';
export type { SandboxProcess } from './process-types.js';
export type { SandboxCause } from './diagnose.js';
export { resolveInterpreter, type ResolvedInterpreter } from './interpreter.js';
export { DEFAULT_LIMITS, parseSize, resolveLimits } from './limits.js';
export { egressProxy, EgressProxy, type EgressPolicy, type Listener, type Refusal } from './egress/index.js';

/** A trial run for the probe: the real call path running `true`, nothing bound, nothing to leak. */
async function trial(tier: SandboxTier, tools: Tools): Promise<string | undefined> {
  try {
    const r = await runWith(
      {
        command: '/bin/sh',
        args: ['-c', 'exit 0'],
        env: {},
        readOnlyPaths: [],
        network: false,
        limits: { ...DEFAULT_LIMITS, timeoutMs: 10_000 },
      },
      tier,
      tools,
    );
    return r.exitCode === 0 ? undefined : r.stderr.trim().split('\n').pop() || `exit ${r.exitCode ?? r.signal}`;
  } catch (e) {
    return (e as Error).message;
  }
}

let lastStateDir: string | undefined;
function facts(stateDir?: string): Promise<ProbeFacts> {
  if (stateDir) lastStateDir = stateDir;
  return probeFacts(stateDir ?? lastStateDir, trial);
}

/**
 * Which tier is in force here and what it isolates. Probed once per process and cached in
 * `<stateDir>/cache/sandbox.json` (keyed by the bwrap/unshare/setpriv/prlimit binaries, uid,
 * kernel and arch). `TOOLBOX_SANDBOX=bwrap|unshare|none` forces a tier; forcing one that does not
 * work here throws `sandbox_unavailable` (exit 3).
 */
export async function probeSandbox(opts: { stateDir?: string } = {}): Promise<SandboxInfo> {
  const f = await facts(opts.stateDir);
  return describeTier(chooseTier(f), f);
}

/** Every tier that works on this machine, strongest first (for `toolbox doctor`, tests, benches). */
export async function availableTiers(opts: { stateDir?: string } = {}): Promise<SandboxTier[]> {
  const f = await facts(opts.stateDir);
  return TIERS.filter((t) => f.works[t]);
}

/** Why the strong tiers do not work here, each cause with the engine or host option that removes it. */
export async function sandboxCauses(opts: { stateDir?: string } = {}): Promise<SandboxCause[]> {
  return probeCauses(await facts(opts.stateDir));
}

/** What a given tier would isolate here (without choosing it). */
export async function describeSandboxTier(tier: SandboxTier, opts: { stateDir?: string } = {}): Promise<SandboxInfo> {
  return describeTier(tier, await facts(opts.stateDir));
}

/** Run one process to completion inside the sandbox; the whole process tree is gone when this resolves. */
export async function runSandboxed(spec: SandboxSpec): Promise<SandboxResult> {
  const f = await facts();
  const tier = chooseTier(f);
  return runWith(await withEgress(spec, tier, f.tools), tier, f.tools);
}

/** Start a long-lived sandboxed process (MCP stdio server, warm worker). */
export async function startSandboxed(spec: Omit<SandboxSpec, 'stdin'>): Promise<SandboxProcess> {
  const f = await facts();
  const tier = chooseTier(f);
  return startWith(await withEgress(spec, tier, f.tools), tier, f.tools);
}
