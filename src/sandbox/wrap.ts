// Building the wrapper command line for each tier: bwrap (+ setpriv + prlimit), unshare (+ prlimit),
// or prlimit alone. Pure apart from reading the file system to decide what to bind.
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { underSystemDir } from '../util/binds.js';
import { maskArgs, secretMasks } from './mask.js';
import type { ResolvedLimits, SandboxTier } from './types.js';

/** Host paths a tier needs to know about, found once by the probe. */
export interface Tools {
  bwrap?: string;
  unshare?: string;
  prlimit?: string;
  setpriv?: string;
  /** iproute2's ip: brings lo up in the unshare tier's new network namespace (bwrap does it itself). */
  ip?: string;
}

export interface WrapInput {
  tier: SandboxTier;
  tools: Tools;
  command: string;
  args: string[];
  readOnlyPaths: string[];
  network: boolean;
  /** The egress proxy's socket on the host, bound into the sandbox at SANDBOX_SOCKET (bwrap). */
  egressSocket?: string;
  limits: ResolvedLimits;
  workDir: string;
  /** Drop to this uid/gid inside bwrap (as root), so RLIMIT_NPROC applies. */
  uid?: number;
}

export interface Wrapped {
  /** The program to start: bwrap, setpriv, unshare, prlimit or /bin/sh (always a trusted system program). */
  file: string;
  args: string[];
  /** Whether fd 3 carries the seccomp program (the result channel then uses fd 4). */
  seccompFd: boolean;
  /** Warnings about this call (e.g. a bound path that prevents the uid drop). */
  warnings: string[];
  uidDropped: boolean;
}

const ETC_ALWAYS = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/alternatives',
  '/etc/localtime',
  '/etc/mime.types',
];
const ETC_NETWORK = ['/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/gai.conf', '/etc/host.conf'];
const MAX_EXPAND = 256;
/** Where the tool's egress proxy socket appears inside a bwrap sandbox. */
export const SANDBOX_SOCKET = '/run/toolbox/egress.sock';
/** `sh -c 'exec "$@"' sh CMD ARGS…`: starts CMD with exactly ARGS. */
const SH_EXEC = ['/bin/sh', '-c', 'exec "$@"', 'sh'];

/**
 * Capacity of each writable tmpfs in the bwrap tier (work dir, /tmp, /dev/shm): 64 MiB, or the file size limit
 * if larger.
 */
export function workDirBytes(l: ResolvedLimits): number {
  return Math.max(l.fileSizeBytes, 64 * 1024 * 1024);
}

/** prlimit's flags: the soft CPU limit sends SIGXCPU, the hard one a second later SIGKILL. */
export function prlimitArgs(l: ResolvedLimits, withNproc: boolean): string[] {
  const a = [
    '--core=0',
    `--cpu=${l.cpuSeconds}:${l.cpuSeconds + 1}`,
    `--data=${l.memoryBytes}`,
    `--fsize=${l.fileSizeBytes}`,
    `--nofile=${l.openFiles}`,
  ];
  if (withNproc) a.push(`--nproc=${l.processes}`);
  return a;
}

function othersCanRead(p: string, isDir: boolean): boolean {
  const mode = statSync(p).mode;
  return isDir ? (mode & 0o005) === 0o005 : (mode & 0o004) === 0o004;
}

