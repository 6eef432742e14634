import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { readRegularHead } from '../util/project-file.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { findInProject, findOnPath } from '../util/which.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { pythonLayout, venvPthPaths } from '../sandbox/interpreter.js';
import { within } from '../util/paths.js';

/** One host folder bound read-only for a server, and why (shown by --verbose). */
export interface ServerBind {
  path: string;
  why: string;
  /**
   * project: found in the project or named by the contract (checked by the sandbox: inside the
   * project, no socket with the network closed); host: toolbox's own Node, a program on the user's
   * PATH, an interpreter's install.
   */
  from?: 'project' | 'host';
}

/** A stdio MCP server command, resolved to what the sandbox must run and see. */
export interface ResolvedServerCommand {
  command: string;
  args: string[];
  /** Host paths the server needs read-only that toolbox chose (its Node, a program on PATH, an interpreter). */
  readOnlyPaths: string[];
  /** Paths from the project (its package, script, node_modules, venv): checked by the sandbox before it starts. */
  projectPaths: string[];
  /** The same paths with the reason for each. */
  binds: ServerBind[];
  /** Variables the interpreter needs to start in the sandbox (the contract's own `env` wins). */
  env: Record<string, string>;
}

// Paths every sandbox tier already shows; binding them again is noise.
const SYSTEM = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'];
const isSystem = (p: string) => SYSTEM.some((s) => p.startsWith(s));
const NODE = /^(node|nodejs)$/;
const PYTHON = /^python(\d+(\.\d+)?)?$/;

function shebang(file: string): string | undefined {
  // The command may be the project's: a FIFO there must not block, a device not stream.
  const head = readRegularHead(file, 256)?.toString('utf8');
  return head?.startsWith('#!') ? head.slice(2).split('\n')[0]!.trim() : undefined;
}

/**
 * The folder to bind for a file: the outermost node_modules above it (so hoisted dependencies resolve),
 * else its folder.
 */
function packageRoot(real: string): string {
  const i = real.indexOf(`${sep}node_modules${sep}`);
  return i >= 0 ? real.slice(0, i + `${sep}node_modules`.length) : dirname(real);
}

/** The install prefix of an interpreter binary (/opt/node/bin/node -> /opt/node). */
function prefixOf(bin: string): string {
  const d = dirname(bin);
  return d.endsWith(`${sep}bin`) ? dirname(d) : d;
}

/** The venv a program lives in (a `bin/` folder beside `pyvenv.cfg`), judged by the path as named, not its target. */
function venvOf(file: string): string | undefined {
  const prefix = prefixOf(file);
  return existsSync(join(prefix, 'pyvenv.cfg')) ? prefix : undefined;
}

/**
 * The installation a venv's Python comes from: the prefix of the real binary `bin/python` links
 * to, and only when that is an ELF executable (pythonLayout). pyvenv.cfg is not read: it is a
 * project file, and its `home` could name any host folder.
 */
function venvBase(venv: string): string | undefined {
  return pythonLayout(join(venv, 'bin', 'python'))?.base;
}

/**
 * The venv Python a command is: the command itself when it is a venv's `bin/python*`, or the first
 * link on its way to the real binary that is (a project link `./py -> .venv/bin/python`). Links are
 * followed one at a time, as named, so what runs in the sandbox is the venv's own path: Python finds
 * pyvenv.cfg beside it and `sys.prefix` is the venv (run as its real binary, `sys.prefix` is the
 * base install and the venv's packages are missing).
 */
