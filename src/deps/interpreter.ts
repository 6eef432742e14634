/**
 * Which Python a tool runs with: the per-tool venv made by `toolbox deps --install`, else its
 * `loader_config.python` (a path, a command, or a venv folder relative to the project root), else
 * python3 from PATH. The python loader uses the same answer (through `toolInterpreter`).
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { displayPath } from '../util/paths.js';
import { ENV_MARKER, envIsOurs } from './env-record.js';
import { which, type Watch, watchFile } from './util.js';

export { ENV_MARKER };

/** The folder of a tool's isolated environment. */
export function envDir(project: Project, id: string): string {
  return join(project.stateDir, 'envs', id);
}

const venvPython = (dir: string): string | undefined =>
  [join(dir, 'bin', 'python3'), join(dir, 'bin', 'python'), join(dir, 'Scripts', 'python.exe')].find((p) =>
    existsSync(p),
  );

/**
 * The venv interpreter `toolbox deps --install` made for this tool, when it finished installing and
 * the user's cache says toolbox made that very folder (env-record.ts); undefined otherwise (a
 * `.toolbox/envs/<id>/` a repository shipped is ignored). Cheap: the python loader calls it for every load.
 */
export function toolInterpreter(project: Project, entry: ToolEntry): string | undefined {
  const dir = envDir(project, entry.contract.id);
  if (!existsSync(join(dir, ENV_MARKER)) || !envIsOurs(dir)) return undefined;
  return venvPython(dir);
}

/** A resolved interpreter. */
export interface Interpreter {
  /** What to execute: an absolute path when found, else the name as written. */
  command: string;
  /** How to write it in a fix command (relative to the project root when inside it). */
  display: string;
  source: 'venv' | 'config' | 'default';
  /** False when it cannot be found: `command` is then what was looked for. */
  exists: boolean;
  /** What loader_config.python said, when it did. */
  configured?: string;
}

const show = (project: Project, p: string) => displayPath(p, project.root);

/**
 * Resolve the interpreter of `entry`. `ignoreVenv` gives the one a venv would be created from.
 * Files whose change would change the answer are added to `watch`.
 */
export function resolvePython(
  project: Project,
  entry: ToolEntry,
  env: NodeJS.ProcessEnv,
  opts: { ignoreVenv?: boolean; watch?: Watch } = {},
): Interpreter {
  const { watch } = opts;
  if (!opts.ignoreVenv) {
    const marker = join(envDir(project, entry.contract.id), ENV_MARKER);
    if (watch) watchFile(watch, marker);
    const venv = toolInterpreter(project, entry);
    if (venv) return { command: venv, display: show(project, venv), source: 'venv', exists: true };
  }
  const configured = (entry.contract.loader_config as { python?: unknown } | undefined)?.python;
  if (typeof configured === 'string' && configured) {
    const p = resolve(project.root, configured.replace(/^~(?=\/)/, env.HOME ?? '~'));
    // A bare name is a folder/file under the project root when one exists there, else a command.
    if (configured.includes('/') || configured.startsWith('.') || configured.startsWith('~') || existsSync(p)) {
      let isDir = false;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        /* missing: reported below */
      }
      if (watch) watchFile(watch, p);
      const exe = isDir ? venvPython(p) : existsSync(p) ? p : undefined;
      const target = exe ?? (isDir ? join(p, 'bin', 'python') : p);
      return { command: target, display: show(project, target), source: 'config', exists: Boolean(exe), configured };
    }
    const found = which(configured, env, project.root, watch);
    return { command: found ?? configured, display: configured, source: 'config', exists: Boolean(found), configured };
  }
  const found = which('python3', env, project.root, watch) ?? which('python', env, project.root, watch);
  return { command: found ?? 'python3', display: 'python3', source: 'default', exists: Boolean(found) };
}