/** Directories (not yet visible in the sandbox) to create before binding at `p`, top-down. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = dirname(p); d !== '/' && d !== '/tmp'; d = dirname(d)) out.unshift(d);
  return out;
}

/** bwrap mount arguments for the read-only paths; throws rather than give up the uid drop. */
function bindArgs(paths: string[], uidDrop: boolean): { args: string[]; uidDrop: boolean } {
  const real: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const r = realpathSync(p);
    if (r === '/') {
      throw new ToolboxError('sandbox_path_invalid', `Refusing to bind '/' into the sandbox`, {
        exitCode: ExitCode.registry,
        hint: 'Bind only the folders the tool needs (sandbox.paths).',
      });
    }
    for (const x of r === p ? [r] : [r, p]) if (!underSystemDir(x)) real.push(x);
  }
  real.sort((a, b) => a.length - b.length);
  const binds: string[] = [];
  for (const p of real) if (!binds.some((b) => p === b || p.startsWith(b + '/'))) binds.push(p);
  const dirs = new Set<string>();
  const mounts: string[] = [];
  const shown: [string, string][] = [];
  const mkdirs = (p: string) => {
    for (const d of ancestors(p))
      if (!dirs.has(d)) {
        dirs.add(d);
        mounts.push('--perms', '0755', '--dir', d);
      }
  };
  for (const p of binds) {
    const src = realpathSync(p);
    const isDir = statSync(src).isDirectory();
    shown.push([src, p]);
    mkdirs(p);
    if (uidDrop && !othersCanRead(src, isDir)) {
      // The unprivileged uid cannot enter a 0700 folder (mkdtemp makes them). Rebuild its first
      // level instead: a 0755 directory with each entry bound inside it.
      const entries = isDir ? readdirSync(src) : [];
      if (isDir && entries.length <= MAX_EXPAND) {
        dirs.add(p);
        mounts.push('--perms', '0755', '--dir', p);
        for (const e of entries) {
          const s = join(src, e);
          if (lstatSync(s).isSymbolicLink()) mounts.push('--symlink', readlinkSync(s), join(p, e));
          else mounts.push('--ro-bind', s, join(p, e));
        }
        continue;
      }
      // Keeping uid 0 for it would silently lift the process limit and let the tool read it as
      // root: refuse instead.
      throw new ToolboxError(
        'sandbox_path_unreadable',
        `'${p}' is readable only by its owner (${isDir ? `a folder with more than ${MAX_EXPAND} entries` : 'a file'}), so the tool would have to keep uid 0 to see it; refused`,
        {
          exitCode: ExitCode.registry,
          hint: `Make it readable to others (chmod o+rX '${p}') if the tool may see it, or stop binding it (sandbox.paths).`,
          details: { path: p },
        },
      );
    }
    mounts.push('--ro-bind', src, p);
  }
  // Credentials at any depth inside what is shown (`apps/web/.env.local`) are covered after the binds.
  mounts.push(...maskArgs(secretMasks(shown, real)));
  return { args: mounts, uidDrop };
}

function systemArgs(): string[] {
  const a = ['--ro-bind', '/usr', '/usr'];
  for (const d of ['/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32']) {
    let st;
    try {
      st = lstatSync(d);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) a.push('--symlink', readlinkSync(d), d);
    else if (st.isDirectory()) a.push('--ro-bind', d, d);
  }
  return a;
}

