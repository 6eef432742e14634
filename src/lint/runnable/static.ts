// What can be known about http, mcp and command tools without running anything: the network a
// request needs, the variables a template reads, and whether the program exists where run looks.
import { accessSync, constants } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { networkOpen, type CommandConfig, type HttpConfig, type McpConfig } from '../../contract/types.js';
import { envRefs, originParams, paramsIn } from '../../contract/template.js';
import type { PathSeg } from '../../contract/yaml-source.js';
import { findOnPath } from '../../util/which.js';
import type { RunnableFinding, RunnableTool } from './types.js';

/** Every string under `v` with its path (loader_config's url, headers, query, body). */
function strings(v: unknown, path: PathSeg[], out: { path: PathSeg[]; text: string }[] = []) {
  if (typeof v === 'string') out.push({ path, text: v });
  else if (Array.isArray(v)) v.forEach((x, i) => strings(x, [...path, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) strings(x, [...path, k], out);
  return out;
}

/** An http tool, or an MCP server reached by url, with its network closed; `${VAR}`s not in sandbox.env. */
export function checkRequests(t: RunnableTool): RunnableFinding[] {
  const c = t.contract;
  const out: RunnableFinding[] = [];
  const url = c.loader === 'http' ? (c.loader_config as unknown as HttpConfig).url : undefined;
  const mcpUrl = c.loader === 'mcp' ? (c.loader_config as unknown as McpConfig).url : undefined;
  if ((url !== undefined || mcpUrl !== undefined) && !networkOpen(c.sandbox)) {
    const what = url !== undefined ? 'makes HTTP requests' : `calls the MCP server at ${mcpUrl}`;
    out.push({
      tool: t,
      rule: 'loader-network',
      path: c.sandbox?.network === undefined ? ['loader'] : ['sandbox', 'network'],
      message: `tool '${c.id}' ${what} but its network is closed: every call would fail (network_not_allowed, exit 7)`,
      hint: 'Open it in the contract: `sandbox: { network: true }`.',
    });
  }
  if (c.loader === 'http') {
    const allowed = new Set(c.sandbox?.env ?? []);
    const cfg = c.loader_config as unknown as HttpConfig;
    const chosen = typeof cfg.url === 'string' ? originParams(cfg.url) : [];
    if (chosen.length)
      for (const key of ['url', 'headers', 'query', 'body'] as const)
        for (const s of strings(cfg[key], ['loader_config', key]))
          for (const name of envRefs([s.text]))
            out.push({
              tool: t,
              rule: 'loader-secret-host',
              path: s.path,
              message: `\${${name}} goes to a URL whose host comes from the argument '${chosen[0]}': the caller would choose who receives it (run refuses: http_secret_to_argument_host, exit 3)`,
              hint: 'Write the host in the url (or take it from your environment, ${API_HOST}), or send no ${VAR}.',
            });
    const seen = new Set<string>();
    for (const key of ['url', 'headers', 'query', 'body'] as const)
      for (const s of strings(cfg[key], ['loader_config', key]))
        for (const name of envRefs([s.text])) {
          if (allowed.has(name) || seen.has(name)) continue;
          seen.add(name);
          out.push({
            tool: t,
            rule: 'loader-env',
            path: s.path,
            message: `\${${name}} is not in the contract's sandbox.env: the tool never sees it, and every call would fail (env_not_allowed, exit 3)`,
            hint: `List it: sandbox: { env: [${[...allowed, name].join(', ')}] } (the value comes from the environment toolbox runs in, and is never logged).`,
          });
        }
  }
  return out;
}

// One PATH lookup per program name and PATH (a generated registry runs `echo` 50,000 times).
const onPath = new Map<string, boolean>();
const found = (program: string, pathVar: string | undefined) => {
  const key = `${pathVar ?? ''}\0${program}`;
  let hit = onPath.get(key);
  if (hit === undefined) {
    if (onPath.size > 1000) onPath.clear();
    hit = findOnPath(program, pathVar) !== undefined;
    onPath.set(key, hit);
  }
  return hit;
};

const executable = (p: string) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * A command's program (and an MCP server's command) where run looks for it: a path with a slash
 * is relative to the project root, a bare name is looked up on PATH (run binds its folder).
 */
export function checkProgram(t: RunnableTool, root: string, pathVar: string | undefined): RunnableFinding[] {
  const c = t.contract;
  let program: string | undefined;
  let path: PathSeg[];
  if (c.loader === 'command') {
    program = (c.loader_config as unknown as CommandConfig).argv[0];
    path = ['loader_config', 'argv', 0];
  } else if (c.loader === 'mcp') {
    program = (c.loader_config as unknown as McpConfig).command;
    path = ['loader_config', 'command'];
    // Servers `import mcp` installed live in .toolbox/ (not committed): `deps` says to reinstall them.
    if (program?.includes('/')) return [];
  } else return [];
  if (!program) return [];
  const where = { tool: t, rule: 'loader-program' as const, path };
  if (paramsIn(program).length > 0)
    return [
      {
        ...where,
        message: `the program cannot be a {{placeholder}} ('${program}'): run refuses it (command_program_templated)`,
        hint: 'Name a fixed program in argv[0]; pass arguments in the later elements.',
      },
    ];
  if (program.includes('/')) {
    const abs = isAbsolute(program) ? program : resolve(root, program);
    if (executable(abs)) return [];
    return [
      {
        ...where,
        message: `program ${program} does not exist or is not executable (looked at ${abs}): every call would fail (command_not_found)`,
        hint: `A relative path starts at the project root ${root}; \`chmod +x\` a script.`,
      },
    ];
  }
  if (found(program, pathVar)) return [];
  return [
    {
      ...where,
      message: `program '${program}' is not on PATH: the sandbox can only run what is installed here, so every call would fail (missing_dependencies)`,
      hint: `Install ${program}, or name a program inside the project by its path (./bin/${program}). \`toolbox deps\` says how to install known programs.`,
    },
  ];
}
