import { openSync, readSync, closeSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { findOnPath } from '../util/which.js';
import { ExitCode, ToolboxError } from '../errors.js';

/** A stdio MCP server command, resolved to what the sandbox must run and see. */
export interface ResolvedServerCommand {
  command: string;
  args: string[];
  /** Host paths the server needs read-only (its package and dependencies, its interpreter). */
  readOnlyPaths: string[];
  /** Variables the interpreter needs to start in the sandbox (the contract's own `env` wins). */
  env: Record<string, string>;
}

// Paths every sandbox tier already shows; binding them again is noise.
const SYSTEM = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'];
const isSystem = (p: string) => SYSTEM.some((s) => p.startsWith(s));

function shebang(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, 256, 0);
    const head = buf.subarray(0, n).toString('utf8');
    return head.startsWith('#!') ? head.slice(2).split('\n')[0]!.trim() : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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

/**
 * Resolve a contract's `command` for the sandbox. A command with a slash is relative to the
 * project root (contracts stay valid whatever the cwd); a bare name is looked up on PATH.
 * Node scripts (`#!/usr/bin/env node`, e.g. node_modules/.bin/*) run under this toolbox's own
 * Node binary, because the sandbox's PATH has no `env node` to find; their package folder and
 * Node's prefix are bound read-only.
 */
export function resolveServerCommand(
  root: string,
  command: string,
  args: string[],
  opts: { pathVar?: string; nodeBinary: string },
): ResolvedServerCommand {
  const found = command.includes('/') ? resolve(root, command) : findOnPath(command, opts.pathVar);
  let real: string | undefined;
  try {
    if (found) real = realpathSync(found);
  } catch {
    real = undefined;
  }
  if (!real) {
    throw new ToolboxError(
      'mcp_server_not_found',
      `MCP server command not found: '${command}'${command.includes('/') ? ` (resolved to ${found})` : ' (not on PATH)'}`,
      {
        exitCode: ExitCode.missingDeps,
        hint:
          isAbsolute(command) || !command.includes('/')
            ? 'Install the server, or give its path in loader_config.command.'
            : 'A relative loader_config.command is resolved against the project root (the folder that holds the registry). Install the server there (e.g. `npm install <server package>`).',
      },
    );
  }
  const binds = new Set<string>();
  const line = shebang(real);
  if (line && /(^|[\s/])node(\s|$)/.test(line)) {
    const node = realpathSync(opts.nodeBinary);
    if (!isSystem(node)) binds.add(prefixOf(node));
    binds.add(packageRoot(real));
    // Node exits (code 13) when /etc/ssl/openssl.cnf exists but is unreadable, as after the
    // sandbox's uid drop: use OpenSSL's built-in defaults instead.
    return { command: node, args: [real, ...args], readOnlyPaths: [...binds], env: { OPENSSL_CONF: '/dev/null' } };
  }
  if (!isSystem(real)) binds.add(real.includes(`${sep}node_modules${sep}`) ? packageRoot(real) : prefixOf(real));
  return { command: real, args, readOnlyPaths: [...binds], env: {} };
}
