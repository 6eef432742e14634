// Why the strong tiers do not work here, in words an operator can act on: inside a container the
// cause is almost never a missing bubblewrap (the image has it) but what the engine took away: an
// unmasked /proc (bwrap mounts its own, which the kernel refuses while parts of the container's
// /proc are covered), user namespaces (seccomp's default profile, a sysctl, AppArmor). Read from
// the kernel's own files about this process; nothing here starts a process or reads a project file.
import { existsSync, readFileSync } from 'node:fs';

/** What the kernel says about this process (read once per diagnosis; tests pass their own). */
export interface SystemFacts {
  /** Running in a container (Docker's /.dockerenv, Podman's /run/.containerenv, `container=` env). */
  container: boolean;
  /** Mount points below /proc (a container engine masks /proc/kcore, /proc/keys, … with over-mounts). */
  procOverMounts: string[];
  /** `Seccomp:` of /proc/self/status: 2 is a filter (an engine's default profile). */
  seccomp?: number;
  /** user.max_user_namespaces (0: none may be made). */
  maxUserNamespaces?: number;
  /** kernel.unprivileged_userns_clone (Debian's switch; 0: only root may make one). */
  unprivilegedUsernsClone?: number;
  /** kernel.apparmor_restrict_unprivileged_userns (Ubuntu 23.10+; 1: only profiles that allow it). */
  apparmorRestrictsUserns?: number;
}

/** One cause, with the option of the engine (or the host) that removes it. */
export interface SandboxCause {
  code: 'bwrap_missing' | 'proc_masked' | 'seccomp_filter' | 'no_user_namespaces' | 'apparmor_userns';
  message: string;
  fix: string;
}

const num = (file: string): number | undefined => {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
};

/** Mount points strictly below /proc, from mountinfo's fifth field (octal escapes for spaces). */
export function procOverMounts(mountinfo: string): string[] {
  const out: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const point = line.split(' ')[4];
    // binfmt_misc sits on an empty folder of /proc: the kernel lets a new proc be mounted beside it.
    if (point?.startsWith('/proc/') && point !== '/proc/sys/fs/binfmt_misc') out.push(point.replace(/\\040/g, ' '));
  }
  return out;
}

export function systemFacts(env: NodeJS.ProcessEnv = process.env): SystemFacts {
  let mountinfo = '';
  let status = '';
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    /* not Linux, or no /proc: nothing to say */
  }
  const seccomp = /^Seccomp:\s*(\d+)/m.exec(status)?.[1];
  return {
    container: existsSync('/.dockerenv') || existsSync('/run/.containerenv') || env.container !== undefined,
    procOverMounts: procOverMounts(mountinfo),
    ...(seccomp !== undefined ? { seccomp: Number(seccomp) } : {}),
    ...opt('maxUserNamespaces', num('/proc/sys/user/max_user_namespaces')),
    ...opt('unprivilegedUsernsClone', num('/proc/sys/kernel/unprivileged_userns_clone')),
    ...opt('apparmorRestrictsUserns', num('/proc/sys/kernel/apparmor_restrict_unprivileged_userns')),
  };
}

const opt = <K extends string>(k: K, v: number | undefined) =>
  v === undefined ? {} : ({ [k]: v } as Record<K, number>);

const K8S = 'Kubernetes: securityContext.procMount: Unmasked (needs hostUsers: false)';

/**
 * The causes of the failures the probe saw (`bwrap`/`unshare`: the trial's error, undefined when
 * that tier works), strongest evidence first. Empty when both tiers work or nothing is known.
 */
export function diagnoseSandbox(
  probe: { bwrapInstalled: boolean; bwrap?: string; unshare?: string },
  sys: SystemFacts,
): SandboxCause[] {
  const causes: SandboxCause[] = [];
  if (!probe.bwrapInstalled)
    causes.push({
      code: 'bwrap_missing',
      message: 'bubblewrap is not installed',
      fix: 'apt-get install bubblewrap (dnf install bubblewrap; apk add bubblewrap)',
    });
  const usernsFails = probe.unshare !== undefined || /user namespace|uid map|setting up uid/i.test(probe.bwrap ?? '');
  if (usernsFails) {
    if (sys.maxUserNamespaces === 0)
      causes.push({
        code: 'no_user_namespaces',
        message: 'user namespaces are switched off (user.max_user_namespaces = 0)',
        fix: 'on the host: sysctl -w user.max_user_namespaces=15000',
      });
    if (sys.unprivilegedUsernsClone === 0)
      causes.push({
        code: 'no_user_namespaces',
        message: 'unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0)',
        fix: 'on the host: sysctl -w kernel.unprivileged_userns_clone=1',
      });
    if (sys.apparmorRestrictsUserns === 1)
      causes.push({
        code: 'apparmor_userns',
        message: 'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)',
        fix: sys.container
          ? 'run the container with --security-opt apparmor=unconfined (compose: security_opt)'
          : 'an AppArmor profile that allows userns for bwrap, or sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
      });
    if (sys.seccomp === 2 && causes.every((c) => c.code === 'bwrap_missing'))
      causes.push({
        code: 'seccomp_filter',
        message: `a seccomp filter on this ${sys.container ? 'container' : 'process'} refuses the system calls that make namespaces`,
        fix: sys.container
          ? 'run the container with --security-opt seccomp=unconfined (compose: security_opt; Kubernetes: seccompProfile type Unconfined, or a profile that allows unshare, clone, mount and pivot_root)'
          : 'start toolbox outside the seccomp filter (systemd: SystemCallFilter=, RestrictNamespaces=)',
      });
  }
  // bwrap mounts a proc of its own; the kernel refuses while the container's /proc is partly covered.
  // (Said even when user namespaces fail too: Docker's defaults take both away, and both must be given.)
  if (probe.bwrapInstalled && probe.bwrap !== undefined && sys.procOverMounts.length > 0)
    causes.push({
      code: 'proc_masked',
      message: `/proc is masked (${sys.procOverMounts.slice(0, 3).join(', ')}${sys.procOverMounts.length > 3 ? ', …' : ''} covered), so bwrap cannot mount a /proc of its own`,
      fix: `run the container with --security-opt systempaths=unconfined (compose: security_opt; ${K8S})`,
    });
  return causes;
}

/** One line: what to do about a weak tier (the install hint only when bubblewrap is really missing). */
export function sandboxFixText(causes: SandboxCause[]): string {
  if (!causes.length) return 'install bubblewrap (apt-get install bubblewrap) or allow unprivileged user namespaces';
  return causes.map((c) => `${c.message}: ${c.fix}`).join('; ');
}

/** The causes behind a probe's findings (`reasons`: why each tier failed, absent when it works). */
export function probeCauses(
  f: { tools: { bwrap?: string }; works: Record<string, boolean>; reasons: Partial<Record<string, string>> },
  sys: SystemFacts = systemFacts(),
): SandboxCause[] {
  return diagnoseSandbox(
    {
      bwrapInstalled: !!f.tools.bwrap,
      ...(f.works.bwrap ? {} : { bwrap: f.reasons.bwrap ?? '' }),
      ...(f.works.unshare ? {} : { unshare: f.reasons.unshare ?? '' }),
    },
    sys,
  );
}