function venvPythonOf(found: string): { python: string; venv: string; base: string } | undefined {
  let p = found;
  for (let hops = 0; hops < 32; hops++) {
    const layout = PYTHON.test(basename(p)) && basename(dirname(p)) === 'bin' ? pythonLayout(p) : undefined;
    if (layout?.venv) return { python: p, venv: layout.venv, base: layout.base };
    try {
      if (!lstatSync(p).isSymbolicLink()) return undefined;
      p = resolve(dirname(p), readlinkSync(p));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** pip's #! line for a long or spaced interpreter path: `#!/bin/sh` then `'''exec' "/…/python" "$0" "$@"`. */
const SH_EXEC_LINE = /^'''exec' (?:"([^"]+)"|(\S+)) "\$0" "\$@"/;

/**
 * The Python a console script of `venv` names on its #! line (pip writes `#!/…/venv/bin/python`,
 * or the /bin/sh form for a long path), as that venv's own path: the script is then run by it
 * explicitly, so its #! path need not be visible in the sandbox as written.
 */
function scriptVenvPython(real: string, line: string, venv: string): string | undefined {
  let named = line.split(/\s+/)[0]!;
  if (named === '/bin/sh') {
    const m = SH_EXEC_LINE.exec(readRegularHead(real, 1024)?.toString('utf8').split('\n')[1] ?? '');
    if (!m) return undefined;
    named = (m[1] ?? m[2])!;
  }
  if (!PYTHON.test(basename(named)) || basename(dirname(named)) !== 'bin') return undefined;
  const own = join(venv, 'bin', basename(named));
  const same = realOrUndefined(dirname(dirname(named)));
  return same && same === realOrUndefined(venv) && existsSync(own) ? own : undefined;
}

const realOrUndefined = (p: string | undefined) => {
  try {
    return p ? realpathSync(p) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Where a command is: a path with a slash is relative to the project root (contracts stay valid
 * whatever the cwd); a bare name is looked up in the project first (node_modules/.bin, .venv/bin),
 * then on PATH.
 */
export function locateCommand(root: string, command: string, pathVar: string | undefined): string | undefined {
  if (command.includes('/')) return resolve(root, command);
  const local = findInProject(root, command);
  return local ? join(root, local) : findOnPath(command, pathVar);
}

/** Index of an interpreter's script argument (the first that is not an option), or -1. */
function scriptIndex(args: string[]): number {
  const i = args.findIndex((a) => !a.startsWith('-'));
  return i > 0 && args[i - 1] === '-m' ? -1 : i;
}

function notFound(command: string, found: string | undefined): ToolboxError {
  return new ToolboxError(
    'mcp_server_not_found',
    `MCP server command not found: '${command}'${command.includes('/') ? ` (resolved to ${found})` : ' (not in the project nor on PATH)'}`,
    {
      exitCode: ExitCode.missingDeps,
      hint:
        isAbsolute(command) || !command.includes('/')
          ? 'Install the server (`npm install <server package>` in the project), or give its path in loader_config.command.'
          : 'A relative loader_config.command is resolved against the project root (the folder that holds the registry). Install the server there, or import it again (`toolbox import mcp -- npx -y <package>`).',
    },
  );
}

/**
 * Resolve a contract's `command` for the sandbox, and the folders it needs. Node programs (a
 * `node` command, or a `#!/usr/bin/env node` script such as node_modules/.bin/*) run under this
 * toolbox's own Node binary, because the sandbox's PATH has no `env node` to find; a relative
 * script argument of node or python is resolved against the project root, since the server's cwd
 * in the sandbox is a fresh work dir. Only the script's package folder (its outermost node_modules),
 * the interpreter's prefix and a venv the command lives in are bound, never the whole project.
 */
export function resolveServerCommand(
  root: string,
  command: string,
  args: string[],
  opts: { pathVar?: string; nodeBinary: string },
): ResolvedServerCommand {
  const found = locateCommand(root, command, opts.pathVar);
  const real = realOrUndefined(found);
  if (!real || !found) throw notFound(command, found);
  const binds: ServerBind[] = [];
  // What a bare name found on the user's PATH brings is the host's; a command found in the project or
  // named by path is the project's (a link out of it is refused by the sandbox), and so is its package.
  const own: ServerBind['from'] = command.includes('/') || within(root, found) ? 'project' : 'host';
  const bind = (path: string, why: string, from: ServerBind['from'] = own) => {
    if (!isSystem(path + sep) && !binds.some((b) => b.path === path)) binds.push({ path, why, from });
  };
  // A venv's Python (or a link to one) runs as the venv's own path; a console script in a venv's bin/
  // runs under the venv Python its #! line names. Either way the venv is bound, with the installation
  // its Python was made from and the folders its .pth files add to sys.path.
  const vp = venvPythonOf(found);
  const venv = vp?.venv ?? venvOf(found);
  let cmd = vp?.python ?? real;
  let out = [...args];
  const line = vp ? undefined : shebang(real);
  if (venv) {
    bind(venv, `the Python venv that ${basename(vp?.python ?? found)} lives in`);
    const base = vp ? vp.base : venvBase(venv);
    if (base) bind(base, 'the Python installation the venv was made from', 'host');
    // A folder of the project is checked as one whoever's venv names it (a venv of yours on PATH with
    // this project installed editable must not show the project folder, .env and all).
    const realRoot = realOrUndefined(root) ?? root;
    for (const pth of venvPthPaths(venv)) {
      const inProject = within(root, pth.path) || within(realRoot, realOrUndefined(pth.path) ?? pth.path);
      bind(pth.path, `added to sys.path by ${relative(venv, pth.pth)}`, inProject ? 'project' : own);
    }
    const viaVenv = line ? scriptVenvPython(real, line, venv) : undefined;
    if (viaVenv) {
      cmd = viaVenv;
      out = [real, ...out];
    }
  }
  const env: Record<string, string> = {};
  const isNode = NODE.test(basename(real)) || NODE.test(basename(found));
  if (isNode || (line && /(^|[\s/])node(\s|$)/.test(line))) {
    cmd = realpathSync(opts.nodeBinary);
    bind(prefixOf(cmd), "Node's install prefix (the server runs under toolbox's own Node)", 'host');
    if (!isNode) {
      out = [real, ...out];
      bind(packageRoot(real), `the package folder of ${basename(found)}`);
    }
    // Node exits (code 13) when /etc/ssl/openssl.cnf exists but is unreadable, as after the
    // sandbox's uid drop: use OpenSSL's built-in defaults instead.
    env.OPENSSL_CONF = '/dev/null';
  } else if (!venv && !PYTHON.test(basename(real))) {
    bind(real.includes(`${sep}node_modules${sep}`) ? packageRoot(real) : prefixOf(real), 'the server program');
  }
  const scriptAt = isNode || PYTHON.test(basename(real)) ? scriptIndex(out) : -1;
  if (scriptAt >= 0) {
    const script = realOrUndefined(resolve(root, out[scriptAt]!));
    const realRoot = realOrUndefined(root) ?? root;
    // Only a script inside the project is bound for it: a contract cannot name a host file this way.
    if (script && script.startsWith(realRoot + sep)) {
      out[scriptAt] = script;
      // A script at the project root gets only itself bound: its folder would be the whole project.
      const folder = packageRoot(script);
      bind(folder === realRoot ? script : folder, `the server script ${args[scriptAt]} and its folder`, 'project');
      // A project script (not a package in node_modules) resolves its imports through the
      // node_modules folders and package.json files between it and the project root.
      if (isNode && !script.includes(`${sep}node_modules${sep}`))
        for (let d = dirname(script); d.startsWith(realRoot); d = dirname(d)) {
          for (const f of ['node_modules', 'package.json'])
            if (existsSync(join(d, f)))
              bind(join(d, f), `what Node reads to resolve ${args[scriptAt]}'s imports`, 'project');
          if (d === realRoot) break;
        }
    }
  } else if (!isNode && line && !venv) {
    const interp = realOrUndefined(line.split(/\s+/)[0]);
    if (interp && !interp.endsWith(`${sep}env`))
      bind(prefixOf(interp), `the interpreter named by ${basename(real)}'s #! line`);
  }
  const paths = (from: ServerBind['from']) => binds.filter((b) => b.from === from).map((b) => b.path);
  return { command: cmd, args: out, readOnlyPaths: paths('host'), projectPaths: paths('project'), binds, env };
}
