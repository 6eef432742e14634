// What the user, not the project, lets a tool have. A contract comes with the project, which is
// untrusted (a cloned repository ships it): it may bind only paths inside the project (never the
// project folder itself, `.git`, `.env*` or `.toolbox/`), and may not take credentials from the
// environment while it can reach the network. Anything more needs a grant in the user's own file,
// per project (its real path) and tool, so that a cloned repository's `query_weather` never inherits
// the grant another project's tool of that name has:
//   ~/.config/toolbox/grants.yaml
//   projects:
//     /home/me/weather:                    # the project folder (holds tool_registry/ or the config)
//       query_weather: { paths: [/srv/data/cities], env: [WEATHER_API_KEY] }
//       "*": { paths: [/opt/shared/node_modules] }   # every tool of that project
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { bindProblem, realOrUndefined, type BindCode } from '../util/binds.js';
import { within } from '../util/paths.js';
import { ownedBySelf, userConfigDir } from '../util/user-dirs.js';
import { yaml } from '../util/yaml.js';

/** What one tool of one project is granted. */
export interface ToolGrant {
  paths: string[];
  env: string[];
  /** Addresses or names (optionally `:port`) the tool may reach whatever their class: `127.0.0.1:6379`. */
  network: string[];
}

/** The user's grants.yaml, read for one project. */
export interface UserGrants {
  file?: string;
  /** The project's entries (tool id or '*' → grant); empty when the file names no such project. */
  tools: Record<string, ToolGrant>;
  /** Tool ids the file still grants in the old form (`tools:` at the top, for any project): ignored. */
  legacy: string[];
  /** The line of that old `tools:` key (1-based), for a diagnostic. */
  legacyLine?: number;
}

/** One refused `sandbox.paths` entry. */
export interface PathProblem {
  index: number;
  path: string;
  code: BindCode;
  message: string;
  hint: string;
}

const strings = (v: unknown, ok: (s: string) => boolean): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && ok(x)) : [];
const grantOf = (g: unknown): ToolGrant => {
  const o = (g && typeof g === 'object' ? g : {}) as { paths?: unknown; env?: unknown; network?: unknown };
  return {
    paths: strings(o.paths, isAbsolute),
    env: strings(o.env, (s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s)),
    network: strings(o.network, (s) => /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._:-]+)(:\d{1,5})?$/.test(s)),
  };
};

/** The grants file's path (whether it exists or not), for messages. */
export function grantsFile(): string {
  return join(userConfigDir() ?? '~/.config/toolbox', 'grants.yaml');
}

// The YAML of the file's last text: a call reads the grants up to three times (paths, credentials,
// loader paths), and a daemon or serve makes many calls. The file is read (and whether it counts
// checked) every time; only parsing the same text again is saved.
let parsed: { text: string; data: unknown } | undefined;

function readGrantsFile(file: string): { text: string; data: unknown } {
  const text = readFileSync(file, 'utf8');
  if (parsed?.text === text) return parsed;
  let data: unknown;
  try {
    data = yaml().parse(text);
  } catch (e) {
    throw new ToolboxError('grants_invalid', `${file} is not valid YAML: ${(e as Error).message}`, {
      exitCode: ExitCode.registry,
      hint: 'Fix the file: `projects: { /path/to/project: { <tool id>: { paths: [/absolute/path], env: [NAME] } } }`.',
    });
  }
  parsed = { text, data };
  return parsed;
}

/**
 * The user's grants for the project at `projectRoot`. The file counts only when it is theirs (owned
 * by them or root, not writable by group or others, in a folder that is too) and lies outside the
 * project; otherwise it grants nothing (a planted or shared file grants nothing). A project key is
 * matched by real path (`~/` is the home folder).
 */
export function loadUserGrants(projectRoot: string): UserGrants {
  const dir = userConfigDir();
  const file = dir ? join(dir, 'grants.yaml') : undefined;
  const none = { tools: {}, legacy: [] };
  if (!file || !existsSync(file) || !ownedBySelf(file) || !ownedBySelf(dir!)) return none;
  const rf = realOrUndefined(file);
  const realRoot = realOrUndefined(projectRoot) ?? projectRoot;
  if (!rf || within(realRoot, rf)) return none;
  const { text, data } = readGrantsFile(file);
  const d = (data && typeof data === 'object' ? data : {}) as { projects?: unknown; tools?: unknown };
  const legacy = d.tools && typeof d.tools === 'object' ? Object.keys(d.tools) : [];
  const tools: UserGrants['tools'] = {};
  if (d.projects && typeof d.projects === 'object')
    for (const [key, entries] of Object.entries(d.projects as Record<string, unknown>)) {
      const abs = key.startsWith('~/') ? join(homedir(), key.slice(2)) : key;
      if (!isAbsolute(abs) || (realOrUndefined(abs) ?? resolve(abs)) !== realRoot) continue;
      if (entries && typeof entries === 'object' && !Array.isArray(entries))
        for (const [id, g] of Object.entries(entries as Record<string, unknown>)) {
          const add = grantOf(g);
          const cur = tools[id] ?? { paths: [], env: [], network: [] };
          tools[id] = {
            paths: [...cur.paths, ...add.paths],
            env: [...cur.env, ...add.env],
            network: [...cur.network, ...add.network],
          };
        }
    }
  const at = legacy.length ? text.split('\n').findIndex((l) => /^tools\s*:/.test(l)) : -1;
  return { file, tools, legacy, ...(at >= 0 ? { legacyLine: at + 1 } : {}) };
}

