// Which tier works on this machine: tried once per process, remembered on disk per
// (bwrap binary, uid, kernel, arch) so later CLI calls skip the trial runs. The disk copy lives in
// the user's own cache folder (never the project's .toolbox/, which a repository can ship) and is
// only a hint: the programs are always looked up afresh from trusted system folders, and a cache
// that names a weaker tier than the programs present allow is re-verified by trial runs.
import { readFileSync, statSync } from 'node:fs';
import { arch, release } from 'node:os';
import { join } from 'node:path';
import { userCacheDir } from '../util/user-dirs.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { runHost, trustedBinary } from '../util/host-process.js';
import { seccompSupported } from './seccomp.js';
import { probeCauses, sandboxFixText } from './diagnose.js';
import type { SandboxInfo, SandboxTier } from './types.js';
import type { Tools } from './wrap.js';

export const TIERS: SandboxTier[] = ['bwrap', 'unshare', 'none'];

/** What the trial runs found: which tiers work, and why the others do not. */
export interface ProbeFacts {
  key: string;
  tools: Tools;
  bwrapVersion?: string;
  works: Record<SandboxTier, boolean>;
  reasons: Partial<Record<SandboxTier, string>>;
}

/** The test a tier has to pass: the same code path as a real call, running `true`. */
export type TierTrial = (tier: SandboxTier, tools: Tools) => Promise<string | undefined>;

function findTools(): Tools {
  return {
    bwrap: trustedBinary('bwrap'),
    unshare: trustedBinary('unshare'),
    prlimit: trustedBinary('prlimit'),
    setpriv: trustedBinary('setpriv'),
    ip: trustedBinary('ip'),
  };
}

function cacheKey(tools: Tools): string {
  const id = (p?: string) => {
    if (!p) return '-';
    try {
      const s = statSync(p);
      return `${p}:${s.size}:${s.mtimeMs}`;
    } catch {
      return '-';
    }
  };
  return [
    id(tools.bwrap),
    id(tools.unshare),
    id(tools.setpriv),
    id(tools.prlimit),
    `uid=${process.getuid?.() ?? '-'}`,
    release(),
    arch(),
  ].join('|');
}

async function version(): Promise<string | undefined> {
  const r = await runHost('bwrap', ['--version'], { env: {}, cwd: '/', timeoutMs: 10_000 });
  return r.stdout.trim() || undefined;
}

let memo: Promise<ProbeFacts> | undefined;

/** The probe's disk cache: `<user cache>/sandbox.json`, or none when that folder is not safe. */
export function probeCacheFile(): string | undefined {
  const dir = userCacheDir();
  return dir ? join(dir, 'sandbox.json') : undefined;
}

/**
 * A cached result is used only for what it cannot make worse: the same programs (key), and no
 * tier marked broken whose program is present (a planted "bwrap does not work" is re-tried).
 */
