// python_function tools: the module exists and binds the function. The source is parsed with
// Python's own `ast`, by a small script of ours run in the sandbox with only the tools' top-level
// packages bound: no tool code runs (an import would run it, and need its dependencies installed).
import { readFileSync, realpathSync } from 'node:fs';
import { relative } from 'node:path';
import type { PythonFunctionConfig } from '../../contract/types.js';
import { pythonModulePaths, topLevelPythonModules } from '../../sandbox/tool-paths.js';
import { closest } from '../../errors.js';
import { codePath } from '../../util/assets.js';
import type { RunnableFinding, RunnableTool } from './types.js';

type Answer =
  | { key: number; status: 'ok' | 'unknown' }
  | { key: number; status: 'no_module'; missing: string; parent: string; names: string[]; near: string[] }
  | { key: number; status: 'no_function'; file?: string; names: string[]; near?: string[]; namespace?: boolean }
  | { key: number; status: 'syntax'; file: string; line: number; column: number; message: string };

const within = (root: string, p: string) => {
  try {
    const r = relative(realpathSync(root), realpathSync(p));
    return r !== '' && !r.startsWith('..');
  } catch {
    return false;
  }
};

const quote = (xs: string[]) => xs.map((x) => `'${x}'`).join(' or ');

function finding(t: RunnableTool, a: Answer, root: string): RunnableFinding | undefined {
  const cfg = t.contract.loader_config as unknown as PythonFunctionConfig;
  const show = (f: string) => relative(root, f) || f;
  switch (a.status) {
    case 'no_module':
      return {
        tool: t,
        rule: 'loader-module',
        path: ['loader_config', 'module'],
        message:
          `no module named '${a.missing}' in ${a.parent ? `package ${a.parent}` : 'the project root'}` +
          (a.names.length ? ` (modules there: ${a.names.join(', ')})` : '') +
          (a.near.length ? `; did you mean ${quote(a.near)}?` : '') +
          ': every call would fail (tool_module_not_found)',
        hint: 'loader_config.module is a dotted module path from the project root (my_tools.weather for my_tools/weather.py).',
      };
    case 'syntax':
      return {
        tool: t,
        rule: 'loader-module',
        path: ['loader_config', 'module'],
        message: `${show(a.file)}:${a.line}:${a.column}: ${a.message}: importing ${cfg.module} would fail`,
        hint: `Fix the Python syntax in ${show(a.file)}.`,
      };
    case 'no_function':
      return {
        tool: t,
        rule: 'loader-function',
        path: ['loader_config', 'function'],
        message: a.namespace
          ? `${cfg.module} is a folder without __init__.py (a namespace package), which defines no function '${cfg.function}'`
          : `module ${cfg.module} has no function '${cfg.function}'` +
            (a.near?.length ? `; did you mean ${quote(a.near)}?` : '') +
            ` (functions: ${a.names.join(', ') || 'none'}): every call would fail (function_not_found)`,
        hint: 'Fix loader_config.function, or define the function at the top level of the module.',
      };
    default:
      return undefined;
  }
}

/**
 * Findings for the python_function tools. Tools whose package is missing are found on the host (a
 * stat); the rest are parsed in one sandboxed `python3 -I -B -c` for all of them. When Python or
 * the sandbox cannot run, nothing is said: `toolbox deps` and `doctor` report that.
 */
export async function checkPythonTools(
  tools: RunnableTool[],
  root: string,
  stateDir: string,
): Promise<RunnableFinding[]> {
  const out: RunnableFinding[] = [];
  const ask: { tool: RunnableTool; key: number; binds: string[] }[] = [];
  for (const t of tools) {
    const cfg = t.contract.loader_config as unknown as PythonFunctionConfig;
    const top = cfg.module.split('.')[0] ?? '';
    const binds = pythonModulePaths(root, cfg.module);
    if (binds.length === 0) {
      const names = topLevelPythonModules(root);
      out.push(
        finding(
          t,
          {
            key: 0,
            status: 'no_module',
            missing: top,
            parent: '',
            names: names.slice(0, 20),
            near: closest(top, names),
          },
          root,
        )!,
      );
      continue;
    }
    // A package that is a link out of the project: run refuses it; the parser never reads it.
    if (binds.every((b) => within(root, b))) ask.push({ tool: t, key: ask.length, binds });
  }
  if (ask.length === 0) return out;
  // Loaded only when there is something to ask: validate without python tools never loads the sandbox.
  const { DEFAULT_LIMITS, probeSandbox, resolveInterpreter, runSandboxed } = await import('../../sandbox/index.js');
  let answers: Answer[];
  try {
    const interp = await resolveInterpreter('python3');
    await probeSandbox({ stateDir });
    const script = readFileSync(codePath('lint', 'runnable', 'python-check.py'), 'utf8');
    const res = await runSandboxed({
      command: interp.path,
      args: ['-I', '-B', '-c', script],
      env: { PYTHONUTF8: '1' },
      readOnlyPaths: [...new Set([...ask.flatMap((a) => a.binds), ...interp.readOnlyPaths])],
      network: false,
      limits: { ...DEFAULT_LIMITS, timeoutMs: 60_000, outputBytes: 16 * 1024 * 1024 },
      stdin: JSON.stringify({
        tools: ask.map((a) => {
          const cfg = a.tool.contract.loader_config as unknown as PythonFunctionConfig;
          return { key: a.key, root, module: cfg.module, function: cfg.function };
        }),
      }),
    });
    if (res.exitCode !== 0) return out;
    answers = JSON.parse(res.stdout) as Answer[];
  } catch {
    return out; // no Python here, or no sandbox: deps and doctor say so
  }
  for (const a of answers) {
    const t = ask[a.key]?.tool;
    // A tool with its own interpreter (loader_config.python) may use syntax this python3 lacks.
    if (!t || (a.status === 'syntax' && (t.contract.loader_config as unknown as PythonFunctionConfig).python)) continue;
    const f = finding(t, a, root);
    if (f) out.push(f);
  }
  return out;
}
