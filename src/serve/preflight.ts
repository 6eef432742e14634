// What a replica needs before a call can run, beyond a readable registry: a sandbox tier (when one
// is required: TOOLBOX_SANDBOX names a tier that does not work here, every call would fail) and a
// writable temporary folder (each call's working folder is made there: a read-only root file system
// without a /tmp tmpfs fails every call). /readyz reports both, so a balancer never sends calls to a
// replica that cannot run them.
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxTier } from '../sandbox/index.js';

/** The sandbox as serve found it at start: the tier in force, or why none can be used. */
export interface ServeSandbox {
  tier?: SandboxTier;
  /** The probe's error (e.g. sandbox_unavailable: TOOLBOX_SANDBOX=bwrap here, where bwrap fails). */
  error?: { code: string; message: string };
}

/** Probe the sandbox once, as every call will (never throws: a failure is kept as `error`). */
export async function probeServeSandbox(stateDir: string): Promise<ServeSandbox> {
  try {
    const { probeSandbox } = await import('../sandbox/index.js');
    return { tier: (await probeSandbox({ stateDir })).tier };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    return { error: { code: err.code ?? 'sandbox_unavailable', message: err.message ?? String(e) } };
  }
}

// A balancer asks every half second: the answer is kept this long.
const TEMP_TTL_MS = 2000;
let tempMemo: { dir: string; at: number; ok: boolean } | undefined;

/** Whether a call's working folder can be made in the temporary folder now (checked for real). */
export function tempWritable(now = Date.now()): boolean {
  const dir = tmpdir();
  if (tempMemo && tempMemo.dir === dir && now - tempMemo.at < TEMP_TTL_MS) return tempMemo.ok;
  let ok: boolean;
  try {
    rmdirSync(mkdtempSync(join(dir, 'toolbox-ready-')));
    ok = true;
  } catch {
    ok = false;
  }
  tempMemo = { dir, at: now, ok };
  return ok;
}
