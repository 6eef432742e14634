// Shared by the sandbox tests: fixture paths, specs, tier switching and a /proc scan for leftovers.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { REPO } from '../helpers.js';
import { availableTiers, DEFAULT_LIMITS, resolveInterpreter } from '../../src/sandbox/index.js';
import type { ResolvedLimits, SandboxSpec, SandboxTier } from '../../src/sandbox/index.js';

export const HOSTILE = join(REPO, 'test', 'fixtures', 'hostile');

/** A spec running a hostile fixture: python (.py), node (.js) or sh (.sh), with the fixtures bound. */
export async function fixtureSpec(
  file: string,
  args: string[] = [],
  over: Partial<SandboxSpec> & { limits?: Partial<ResolvedLimits> } = {},
): Promise<SandboxSpec> {
  const interp = file.endsWith('.py') ? 'python3' : file.endsWith('.js') ? 'node' : '/bin/sh';
  const r = await resolveInterpreter(interp);
  const { limits, readOnlyPaths, ...rest } = over;
  return {
    command: r.path,
    args: [join(HOSTILE, file), ...args],
    env: {},
    readOnlyPaths: [HOSTILE, ...r.readOnlyPaths, ...(readOnlyPaths ?? [])],
    network: false,
    ...rest,
    limits: { ...DEFAULT_LIMITS, timeoutMs: 20_000, ...limits },
  };
}

/** Run `fn` with TOOLBOX_SANDBOX forcing `tier`. */
export async function onTier<T>(tier: SandboxTier, fn: () => Promise<T>): Promise<T> {
  const prev = process.env.TOOLBOX_SANDBOX;
  process.env.TOOLBOX_SANDBOX = tier;
  try {
    return await fn();
  } finally {
    if (prev === undefined) delete process.env.TOOLBOX_SANDBOX;
    else process.env.TOOLBOX_SANDBOX = prev;
  }
}

/**
 * Whether this machine is expected to provide every tier: CI as root on Debian, where .ci/run installs
 * bubblewrap. There a tier that does not work is a failure, never a reason to run fewer tests.
 */
export function expectsEveryTier(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' && process.getuid?.() === 0 && existsSync('/etc/debian_version');
}

const ALL_TIERS: SandboxTier[] = ['bwrap', 'unshare', 'none'];

/**
 * The tiers the per-tier suites run on: those that work here, and on a machine that is expected to
 * provide all of them, all of them, so that a broken tier fails its tests loudly instead of removing them.
 */
export async function testTiers(): Promise<SandboxTier[]> {
  const works = await availableTiers();
  return ALL_TIERS.filter((t) => works.includes(t) || expectsEveryTier());
}

export function marker(): string {
  return `tbxmark${randomBytes(6).toString('hex')}`;
}

/** Pids of live processes whose command line contains `mark` (zombies count as gone). */
export function processesWith(mark: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`).includes(mark)) continue;
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${name}/status`, 'utf8'))) continue;
      pids.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

export function json(s: string | undefined): any {
  return JSON.parse((s ?? '').trim().split('\n').pop() ?? '');
}
