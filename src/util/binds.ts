// What of the project a sandboxed process may see. A cloned repository chooses every path a loader
// derives from it (the tool's module folder, the package.json and node_modules on Node's walk up, a
// venv, a program's folder, an MCP server's package) and can make any of them a link out of the
// project: a `node_modules` linked to ~/.ssh, a folder linked to /run holding a Unix socket. Every
// such path, whatever the loader, is checked here (by the sandbox, before it starts) the way a
// contract's `sandbox.paths` is (policy/grants.ts uses the same function, so it lives below both):
// it must resolve inside the project, not to the project folder itself, `.git`, an `.env*` file or
// another credential name (util/secret-names.ts),
// nor into `.toolbox/` beyond toolbox's own venvs and servers, and hold no Unix socket unless the
// network is open. A wider path needs the user's grant.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { within } from './paths.js';
import { secretIn } from './secret-names.js';

/** Folders every sandbox shows read-only (the system); nothing below them needs binding. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];

export function underSystemDir(p: string): boolean {
  return SYSTEM_DIRS.some((d) => p === d || p.startsWith(d + '/'));
}

/** Paths a sandboxed process gets from the project, checked on every tier before it starts. */
export interface ProjectBinds {
  /** The project root (the folder that holds the registry). */
  root: string;
  /** Paths derived from the project, as the loader named them (links are resolved here). */
  paths: string[];
  /** The tool's grants from the user's own grants.yaml (absolute paths), asked for only when needed. */
  granted?: () => string[];
  /** The tool, for messages. */
  tool?: string;
  /** Why a path is shown (by the path as given), for messages: "added to sys.path by …/x.pth". */
  reasons?: Record<string, string>;
}

/** Why a path may not be bound. */
export type BindCode =
  'sandbox_path_outside' | 'sandbox_path_socket' | 'sandbox_path_state' | 'sandbox_path_secret' | 'sandbox_path_root';

export interface BindProblem {
  code: BindCode;
  /** The path after resolving links. */
  resolved: string;
  /** What it is, for messages ("the project folder itself", ".git", …). */
  what?: string;
}

/** realpath, or undefined when the path does not exist. */
export const realOrUndefined = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

// A folder's sockets are looked up once per change of the folder (creating a socket changes its mtime).
const socketMemo = new Map<string, { mtimeMs: number; ctimeMs: number; socket: boolean }>();

/** Whether `p` is a Unix socket, or a folder with one directly inside it (both reachable once bound). */
export function hasSocket(p: string): boolean {
  try {
    const st = statSync(p);
    if (st.isSocket()) return true;
    if (!st.isDirectory()) return false;
    const hit = socketMemo.get(p);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.ctimeMs === st.ctimeMs) return hit.socket;
    const socket = readdirSync(p, { withFileTypes: true }).some((d) => d.isSocket());
    if (socketMemo.size > 1000) socketMemo.clear();
    socketMemo.set(p, { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, socket });
    return socket;
  } catch {
    return false;
  }
}

/**
 * Why the project path `p` (absolute) may not be bound, or undefined when it may. `state`: what of
 * `.toolbox/` may be bound (sandbox.paths: nothing; loaders: toolbox's own venvs and servers).
 * A grant (`granted`, absolute paths) allows what lies outside the project, the project folder
 * itself and its secrets, never `.toolbox/`, and never a socket with the network closed.
 */
export function bindProblem(
  realRoot: string,
  p: string,
  opts: { network: boolean; granted: () => string[]; state: 'none' | 'toolbox-own' },
): BindProblem | undefined {
  const r = realOrUndefined(p) ?? p;
  // Already visible read-only in every sandbox: binding it adds nothing.
  if (underSystemDir(r)) return undefined;
  let grantedMemo: boolean | undefined;
  const isGranted = () => (grantedMemo ??= opts.granted().some((g) => within(realOrUndefined(g) ?? g, r)));
  const rel = relative(realRoot, r);
  if (!within(realRoot, r)) {
    if (!isGranted()) return { code: 'sandbox_path_outside', resolved: r };
  } else if (rel === '') {
    if (!isGranted()) return { code: 'sandbox_path_root', resolved: r, what: 'the project folder itself' };
  } else if (within(join(realRoot, '.toolbox'), r)) {
    const own = /^\.toolbox[\\/](envs|servers)[\\/][^\\/]+/.test(rel);
    if (opts.state === 'none' || !own)
      return { code: 'sandbox_path_state', resolved: r, what: "toolbox's own state folder (.toolbox/)" };
  } else {
    const secret = secretIn(rel);
    if (secret && !isGranted()) return { code: 'sandbox_path_secret', resolved: r, what: secret };
  }
  if (!opts.network && hasSocket(r)) return { code: 'sandbox_path_socket', resolved: r };
  return undefined;
}

/**
 * The project paths of a sandboxed process, checked (see the top of this file); throws
 * `sandbox_path_denied` (exit 3) naming the path, what it resolves to and what to do.
 */
export function checkProjectBinds(b: ProjectBinds, network: boolean): string[] {
  const realRoot = realOrUndefined(b.root) ?? b.root;
  const granted = b.granted ?? (() => []);
  const out: string[] = [];
  for (const p of b.paths) {
    if (!isAbsolute(p)) continue;
    const bad = bindProblem(realRoot, p, { network, granted, state: 'toolbox-own' });
    if (!bad) {
      out.push(p);
      continue;
    }
    const shown = within(b.root, p) ? relative(b.root, p) || '.' : p;
    const via = bad.resolved !== p ? ` (it resolves to ${bad.resolved})` : '';
    const reason = b.reasons?.[p] ? ` (${b.reasons[p]})` : '';
    const who = b.tool ? `tool '${b.tool}'` : 'the MCP server';
    const why: Record<BindCode, string> = {
      sandbox_path_outside: 'which is outside the project',
      sandbox_path_root: 'which is the project folder itself (.env, .git, every other tool)',
      sandbox_path_secret: `which is ${bad.what ?? 'a secret'} of the project`,
      sandbox_path_state: "which is toolbox's own state (.toolbox/)",
      sandbox_path_socket: 'which is or holds a Unix socket, a service outside the sandbox',
    };
    throw new ToolboxError(
      'sandbox_path_denied',
      `${who} would see ${shown}${via}${reason}, ${why[bad.code]}: refused`,
      {
        exitCode: ExitCode.registry,
        hint:
          bad.code === 'sandbox_path_socket'
            ? 'Move the socket out of the folder, or open the network (`sandbox: { network: true }`) if the tool must talk to that service.'
            : `A tool sees only its own files, inside the project. Replace the link with the real files (e.g. \`npm install\` for node_modules)${bad.code === 'sandbox_path_state' ? '' : `, or grant ${bad.resolved} to ${b.tool ? `'${b.tool}'` : 'the tool'} in your own ~/.config/toolbox/grants.yaml (docs/sandbox.md)`}.`,
        details: { reason: bad.code, path: p, resolved: bad.resolved },
      },
    );
  }
  return out;
}
