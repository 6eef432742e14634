/**
 * What one tool needs: its declared `requires`, plus what its loader implies (the Python
 * interpreter, the MCP server command, the program of a command tool, the `${VARS}` of http/mcp
 * configs). Reads the requirements files; runs nothing.
 */
import { dirname, resolve } from 'node:path';
import type { Project } from '../config.js';
import type { BinRequirement, ToolEntry } from '../contract/types.js';
import { findInProject } from '../util/which.js';
import { normalizeBin } from './bins.js';
import { parseNodeRequires, type NodeReq } from './node.js';
import { parsePythonRequires, type PythonDecl } from './requirements-txt.js';

/** Everything one tool requires, by kind. */
export interface Declared {
  python: PythonDecl;
  /** The tool runs Python (python_function) or declares Python requirements. */
  needsPython: boolean;
  node: NodeReq[];
  /** Folder Node packages are resolved from (the tool module's folder, else the contract's). */
  nodeFrom: string;
  bins: BinRequirement[];
  env: string[];
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${NAME}` references in any strings of `v` (no defaults syntax: `${A:-x}` is not matched). */
export function varsIn(v: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof v === 'string') for (const m of v.matchAll(VAR)) out.add(m[1]!);
  else if (Array.isArray(v)) for (const x of v) varsIn(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) varsIn(x, out);
  return out;
}

/** True when a tool needs no check at all (so `run` pays nothing for it). */
export function declaresNothing(entry: ToolEntry): boolean {
  const r = entry.contract.requires;
  const none =
    !r || (!r.python?.length && !(r.node && Object.keys(r.node).length) && !r.bins?.length && !r.env?.length);
  const loader = entry.contract.loader;
  return none && loader === 'node_module';
}

export function collect(project: Project, entry: ToolEntry): Declared {
  const c = entry.contract;
  const r = c.requires ?? {};
  const contractDir = dirname(entry.file);
  const lc = (c.loader_config ?? {}) as Record<string, unknown>;
  const python = parsePythonRequires(r.python, contractDir, project.root);
  const bins = (r.bins ?? []).map(normalizeBin);
  const env = new Set(r.env ?? []);
  let nodeFrom = contractDir;
  if (c.loader === 'node_module' && typeof lc.module === 'string') nodeFrom = dirname(resolve(project.root, lc.module));
  if (c.loader === 'mcp') {
    // A bare server command is looked up in the project first, as the loader does.
    const cmd = typeof lc.command === 'string' ? (findInProject(project.root, lc.command) ?? lc.command) : undefined;
    if (cmd && !bins.some((b) => b.name === cmd || b.name === lc.command)) bins.unshift({ name: cmd });
    varsIn([lc.command, lc.args, lc.env, lc.url, lc.headers], env);
    // Set by the mcp loader itself (the project root), never taken from the host.
    if (!r.env?.includes('PROJECT_ROOT')) env.delete('PROJECT_ROOT');
  }
  if (c.loader === 'http') varsIn([lc.url, lc.headers, lc.query, lc.body], env);
  if (c.loader === 'command' && Array.isArray(lc.argv)) {
    const prog = lc.argv[0];
    if (typeof prog === 'string' && !prog.includes('{{') && !bins.some((b) => b.name === prog))
      bins.unshift({ name: prog });
  }
  return {
    python,
    needsPython: c.loader === 'python_function' || python.lines.length > 0 || python.problems.length > 0,
    node: parseNodeRequires(r.node),
    nodeFrom,
    bins,
    env: [...env],
  };
}
