// The one module that starts processes outside the sandbox (the linter keeps node:child_process
// here: eslint.config.js). What it starts is always a trusted program with arguments toolbox chose:
//   - a program by bare name, taken only from fixed root-owned system folders that nobody else can
//     write (never $PATH, never the project: a cloned repository, or another user, must not be able
//     to make toolbox run their file as "bwrap", "git" or "npm");
//   - toolbox's own Node binary (SELF), for toolbox's own scripts (the daemon, the verifier);
//   - a Python interpreter the user installed (system, pyenv, asdf, uv), checked by trustInterpreter(),
//     optionally acting as a venv toolbox itself created (argv0), always in isolated mode (-I) so that
//     nothing in the working folder or PYTHON* variables is imported.
// Callers cannot name a project file as the program: anything that must run one asks the sandbox.
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, sep } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { isExecutableFile } from './which.js';

/** System folders searched for programs started by name, in order. */
export const TRUSTED_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/local/sbin'];

/** The PATH host processes get: the trusted system folders only (a program they start by name is one of those). */
export const HOST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const real = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

/** Every folder from `p` up to `/` (after symlinks) satisfies `ok`, and so does `p`. */
function chainOk(p: string, ok: (st: { uid: number; mode: number }) => boolean): boolean {
  let q = real(p);
  if (!q) return false;
  for (;;) {
    try {
      if (!ok(statSync(q))) return false;
    } catch {
      return false;
    }
    if (q === '/') return true;
    q = dirname(q);
  }
}

/** Root-owned and writable by nobody else: the file and every folder above it (after symlinks). */
export function rootOwnedChain(file: string): boolean {
  return chainOk(file, (st) => st.uid === 0 && (st.mode & 0o022) === 0);
}

const trustedCache = new Map<string, string | undefined>();

/** Absolute path of a program from a trusted system folder, or undefined. `name` is a bare name. */
export function trustedBinary(name: string): string | undefined {
  if (!name || name.includes('/') || name === '.' || name === '..') return undefined;
  if (trustedCache.has(name)) {
    const hit = trustedCache.get(name);
    // Re-check a hit (cheap): a program removed or made writable since is no longer trusted.
    if (hit && isExecutableFile(hit) && rootOwnedChain(hit)) return hit;
  }
  let found: string | undefined;
  for (const d of TRUSTED_DIRS) {
    const f = `${d}/${name}`;
    if (isExecutableFile(f) && rootOwnedChain(f)) {
      found = f;
      break;
    }
  }
  trustedCache.set(name, found);
  return found;
}

/** True when the file starts with the ELF magic (a real binary, not a script that names its own interpreter). */
export function isElf(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const b = Buffer.alloc(4);
    return readSync(fd, b, 0, 4, 0) === 4 && b.toString('latin1') === '\x7fELF';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** toolbox's own Node binary (process.execPath), for toolbox's own scripts. */
export const SELF: unique symbol = Symbol('toolbox:self');

const BRAND: unique symbol = Symbol('toolbox:trusted-interpreter');

/** A Python interpreter binary toolbox may start on the host: only trustInterpreter() makes one. */
export interface TrustedInterpreter {
  readonly [BRAND]: true;
  /** The real binary (symlinks resolved). */
  readonly path: string;
  /** When set, the interpreter runs as this venv's python (what a venv's bin/python symlink does). */
  readonly argv0?: string;
}

/**
 * Where the user's own interpreter installs live (pyenv, asdf, mise, uv, conda), from the user's environment:
 * folders outside any project that only the user (or root) can write.
 */
export function userInterpreterRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  const abs = (v: string | undefined) => (v && isAbsolute(v) ? v : undefined);
  const data = abs(env.XDG_DATA_HOME) ?? join(home, '.local', 'share');
  return [
    join(abs(env.PYENV_ROOT) ?? join(home, '.pyenv'), 'versions'),
    join(abs(env.ASDF_DATA_DIR) ?? join(home, '.asdf'), 'installs'),
    join(abs(env.MISE_DATA_DIR) ?? join(data, 'mise'), 'installs'),
    abs(env.UV_PYTHON_INSTALL_DIR) ?? join(data, 'uv', 'python'),
    // conda's base installs (not $CONDA_PREFIX: an activated env can be a folder of the project).
    ...['miniconda3', 'anaconda3', 'miniforge3', 'mambaforge'].map((d) => join(home, d)),
  ];
}

/**
 * A Python (or other interpreter) binary toolbox may run on the host, or undefined. Accepted: a real
 * ELF binary (no script: a script picks its own interpreter) that lives directly in one of the
 * trusted system folders with a root-owned chain that nobody else can write, or under one of the
 * user's interpreter installs
 * (userInterpreterRoots) with every folder owned by the user or root and not writable by others.
 * A file of a project (a venv's `bin/python` that is not a symlink to one of those, a script named
 * python3) is never accepted, whoever owns it.
 */
export function trustInterpreter(path: string, env: NodeJS.ProcessEnv = process.env): TrustedInterpreter | undefined {
  if (!isAbsolute(path)) return undefined;
  const r = real(path);
  if (!r || !isElf(r) || !isExecutableFile(r)) return undefined;
  const me = process.getuid?.();
  // A system interpreter sits directly in one of the trusted folders (a copy anywhere else under /usr,
  // say a project cloned into /usr/local/src as root, is root-owned too but no system program).
  const systemDirs = TRUSTED_DIRS.map(real).filter((d): d is string => !!d);
  const ok = r.startsWith('/usr/')
    ? systemDirs.includes(dirname(r)) && rootOwnedChain(r)
    : userInterpreterRoots(env)
        .map(real)
        .some((root) => root !== undefined && r.startsWith(root + sep)) &&
      chainOk(r, (st) => (st.uid === 0 || st.uid === me) && (st.mode & 0o022) === 0);
  return ok ? ({ [BRAND]: true, path: r } as TrustedInterpreter) : undefined;
}

