// validate predicts run: what a call would fail on, found before anything runs. Each finding is a
// configurable rule (error by default), located at the contract's line:column.
import type { Project } from '../../config.js';
import type { Diagnostic, Severity } from '../../contract/diagnostic.js';
import type { RuleMeta } from '../types.js';
import { checkNodeTool } from './node.js';
import { checkPythonTools } from './python.js';
import { checkProgram, checkRequests } from './static.js';
import type { RunnableFinding, RunnableTool } from './types.js';

export type { RunnableTool } from './types.js';

/** The rules, for settings (lint.rules), SARIF and docs. */
export const RUNNABLE_RULES: RuleMeta[] = [
  {
    id: 'loader-network',
    severity: 'error',
    description: 'An http tool (or an MCP server reached by url) whose sandbox keeps the network closed.',
    docs: 'Every call fails with network_not_allowed (exit 7): add `sandbox: { network: true }`.',
  },
  {
    id: 'loader-env',
    severity: 'error',
    description: "A ${VAR} in an http tool's loader_config that sandbox.env does not list.",
    docs: 'The tool only sees allow-listed variables: every call fails with env_not_allowed (exit 3). List it in sandbox.env.',
  },
  {
    id: 'loader-secret-host',
    severity: 'error',
    description:
      'An http tool whose url takes its scheme, host, port or user info from an argument sends a ${VAR} (a header, the query, the body).',
    docs: 'The caller would choose who receives the secret: run refuses with http_secret_to_argument_host (exit 3). Write the host in the url, or take it from your environment.',
  },
  {
    id: 'loader-module',
    severity: 'error',
    description:
      'The module a python_function or node_module tool imports does not exist (or its Python source does not parse).',
    docs: "Read from the project's files, never imported: fix loader_config.module or add the code.",
  },
  {
    id: 'loader-function',
    severity: 'error',
    description: 'The module does not define the function (Python) or export (Node) loader_config.function names.',
    docs: 'Python source is parsed with `ast` in the sandbox, Node exports read with a lexer; modules whose names cannot be known without running them (star imports, CommonJS) are not judged.',
  },
  {
    id: 'loader-program',
    severity: 'error',
    description: "A command tool's program (or a stdio MCP server's command) that is not where run looks for it.",
    docs: 'A bare name must be on PATH (the sandbox binds its folder); a path is relative to the project root and must be executable.',
  },
];

type Severities = Record<string, Severity | 'off'>;
const on = (severity: Severities, id: string) => (severity[id] ?? 'error') !== 'off';

function toDiagnostics(found: RunnableFinding[], severity: Severities): Diagnostic[] {
  return found
    .filter((f) => on(severity, f.rule))
    .map((f) => {
      const pos = f.tool.locate(f.path);
      return {
        file: f.tool.file,
        line: pos.line,
        column: pos.column,
        severity: (severity[f.rule] ?? 'error') as Severity,
        rule: f.rule,
        path: f.path.join('.'),
        message: f.message,
        hint: f.hint,
      };
    });
}

/** What the contract alone says will fail (network, variables, the program): no file is read. */
export function runnableContractDiagnostics(
  project: Project,
  tool: RunnableTool,
  severity: Severities,
  env: NodeJS.ProcessEnv = process.env,
): Diagnostic[] {
  const found: RunnableFinding[] = [];
  if (on(severity, 'loader-network') || on(severity, 'loader-env')) found.push(...checkRequests(tool));
  if (on(severity, 'loader-program')) found.push(...checkProgram(tool, project.root, env.PATH));
  return toDiagnostics(found, severity);
}

/** Tools whose code validate reads (python_function, node_module). */
export const readsCode = (t: RunnableTool) =>
  t.contract.loader === 'python_function' || t.contract.loader === 'node_module';

/** Whether each python_function / node_module tool's module exists and defines what it calls. */
export async function runnableCodeDiagnostics(
  project: Project,
  tools: RunnableTool[],
  severity: Severities,
): Promise<Diagnostic[]> {
  if (!on(severity, 'loader-module') && !on(severity, 'loader-function')) return [];
  const found: RunnableFinding[] = [];
  for (const t of tools.filter((x) => x.contract.loader === 'node_module'))
    found.push(...(await checkNodeTool(t, project.root)));
  const py = tools.filter((x) => x.contract.loader === 'python_function');
  if (py.length) found.push(...(await checkPythonTools(py, project.root, project.stateDir)));
  return toDiagnostics(found, severity);
}
