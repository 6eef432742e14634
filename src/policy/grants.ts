// What a contract's `sandbox.paths` may bind. A contract comes with the project, which is
// untrusted (a cloned repository ships it): it may ask only for paths inside the project. Anything
// wider needs a grant, per tool, in the user's own configuration outside the project:
//   ~/.config/toolbox/grants.yaml   →   tools: { <tool id>: { paths: [/abs/path, …] } }
import { existsSync, readFileSync, realpathSync, statSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { ownedBySelf, userConfigDir } from '../util/user-dirs.js';
import { yaml } from '../util/yaml.js';

/** Per-tool path grants from the user's own configuration. */
export interface UserGrants {
  file?: string;
  tools: Record<string, { paths: string[] }>;
}

/** One refused `sandbox.paths` entry. */
export interface PathProblem {
  index: number;
  path: string;
  code: 'sandbox_path_outside' | 'sandbox_path_socket' | 'sandbox_path_state';
  message: string;
  hint: string;
}

const within = (root: string, p: string) => {
  const r = relative(root, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};
const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

/**
 * The user's grants file, if it exists, is theirs (owned by them, not writable by others) and lies
 * outside the project; otherwise no grants (a planted or shared file grants nothing).
 */
export function loadUserGrants(projectRoot: string): UserGrants {
  const dir = userConfigDir();
  const file = dir ? join(dir, 'grants.yaml') : undefined;
  if (!file || !existsSync(file) || !ownedBySelf(file) || !ownedBySelf(dir!)) return { tools: {} };
  const rf = real(file);
  if (!rf || within(real(projectRoot) ?? projectRoot, rf)) return { tools: {} };
  let data: unknown;
  try {
    data = yaml().parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ToolboxError('grants_invalid', `${file} is not valid YAML: ${(e as Error).message}`, {
      exitCode: ExitCode.registry,
      hint: 'Fix the file: `tools: { <tool id>: { paths: [/absolute/path] } }`.',
    });
  }
  const tools: UserGrants['tools'] = {};
  const t = (data as { tools?: unknown } | null)?.tools;
  if (t && typeof t === 'object')
    for (const [id, g] of Object.entries(t as Record<string, { paths?: unknown }>)) {
      const paths = Array.isArray(g?.paths)
        ? g.paths.filter((p): p is string => typeof p === 'string' && isAbsolute(p))
        : [];
      tools[id] = { paths };
    }
  return { file, tools };
}

function hasSocket(p: string): boolean {
  try {
    const st = statSync(p);
    if (st.isSocket()) return true;
    if (!st.isDirectory()) return false;
    // One level down: a socket file directly inside a bound folder is reachable too.
    return readdirSync(p, { withFileTypes: true }).some((d) => d.isSocket());
  } catch {
    return false;
  }
}

/** Problems with a contract's `sandbox.paths` (empty when every entry may be bound). */
export function checkSandboxPaths(
  root: string,
  id: string,
  paths: readonly string[],
  network: boolean,
  grants: UserGrants,
): PathProblem[] {
  const out: PathProblem[] = [];
  const realRoot = real(root) ?? root;
  const granted = (grants.tools[id]?.paths ?? []).map((g) => real(g) ?? g);
  const where = grants.file ?? join(userConfigDir() ?? '~/.config/toolbox', 'grants.yaml');
  paths.forEach((p, index) => {
    const abs = isAbsolute(p) ? p : resolve(root, p);
    const r = real(abs) ?? abs;
    const isGranted = granted.some((g) => within(g, r));
    if (!isGranted && (!within(root, abs) || !within(realRoot, r))) {
      out.push({
        index,
        path: p,
        code: 'sandbox_path_outside',
        message: `sandbox.paths '${p}' is outside the project${r !== abs ? ` (resolves to ${r})` : ''}`,
        hint: `A contract may bind only paths inside the project. To let tool '${id}' see ${r}, grant it in your own ${where}: \`tools: { ${id}: { paths: [${r}] } }\`.`,
      });
      return;
    }
    if (!isGranted && within(join(realRoot, '.toolbox'), r)) {
      out.push({
        index,
        path: p,
        code: 'sandbox_path_state',
        message: `sandbox.paths '${p}' is toolbox's own state folder (.toolbox/: sessions, call log, venvs)`,
        hint: 'Bind the data the tool needs, not .toolbox/.',
      });
      return;
    }
    if (!network && hasSocket(r)) {
      out.push({
        index,
        path: p,
        code: 'sandbox_path_socket',
        message: `sandbox.paths '${p}' is or holds a Unix socket, which would reach a service outside the sandbox`,
        hint: 'Bind a folder without sockets, or open the network (`sandbox: { network: true }`) if the tool must talk to that service.',
      });
    }
  });
  return out;
}

/** The absolute paths to bind for a call; throws `sandbox_path_denied` (exit 3) for a refused entry. */
export function sandboxPathsFor(root: string, id: string, paths: readonly string[], network: boolean): string[] {
  if (paths.length === 0) return [];
  const problems = checkSandboxPaths(root, id, paths, network, loadUserGrants(root));
  const first = problems[0];
  if (first)
    throw new ToolboxError('sandbox_path_denied', `tool '${id}': ${first.message}`, {
      exitCode: ExitCode.registry,
      hint: first.hint,
      details: { reason: first.code, path: first.path },
    });
  return paths.map((p) => (isAbsolute(p) ? p : resolve(root, p)));
}