/**
 * The same interpreter acting as the Python of `venvDir` (a venv toolbox itself created from it):
 * Python finds its venv from argv[0], exactly as when the venv's bin/python symlink is executed.
 */
export function asVenv(interp: TrustedInterpreter, venvDir: string): TrustedInterpreter {
  return { [BRAND]: true, path: interp.path, argv0: join(venvDir, 'bin', 'python') } as TrustedInterpreter;
}

/** What may be started: a name from the trusted system folders, toolbox's own Node, or a trusted interpreter. */
export type HostProgram = string | typeof SELF | TrustedInterpreter;

/** Options of a host process. There is no `shell` option: arguments are never parsed by a shell. */
export interface HostOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdio?: StdioOptions;
  detached?: boolean;
  /**
   * PATH of the process: `host` (default) the trusted system folders only; `absolute` the caller's
   * PATH without relative entries (for programs that look up the user's own tools); `exact` as given
   * (the sandbox: that environment is the tool's, and its wrappers look nothing up).
   */
  path?: 'host' | 'absolute' | 'exact';
}

function resolveProgram(program: HostProgram): { file: string; argv0?: string; python: boolean } {
  if (program === SELF) return { file: process.execPath, python: false };
  if (typeof program === 'object' && program[BRAND]) return { file: program.path, argv0: program.argv0, python: true };
  if (typeof program === 'string') {
    const file = trustedBinary(program);
    if (file) return { file, python: false };
  }
  throw new ToolboxError(
    'host_program_untrusted',
    `toolbox starts only trusted system programs outside the sandbox; '${String(program)}' is not one (looked in ${TRUSTED_DIRS.join(', ')}: root-owned, not writable by others)`,
    { exitCode: ExitCode.missingDeps, hint: `Install ${String(program)} from the system's packages.` },
  );
}

function hostEnv(opts: HostOptions): NodeJS.ProcessEnv {
  const env = { ...opts.env };
  const how = opts.path ?? 'host';
  if (how === 'host') env.PATH = HOST_PATH;
  else if (how === 'absolute')
    env.PATH = (opts.env.PATH ?? HOST_PATH).split(delimiter).filter(isAbsolute).join(delimiter) || HOST_PATH;
  return env;
}

let cp: typeof import('node:child_process') | undefined;
// Loaded on first use: node:child_process costs ~3 ms, and a warm `select` never starts anything.
const childProcess = () =>
  (cp ??= createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process'));

/**
 * Start a trusted program on the host (see the file comment). Throws `host_program_untrusted`
 * (exit 6) when a program name is not found in a trusted folder.
 */
export function spawnHost(program: HostProgram, args: string[], opts: HostOptions): ChildProcess {
  const p = resolveProgram(program);
  // -I (isolated): no script folder or current folder on sys.path, no PYTHON* variables, no user site.
  const argv = p.python ? ['-I', ...args] : args;
  return childProcess().spawn(p.file, argv, {
    cwd: opts.cwd,
    env: hostEnv(opts),
    stdio: opts.stdio ?? ['pipe', 'pipe', 'pipe'],
    detached: opts.detached ?? false,
    ...(p.argv0 ? { argv0: p.argv0 } : {}),
    shell: false,
    windowsHide: true,
  });
}

/** The outcome of a host process run to completion. */
export interface HostResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not run or finish (not found, killed by a signal, timed out). */
  error?: string;
  /** stdout as bytes (when `binary` was asked for). */
  stdoutBytes?: Buffer;
}

/** Run a trusted program to completion; never throws (an untrusted or missing program is an `error`). */
export function runHost(
  program: HostProgram,
  args: string[],
  opts: HostOptions & {
    input?: string | Buffer;
    timeoutMs?: number;
    signal?: AbortSignal;
    binary?: boolean;
    /** Each chunk of output as it comes (stdout and stderr), for progress; the result still holds all of it. */
    onOutput?: (text: string) => void;
  },
): Promise<HostResult> {
  return new Promise((res) => {
    const out: Buffer[] = [];
    let stderr = '';
    let settled = false;
    let timedOut = false;
    const done = (r: Omit<HostResult, 'stdout'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      const bytes = Buffer.concat(out);
      res({ ...r, stdout: bytes.toString('utf8'), ...(opts.binary ? { stdoutBytes: bytes } : {}) });
    };
    let child: ChildProcess;
    try {
      child = spawnHost(program, args, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      settled = true;
      res({ code: null, stdout: '', stderr: '', error: (e as Error).message });
      return;
    }
    const kill = () => {
      try {
        child.kill('SIGKILL');
      } catch {
        /* gone */
      }
    };
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          kill();
        }, opts.timeoutMs)
      : undefined;
    const onAbort = () => kill();
    if (opts.signal?.aborted) kill();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    const seen = opts.onOutput;
    child.stdout!.on('data', (d: Buffer) => {
      out.push(d);
      seen?.(d.toString('utf8'));
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      seen?.(d);
    });
    child.on('error', (e) => done({ code: null, stderr, error: e.message }));
    child.on('close', (code, sig) =>
      done({
        code,
        stderr,
        ...(timedOut ? { error: `timed out after ${opts.timeoutMs} ms` } : sig ? { error: `killed by ${sig}` } : {}),
      }),
    );
    child.stdin!.on('error', () => {
      /* the program may not read its input */
    });
    child.stdin!.end(opts.input ?? '');
  });
}
