import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { LoaderType } from '../contract/types.js';
import { readTemplate, render, SCHEMA_FILE } from './templates.js';
import { packageName, packageVersion } from '../util/version.js';

/** One file a scaffold wants to write. */
export interface PlannedFile {
  /** Absolute path. */
  path: string;
  content: string;
  role: 'config' | 'contract' | 'implementation';
}

export interface ToolPlanOptions {
  /** Project root: the folder that holds the registry folder (and my_tools/). */
  root: string;
  registryDir: string;
  id: string;
  loader: LoaderType;
  name?: string;
  description?: string;
  /** No description given (`toolbox new` without --description): write a TODO that validate flags, not the stub's. */
  todoDescription?: boolean;
  /**
   * `toolbox new`: a generic stub (one TODO parameter, code that raises "not implemented") that
   * validate flags until it is filled in. Without it (`init`'s first tool) the working word counter.
   */
  stub?: boolean;
}

/** Valid tool ids (the contract schema's pattern). */
export const ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

// The stubs' own behaviour, so a contract scaffolded without --description is accurate and lint-clean.
const DEFAULT_DESCRIPTIONS: Record<LoaderType, string> = {
  python_function:
    'Count the words, characters and lines of a text. Use it when the user asks how long a text is or how many words it has.',
  node_module:
    'Count the words, characters and lines of a text. Use it when the user asks how long a text is or how many words it has.',
  command:
    'Convert a date and time such as "2024-05-01 14:00 +0800" or "next friday" to a UTC timestamp in ISO 8601 format. Use it when the user needs a time in UTC.',
  http: 'Look up a public GitHub repository by owner and name and return its description, star count and open issues. Use it when the user asks about a GitHub project. Needs internet access.',
  mcp: 'Send a message to the MCP reference server (@modelcontextprotocol/server-everything) and return its echo. Use it to check that MCP tools can be called from this registry.',
};

/** Default first-tool id per loader for `toolbox init`. */
export const DEFAULT_IDS: Record<LoaderType, string> = {
  python_function: 'word_count',
  node_module: 'word_count',
  command: 'utc_time',
  http: 'github_repo',
  mcp: 'mcp_echo',
};

/** Arguments that make each stub do something, for the "Next:" hints of init and new. */
export const SAMPLE_ARGS: Record<LoaderType, string> = {
  python_function: '--text "hello big world"',
  node_module: '--text "hello big world"',
  command: '--when "2024-05-01 14:00 +0800"',
  http: '--owner nodejs --repo node',
  mcp: '--message hello',
};

const RESERVED = new Set(
  (
    'and as assert async await break case catch class const continue debugger def default del delete do elif else ' +
    'enum except export extends false finally for from function global if import in instanceof is lambda let new nonlocal none not null ' +
    'or pass raise return super switch this throw true try typeof var void while with yield'
  ).split(' '),
);

/** A Python/JavaScript identifier (and file name) for a tool id: `send-mail.v2` → `send_mail_v2`. */
export function identifierFor(id: string): string {
  const s = id.replace(/[^A-Za-z0-9_]/g, '_');
  return RESERVED.has(s.toLowerCase()) ? `${s}_tool` : s;
}

/** "word_count" → "Word count". */
export function nameFor(id: string): string {
  const words = id.replace(/[_.-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The `$schema=` target, one that holds wherever the project is cloned: relative to the contract when
 * the project installed toolbox (its node_modules copy) or holds the schema itself; otherwise (a
 * global install, npx) the published schema of this exact version on the npm CDN, never a path of
 * this machine, which would be committed with the contract and dangle everywhere else.
 */
export function schemaRef(contractFile: string, root: string): string {
  // A project that installed toolbox as a package: point at its copy, which moves with the project.
  const installed = join(root, 'node_modules', packageName(), 'schemas', 'contract.schema.json');
  if (existsSync(installed)) return relative(dirname(contractFile), installed).split(sep).join('/');
  const inside = relative(root, SCHEMA_FILE);
  if (inside.startsWith('..') || isAbsolute(inside)) return publishedSchemaUrl();
  return relative(dirname(contractFile), SCHEMA_FILE).split(sep).join('/');
}

/** The contract schema of this toolbox version as published on npm (served by jsDelivr). */
export const publishedSchemaUrl = (): string =>
  `https://cdn.jsdelivr.net/npm/${packageName()}@${packageVersion()}/schemas/contract.schema.json`;

/** The files `toolbox new` (and `init`) write for one tool: its contract and, where needed, an implementation stub. */
export function planTool(o: ToolPlanOptions): PlannedFile[] {
  const ident = identifierFor(o.id);
  const contractPath = join(o.registryDir, `${o.id}.yaml`);
  // One module per tool, so that a tool sees, and the lock pins, only its own code: Python modules in
  // the namespace package my_tools/ (no __init__.py: sandbox/tool-paths.ts shows the module file
  // alone), a Node module in a folder of its own (Node tools are shown their module's folder).
  const implRel =
    o.loader === 'python_function'
      ? `my_tools/${ident}.py`
      : o.loader === 'node_module'
        ? `my_tools/${ident}/${ident}.mjs`
        : undefined;
  const values = {
    schema: schemaRef(contractPath, o.root),
    id: o.id,
    // JSON strings are valid YAML double-quoted scalars: safe for any text, any language.
    name: JSON.stringify(o.name ?? nameFor(o.id)),
    description: JSON.stringify(
      o.description ??
        (o.todoDescription
          ? `TODO: say what ${o.id} does and when to use it (validate fails until you do).`
          : DEFAULT_DESCRIPTIONS[o.loader]),
    ),
    module: implRel ? implRel.replace(/\.py$/, '').replace(/\//g, '.') : '',
    function: ident,
    impl: implRel ?? '',
  };
  const dir = o.stub ? 'new/' : '';
  const files: PlannedFile[] = [
    { path: contractPath, role: 'contract', content: render(readTemplate(`${dir}contracts/${o.loader}.yaml`), values) },
  ];
  if (implRel) {
    const ext = o.loader === 'python_function' ? 'python_function.py' : 'node_module.mjs';
    // Implementation files carry the name in a comment / docstring: one line, no quotes or backslashes.
    const implValues = { ...values, name: (o.name ?? nameFor(o.id)).replace(/[\r\n"'`\\]+/g, ' ').trim() };
    files.push({
      path: join(o.root, ...implRel.split('/')),
      role: 'implementation',
      content: render(readTemplate(`${dir}impl/${ext}`), implValues),
    });
  }
  return files;
}