function fromCache(file: string, key: string, tools: Tools): ProbeFacts | undefined {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as ProbeFacts;
    if (c.key !== key || typeof c.works !== 'object' || !c.works) return undefined;
    if (tools.bwrap && c.works.bwrap !== true) return undefined;
    if (tools.unshare && c.works.unshare !== true) return undefined;
    return {
      key,
      tools,
      works: { bwrap: !!tools.bwrap, unshare: !!tools.unshare, none: true },
      reasons: {
        ...(tools.bwrap ? {} : { bwrap: 'bwrap (bubblewrap) is not installed in a trusted system folder' }),
        ...(tools.unshare ? {} : { unshare: 'unshare (util-linux) is not installed in a trusted system folder' }),
      },
      ...(typeof c.bwrapVersion === 'string' ? { bwrapVersion: c.bwrapVersion } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Probe facts, from memory, the user's disk cache, or trial runs (in that order). `stateDir` (the
 * project's) is no longer read or written: nothing in a project chooses the sandbox.
 */
export function probeFacts(_stateDir: string | undefined, trial: TierTrial): Promise<ProbeFacts> {
  memo ??= (async () => {
    const tools = findTools();
    const key = cacheKey(tools);
    const file = probeCacheFile();
    const cached = file ? fromCache(file, key, tools) : undefined;
    if (cached) return cached;
    const facts: ProbeFacts = { key, tools, works: { bwrap: false, unshare: false, none: true }, reasons: {} };
    if (process.platform !== 'linux') {
      facts.reasons.bwrap = facts.reasons.unshare = `${process.platform} has no Linux namespaces`;
    } else {
      if (!tools.bwrap) facts.reasons.bwrap = 'bwrap (bubblewrap) is not installed in a trusted system folder';
      else if (!seccompSupported()) facts.reasons.bwrap = `no seccomp filter for ${process.arch}`;
      else {
        facts.bwrapVersion = await version();
        const err = await trial('bwrap', tools);
        if (err) facts.reasons.bwrap = `bwrap does not work here: ${err}`;
        else facts.works.bwrap = true;
      }
      if (!tools.unshare) facts.reasons.unshare = 'unshare (util-linux) is not installed in a trusted system folder';
      else {
        const err = await trial('unshare', tools);
        if (err) facts.reasons.unshare = `user namespaces do not work here: ${err}`;
        else facts.works.unshare = true;
      }
    }
    if (file) {
      try {
        writeFileAtomic(file, JSON.stringify(facts, null, 2), 0o600);
      } catch {
        /* a read-only state dir only costs a re-probe next time */
      }
    }
    return facts;
  })();
  memo.catch(() => {
    memo = undefined;
  });
  return memo;
}

/** The tier to use: TOOLBOX_SANDBOX if set (must work here), else the strongest that works. */
export function chooseTier(facts: ProbeFacts, forced = process.env.TOOLBOX_SANDBOX): SandboxTier {
  if (forced) {
    if (!TIERS.includes(forced as SandboxTier)) {
      throw new ToolboxError('sandbox_unknown_tier', `TOOLBOX_SANDBOX=${forced} is not a sandbox tier`, {
        exitCode: ExitCode.registry,
        hint: `Use one of: ${TIERS.join(', ')} (or unset it to pick the strongest).`,
      });
    }
    const t = forced as SandboxTier;
    if (!facts.works[t]) {
      throw new ToolboxError(
        'sandbox_unavailable',
        `TOOLBOX_SANDBOX=${t} was asked for, but ${facts.reasons[t] ?? 'it does not work here'}`,
        {
          exitCode: ExitCode.registry,
          hint: `Unset TOOLBOX_SANDBOX, or pick a tier that works here: ${TIERS.filter((x) => facts.works[x]).join(', ')}.`,
        },
      );
    }
    return t;
  }
  return TIERS.find((t) => facts.works[t])!;
}

/** What the tier isolates, and the warnings to show on every run when that is less than the default policy. */
export function describeTier(tier: SandboxTier, facts: ProbeFacts): SandboxInfo {
  const root = process.getuid?.() === 0;
  const reasons = TIERS.slice(0, TIERS.indexOf(tier)).map(
    (t) => facts.reasons[t] ?? `${t} was not chosen (TOOLBOX_SANDBOX=${tier})`,
  );
  const warnings: string[] = [];
  if (tier === 'bwrap') {
    const uidDrop = root ? !!facts.tools.setpriv : false;
    if (root && !uidDrop)
      warnings.push(
        'setpriv not found: tools run as uid 0 without capabilities, and the process limit is not enforced (only the timeout stops a fork bomb)',
      );
    if (!facts.tools.prlimit) warnings.push('prlimit not found: no CPU, memory, process or file-size limits');
    return {
      tier,
      isolates: {
        filesystem: true,
        network: true,
        processes: true,
        syscalls: true,
        uidDrop,
        processLimit: !!facts.tools.prlimit && (uidDrop || !root),
        resourceLimits: !!facts.tools.prlimit,
      },
      warnings,
      reasons,
      ...(facts.bwrapVersion ? { version: facts.bwrapVersion } : {}),
    };
  }
  // What would give full isolation: the real cause (a masked /proc, no user namespaces, seccomp), and
  // "install bubblewrap" only when it is missing.
  const install = facts.works.bwrap
    ? `for full isolation: unset TOOLBOX_SANDBOX (bwrap works here)`
    : `for full isolation: ${sandboxFixText(probeCauses(facts))}`;
  if (tier === 'unshare') {
    warnings.push(
      `sandbox tier 'unshare': NO filesystem confinement: the tool can read and write every file ${root ? 'root' : 'your user'} can (including $HOME, SSH keys and project secrets); only the network, the process tree and resource limits are isolated; ${install}`,
    );
    if (root)
      warnings.push(
        'running as root: the process limit is not enforced on this tier (only the timeout stops a fork bomb)',
      );
    return {
      tier,
      isolates: {
        filesystem: false,
        network: true,
        processes: true,
        syscalls: false,
        uidDrop: false,
        processLimit: !root && !!facts.tools.prlimit,
        resourceLimits: !!facts.tools.prlimit,
      },
      warnings,
      reasons,
    };
  }
  warnings.push(
    `sandbox tier 'none': NO ISOLATION: the tool runs as ${root ? 'root' : 'your user'} with full access to files and network, and can read toolbox's own environment (API keys included) through /proc/<pid>/environ; only a scrubbed environment, a temporary working folder${facts.tools.prlimit ? ', resource limits (no process limit)' : ''} and a best-effort kill of its processes apply; ${install}`,
  );
  return {
    tier,
    isolates: {
      filesystem: false,
      network: false,
      processes: false,
      syscalls: false,
      uidDrop: false,
      processLimit: false,
      resourceLimits: !!facts.tools.prlimit,
    },
    warnings,
    reasons,
  };
}
