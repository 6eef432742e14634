import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { closest, ExitCode, ToolboxError } from '../errors.js';
import type { PythonFunctionConfig } from '../contract/types.js';
import { resolveInterpreter } from '../sandbox/index.js';
import { within } from '../util/paths.js';
import { toolInterpreter } from '../deps/interpreter.js';
import type { Loader, LoadContext } from './types.js';
import { RUNNERS_DIR, runnerTool } from './util/runner-tool.js';
import { pythonModulePaths, pythonModulesIn, topLevelPythonModules } from '../sandbox/tool-paths.js';

function missingModule(ctx: LoadContext, module: string): ToolboxError {
  // The first part that is missing: the top-level module, or a module inside a package folder.
  const parts = module.split('.');
  let i = 0;
  let dir = ctx.project.root;
  while (i < parts.length - 1 && isDir(join(dir, parts[i]!))) dir = join(dir, parts[i++]!);
  const top = i === 0 ? (parts[0] ?? module) : parts.slice(0, i + 1).join('.');
  const names = i === 0 ? topLevelPythonModules(ctx.project.root) : pythonModulesIn(dir);
  const near = closest(parts[i] ?? top, names);
  const where = i === 0 ? `the project root ${ctx.project.root}` : `${dir}`;
  const e = ctx.entry;
  return new ToolboxError(
    'tool_module_not_found',
    `tool '${e.contract.id}': no module named '${top}' in ${where}${names.length ? ` (modules there: ${names.slice(0, 20).join(', ')})` : ''}${near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''}`,
    {
      exitCode: ExitCode.registry,
      location: { file: e.file, line: e.line },
      hint: `Fix loader_config.module in ${e.file}${e.line ? `:${e.line}` : ''}, or add the missing code.`,
      details: { kind: 'module_not_found' },
    },
  );
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * loader_config.python: unset → python3 on PATH; a folder (relative to the project root) → a
 * virtualenv, its bin/python3; a path → that file; anything else → a command on PATH. A venv's
 * folder is bound read-only too, since its site-packages live there.
 */
export function pythonCommand(python: string | undefined, root: string): { command: string; venv?: string } {
  if (!python) return { command: 'python3' };
  const abs = resolve(root, python);
  if (isDir(abs)) {
    const bin = ['python3', 'python'].map((n) => join(abs, 'bin', n)).find((p) => existsSync(p));
    if (!bin) {
      throw new ToolboxError(
        'python_not_found',
        `loader_config.python '${python}' is a folder without bin/python3 (looked in ${abs})`,
        {
          exitCode: ExitCode.missingDeps,
          hint: `Create the virtualenv with \`python3 -m venv ${python}\`, or point loader_config.python at an interpreter.`,
        },
      );
    }
    return { command: bin, venv: abs };
  }
  if (python.includes('/')) {
    const venv = dirname(dirname(abs));
    return {
      command: abs,
      venv: basename(dirname(abs)) === 'bin' && existsSync(join(venv, 'pyvenv.cfg')) ? venv : undefined,
    };
  }
  return { command: python };
}

export const loader: Loader = {
  type: 'python_function',
  async load(ctx: LoadContext) {
    const cfg = ctx.entry.contract.loader_config as unknown as PythonFunctionConfig;
    // A per-tool venv made by `toolbox deps --install` wins over loader_config.python.
    const installed = toolInterpreter(ctx.project, ctx.entry);
    const { command, venv } = pythonCommand(installed ?? cfg.python, ctx.project.root);
    const own = pythonModulePaths(ctx.project.root, cfg.module);
    // Only the tool's own package is visible in the sandbox, so a missing one is found here.
    if (own.length === 0) throw missingModule(ctx, cfg.module);
    const interp = await resolveInterpreter(command, ctx.hostEnv);
    const inProject = (p: string | undefined): p is string => p !== undefined && within(ctx.project.root, p);
    return runnerTool({
      load: ctx,
      what: 'python runner',
      command: interp.path,
      // -B: the tool's package is mounted read-only, so never try to write __pycache__.
      args: ['-B', join(RUNNERS_DIR, 'python_runner.py')],
      env: { PYTHONUTF8: '1', PYTHONDONTWRITEBYTECODE: '1' },
      readOnlyPaths: [RUNNERS_DIR, ...interp.readOnlyPaths],
      // The venv (loader_config.python, .toolbox/envs/<id>) and an interpreter inside the project are
      // project paths too: checked as named, before their links are followed.
      projectPaths: [...own, ...[venv, isAbsolute(command) ? dirname(command) : undefined].filter(inProject)],
      target: { module: cfg.module, function: cfg.function },
    });
  },
};