/** Why the old form of grants.yaml no longer counts, and what to write instead; undefined when not used. */
export function legacyGrantsWarning(grants: UserGrants, root: string): { message: string; hint: string } | undefined {
  if (!grants.legacy.length) return undefined;
  const key = realOrUndefined(root) ?? root;
  return {
    message: `${grants.file ?? grantsFile()} grants ${grants.legacy.map((id) => `'${id}'`).join(', ')} under the old top-level \`tools:\`, which applied to a tool of that name in any project (a cloned repository's tool inherited it): it is no longer read`,
    hint: `Move each entry under its project: \`projects: { ${JSON.stringify(key)}: { ${grants.legacy[0]}: { paths: [...] } } }\` (the project's real path; "*" for all its tools).`,
  };
}

/** What tool `id` is granted in this project: its own entry and the project's `"*"`. */
export function grantFor(grants: UserGrants, id: string): ToolGrant {
  const own = grants.tools[id];
  const all = grants.tools['*'];
  return {
    paths: [...(own?.paths ?? []), ...(all?.paths ?? [])],
    env: [...(own?.env ?? []), ...(all?.env ?? [])],
    network: [...(own?.network ?? []), ...(all?.network ?? [])],
  };
}

/** The addresses and names tool `id` of this project may reach whatever their class (loopback, private). */
export function grantedNetwork(root: string, id: string): string[] {
  return grantFor(loadUserGrants(root), id).network;
}

/** The tool's granted paths (absolute) in this project; empty without a grant. */
export function grantedPaths(root: string, id: string): string[] {
  return grantFor(loadUserGrants(root), id).paths;
}

/**
 * How to grant `what` (`paths: [/x]` or `env: [NAME]`) to tool `id` of the project at `root`, and a
 * word on an old-form entry for that id, which no longer applies.
 */
export function grantHint(grants: UserGrants, root: string, id: string, what: string): string {
  const where = grants.file ?? grantsFile();
  const key = realOrUndefined(root) ?? root;
  const old = grants.legacy.includes(id)
    ? ` Your grants file still names '${id}' under the old top-level \`tools:\`, which granted a tool of that name in any project and is no longer read: move it under \`projects:\`.`
    : '';
  return `To allow it, add to your own ${where}: \`projects: { ${JSON.stringify(key)}: { ${id}: { ${what} } } }\`.${old}`;
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
  const realRoot = realOrUndefined(root) ?? root;
  const granted = () => grantFor(grants, id).paths;
  paths.forEach((p, index) => {
    const abs = isAbsolute(p) ? p : resolve(root, p);
    // `../..` named without links is outside whatever it resolves to.
    const lexicallyOut = !within(root, abs) && !granted().some((g) => within(realOrUndefined(g) ?? g, abs));
    const bad: ReturnType<typeof bindProblem> = lexicallyOut
      ? { code: 'sandbox_path_outside', resolved: realOrUndefined(abs) ?? abs }
      : bindProblem(realRoot, abs, { network, granted, state: 'none' });
    if (!bad) return;
    const r = bad.resolved;
    const via = r !== abs ? ` (resolves to ${r})` : '';
    const grant = grantHint(grants, root, id, `paths: [${r}]`);
    const say: Record<BindCode, [string, string]> = {
      sandbox_path_outside: [
        `is outside the project${via}`,
        `A contract may bind only paths inside the project. ${grant}`,
      ],
      sandbox_path_root: [
        `is the project folder itself${via} (its .env, .git and every other tool)`,
        `Bind the files the tool needs, not the whole project. ${grant}`,
      ],
      sandbox_path_secret: [
        `is ${bad.what ?? 'a secret'} of the project${via}: credentials a contract cannot give itself`,
        `Bind other files, or grant it yourself if the tool really needs it. ${grant}`,
      ],
      sandbox_path_state: [
        `is toolbox's own state folder${via} (.toolbox/: sessions, call log, venvs)`,
        'Bind the data the tool needs, not .toolbox/.',
      ],
      sandbox_path_socket: [
        `is or holds a Unix socket${via}, which would reach a service outside the sandbox`,
        'Bind a folder without sockets, or open the network (`sandbox: { network: true }`) if the tool must talk to that service.',
      ],
    };
    const [message, hint] = say[bad.code];
    out.push({ index, path: p, code: bad.code, message: `sandbox.paths '${p}' ${message}`, hint });
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