/** The wrapper command line for one call on the given tier. */
export function wrapCommand(w: WrapInput): Wrapped {
  const warnings: string[] = [];
  const limited = [
    ...(w.tools.prlimit ? [w.tools.prlimit, ...prlimitArgs(w.limits, w.tier !== 'none'), '--'] : []),
    w.command,
    ...w.args,
  ];
  // Without bwrap's --die-with-parent, setpriv's parent-death signal makes the wrapper die with us.
  const deathSig = w.tools.setpriv ? [w.tools.setpriv, '--pdeathsig', 'SIGKILL', '--'] : [];
  if (w.tier === 'none') {
    if (!w.tools.prlimit) warnings.push('prlimit not found: no resource limits are applied');
    // Even here the process toolbox starts is a system program (host-process.ts): with neither
    // setpriv nor prlimit, a shell execs the tool.
    const [file, ...args] = deathSig.length || w.tools.prlimit ? [...deathSig, ...limited] : [...SH_EXEC, ...limited];
    return { file: file!, args, seccompFd: false, warnings, uidDropped: false };
  }
  if (w.tier === 'unshare') {
    // sh as pid 1 of the namespace, so the tool is not an init process (init ignores default-action
    // signals such as SIGXCPU / SIGXFSZ); its $? is 128+N for a tool killed by signal N.
    const args = [
      ...deathSig.slice(1),
      w.tools.unshare!,
      '--user',
      '--map-root-user',
      '--pid',
      '--fork',
      '--kill-child',
      '--mount',
      '--mount-proc',
      '--ipc',
      '--uts',
      // Always a network namespace of its own: with the network open, lo is brought up for the
      // bridge to the egress proxy (a Unix socket, reachable through the file system).
      '--net',
      '--',
      ...limited.slice(0, limited.length - w.args.length - 1),
      '/bin/sh',
      '-c',
      `${w.network && w.tools.ip ? `'${w.tools.ip}' link set lo up || exit 126; ` : ''}unset TOOLBOX_SANDBOX_ID; "$@"; exit $?`,
      'sh',
      w.command,
      ...w.args,
    ];
    return { file: deathSig[0] ?? args.shift()!, args, seccompFd: false, warnings, uidDropped: false };
  }
  const root = process.getuid?.() === 0;
  const { args: binds, uidDrop } = bindArgs(w.readOnlyPaths, root && w.uid !== undefined && !!w.tools.setpriv);
  const a = [
    '--die-with-parent',
    '--new-session',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-cgroup-try',
  ];
  // Always a network namespace of its own (bwrap brings lo up in it): an open network means the
  // egress proxy's socket, bound below, never the host's interfaces or abstract sockets.
  a.push('--unshare-net');
  // As root we stay out of a user namespace so setpriv can switch to the per-call uid in the host's
  // namespace (where RLIMIT_NPROC counts). bwrap then runs privileged: keep only what setpriv needs.
  if (!root) a.push('--unshare-user', '--disable-userns');
  a.push('--cap-drop', 'ALL');
  if (uidDrop) a.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
  a.push(...systemArgs());
  // Parents bwrap creates itself are 0700 (root-only): make /etc traversable after the uid drop.
  a.push('--perms', '0755', '--dir', '/etc');
  for (const e of [...ETC_ALWAYS, ...(w.network ? ETC_NETWORK : [])]) a.push('--ro-bind-try', e, e);
  // /proc read-only: bwrap leaves /proc/sys writable, and uid 0 (even without capabilities) could
  // change the host's sysctls through it.
  a.push('--proc', '/proc', '--remount-ro', '/proc', '--dev', '/dev');
  // Every writable place is a size-capped tmpfs, so the tool cannot fill the host's disk or RAM.
  const size = String(workDirBytes(w.limits));
  a.push(
    '--perms',
    '1777',
    '--size',
    size,
    '--tmpfs',
    '/tmp',
    '--perms',
    '1777',
    '--size',
    size,
    '--tmpfs',
    '/dev/shm',
  );
  a.push(...binds);
  if (w.egressSocket) {
    for (const d of ancestors(SANDBOX_SOCKET)) a.push('--perms', '0755', '--dir', d);
    a.push('--ro-bind', w.egressSocket, SANDBOX_SOCKET);
  }
  for (const d of ancestors(w.workDir)) a.push('--perms', '0755', '--dir', d);
  a.push(
    '--perms',
    '0777',
    '--size',
    size,
    '--tmpfs',
    w.workDir,
    '--chdir',
    w.workDir,
    '--unsetenv',
    'TOOLBOX_SANDBOX_ID',
    '--seccomp',
    '3',
    '--',
  );
  if (uidDrop) {
    a.push(
      w.tools.setpriv!,
      `--reuid=${w.uid}`,
      `--regid=${w.uid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
    );
  }
  a.push(...limited);
  return { file: w.tools.bwrap!, args: a, seccompFd: true, warnings, uidDropped: uidDrop };
}
