/**
 * Where a server comes from, as `import mcp` understands it: a command (maybe an `npx`/`uvx`
 * launcher, which becomes a managed install), a package name, or a URL; and the servers a client
 * config file lists (Claude Desktop, VS Code, Cursor).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ExitCode, ToolboxError, usageError } from '../errors.js';

/** One server to import. Env and header values may hold `${NAME}`: names only, never secrets. */
export interface ServerSource {
  /** The name the config file gives the server (prefix for its tools). */
  name?: string;
  command?: string[];
  npm?: string;
  pypi?: string;
  /** The program of a package with several (npx -p PKG CMD). */
  bin?: string;
  url?: string;
  headers?: Record<string, string>;
  /** Variables the server reads: name → `${NAME}` or a literal used only while importing. */
  env?: Record<string, string>;
  /** The folder relative commands and paths are resolved against (a client config's workspace). */
  cwd?: string;
}

/**
 * `npx [-y|--yes] [-p PKG] PKG[@V] args…` and `uvx [--from PKG] PKG[@V] args…` as a package to
 * install and its arguments; undefined for any other command. Other launcher options are refused
 * rather than silently dropped.
 */
export function parseLauncher(argv: string[]): ServerSource | undefined {
  const [cmd, ...rest] = argv;
  const tool = cmd?.split('/').pop();
  if (tool !== 'npx' && tool !== 'uvx') return undefined;
  let pkg: string | undefined;
  let i = 0;
  for (; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '-y' || a === '--yes' || a === '-q' || a === '--quiet') continue;
    if (a === '--') {
      i++;
      break;
    }
    if ((tool === 'npx' && (a === '-p' || a === '--package')) || (tool === 'uvx' && a === '--from')) {
      pkg = rest[++i];
      continue;
    }
    const eq = /^--(package|from)=(.+)$/.exec(a);
    if (eq) {
      pkg = eq[2];
      continue;
    }
    if (a.startsWith('-'))
      throw usageError(
        'launcher_option_unsupported',
        `${tool} option '${a}' is not understood by toolbox import mcp`,
        `Use \`toolbox import mcp -- ${tool} ${tool === 'npx' ? '-y ' : ''}<package> [args…]\`, or --${tool === 'npx' ? 'npm' : 'pypi'} <package>.`,
      );
    break;
  }
  const first = rest[i];
  if (!first)
    throw usageError(
      'import_source_missing',
      `no package after ${tool}`,
      `Use \`toolbox import mcp -- ${tool} <package> [args…]\`.`,
    );
  const args = rest.slice(i + 1);
  const spec = pkg ?? first;
  const bin = pkg ? first : undefined;
  return tool === 'npx' ? { npm: spec, bin, command: args } : { pypi: spec, bin, command: args };
}

/** `${env:NAME}` (VS Code, Cursor), `${NAME}`, `${input:id}` → `${NAME}` and the names used. */
export function envTemplate(value: string): { value: string; names: string[]; literal: boolean } {
  const names: string[] = [];
  const out = value.replace(/\$\{(?:(env|input):)?([^}]+)\}/g, (_, _kind: string | undefined, n: string) => {
    const name = n
      .replace(/[^A-Za-z0-9_]/g, '_')
      .toUpperCase()
      .replace(/^(\d)/, '_$1');
    names.push(name);
    return `\${${name}}`;
  });
  return { value: out, names, literal: names.length === 0 };
}

interface ConfigServer {
  type?: string;
  command?: string;
  args?: unknown[];
  env?: Record<string, unknown>;
  url?: string;
  headers?: Record<string, unknown>;
  disabled?: boolean;
}

function configError(file: string, message: string): ToolboxError {
  return new ToolboxError('client_config_invalid', `${file}: ${message}`, {
    exitCode: ExitCode.usage,
    location: { file },
    hint: 'Give a Claude Desktop config (claude_desktop_config.json), .vscode/mcp.json or .cursor/mcp.json: an object with "mcpServers" or "servers".',
  });
}

const strings = (m: Record<string, unknown> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(m ?? {}).filter(([, v]) => typeof v === 'string')) as Record<string, string>;

/**
 * The servers of a client config file, in file order. Values of env and headers are kept only as
 * templates. `${workspaceFolder}` (VS Code, Cursor) becomes `workspace`: the folder above a
 * .vscode/ or .cursor/ folder the file is in, else the caller's folder.
 */
export function readClientConfig(file: string, cwd: string): ServerSource[] {
  const parent = dirname(file);
  const workspace = /^\.(vscode|cursor)$/.test(basename(parent)) ? dirname(parent) : cwd;
  const ws = (v: string) => v.replace(/\$\{(workspaceFolder|workspaceRoot)\}/g, workspace);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT')
      throw usageError('client_config_missing', `no such file: ${file}`, 'Give the path of the client config file.');
    throw configError(file, `not valid JSON (${err.message})`);
  }
  const d = doc as { mcpServers?: unknown; servers?: unknown };
  const map = (d?.mcpServers ?? d?.servers) as Record<string, ConfigServer> | undefined;
  if (!map || typeof map !== 'object' || Array.isArray(map))
    throw configError(file, 'no "mcpServers" or "servers" object');
  const out: ServerSource[] = [];
  for (const [name, s] of Object.entries(map)) {
    if (!s || typeof s !== 'object') throw configError(file, `server '${name}' is not an object`);
    if (s.disabled) continue;
    if (s.url) {
      out.push({ name, url: s.url, headers: strings(s.headers) });
    } else if (typeof s.command === 'string' && s.command) {
      const args = (s.args ?? []).map((a) => ws(String(a)));
      out.push({ name, command: [ws(s.command), ...args], env: strings(s.env), cwd: workspace });
    } else {
      throw configError(file, `server '${name}' has neither "command" nor "url"`);
    }
  }
  if (!out.length) throw configError(file, 'lists no servers');
  return out;
}
