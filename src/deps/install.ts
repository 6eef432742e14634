/**
 * `toolbox deps --install`: a venv per Python tool under .toolbox/envs/<id>/, made with the
 * interpreter the tool would otherwise run with, and the declared requirements pip-installed into
 * it. The marker file is written only after pip succeeds; from then on `toolInterpreter` (the
 * python loader) and the check use the venv.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { writeFileAtomic } from '../util/fs.js';
import { checkState } from '../util/state.js';
import { collect } from './collect.js';
import { ENV_MARKER, envDir, resolvePython } from './interpreter.js';
import { runProcess, shQuote } from './util.js';

/** What --install did for one tool. */
export interface InstallResult {
  id: string;
  /** installed: venv ready; skipped: nothing a venv can hold; failed: see `error`. */
  status: 'installed' | 'skipped' | 'failed';
  venv?: string;
  /** The interpreter the venv was made from. */
  base?: string;
  error?: string;
  /** A command the user can run by hand (when failed). */
  fix?: string;
}

const tail = (s: string, n = 6) => s.trim().split('\n').slice(-n).join('\n');

/** Install the Python requirements of each tool into its own venv, one tool after another. */
export async function installDeps(
  project: Project,
  entries: ToolEntry[],
  opts: { env?: NodeJS.ProcessEnv; signal?: AbortSignal; onTool?: (id: string) => void; allowLocal?: boolean } = {},
): Promise<InstallResult[]> {
  const env = opts.env ?? process.env;
  const out: InstallResult[] = [];
  for (const entry of entries) {
    opts.onTool?.(entry.contract.id);
    out.push(await installOne(project, entry, env, opts.signal, opts.allowLocal === true));
  }
  return out;
}

async function installOne(
  project: Project,
  entry: ToolEntry,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
  allowLocal = false,
): Promise<InstallResult> {
  const id = entry.contract.id;
  const decl = collect(project, entry);
  const lines = decl.python.lines.filter((l) => l.name.toLowerCase() !== 'python');
  if (lines.length === 0 && !decl.python.requirementsFile) return { id, status: 'skipped' };
  const absent = lines.find((l) => l.localPath && !existsSync(l.localPath));
  if (absent)
    return {
      id,
      status: 'failed',
      error: `local requirement ${absent.localPath} does not exist`,
      fix: `fix the path '${absent.raw}' in requires.python of ${entry.file}`,
    };
  // A local folder or sdist is built by running the project's own code (setup.py, an in-tree build
  // backend) with the user's full rights, outside the sandbox: only when the user says so.
  const builds = lines.find((l) => l.localPath && !/\.whl$/i.test(l.localPath));
  if (builds && !allowLocal)
    return {
      id,
      status: 'failed',
      error: `local requirement ${builds.localPath} would be built by running the project's own code (setup.py or its build backend) outside the sandbox; refused`,
      fix: 're-run with `toolbox deps --install --allow-local` only if you trust this project (or ship a wheel)',
    };
  const base = resolvePython(project, entry, env, { ignoreVenv: true });
  // .toolbox/envs/<id> must be toolbox's own folder (util/state.ts): never a link planted by the project.
  checkState(project.stateDir, [`envs/${id}/`]);
  const dir = envDir(project, id);
  if (!base.exists)
    return {
      id,
      status: 'failed',
      venv: dir,
      error: `interpreter ${base.command} not found`,
      fix: 'install python3 or set loader_config.python',
    };

  const py = join(dir, 'bin', 'python');
  if (!existsSync(py)) {
    const r = await runProcess(base.command, ['-m', 'venv', dir], { env, cwd: project.root, signal });
    if (r.code !== 0 || !existsSync(py)) {
      return {
        id,
        status: 'failed',
        venv: dir,
        base: base.command,
        error: `venv creation failed: ${tail(r.stderr || r.stdout || r.error || '')}`,
        fix: `${base.display} -m venv ${dir}  (Debian: apt-get install python3-venv)`,
      };
    }
  }
  // pip resolves relative paths against its working folder: run it beside the file that names them.
  const file = decl.python.requirementsFile;
  const args = ['-m', 'pip', 'install', '--disable-pip-version-check'];
  let cwd = dirname(entry.file);
  if (file) {
    args.push('-r', file);
    cwd = dirname(file);
  } else {
    for (const l of lines) args.push(l.localPath && !l.line.includes('@') ? l.localPath : l.line);
  }
  // Only local files: do not wait on an index that may be unreachable.
  if (lines.every((l) => l.localPath)) args.push('--no-index');
  const r = await runProcess(py, args, { env: { ...env, PIP_REQUIRE_VIRTUALENV: '1' }, cwd, signal });
  if (r.code !== 0) {
    return {
      id,
      status: 'failed',
      venv: dir,
      base: base.command,
      error: `pip install failed: ${tail(r.stderr || r.stdout || r.error || '')}`,
      fix: [py, ...args].map(shQuote).join(' '),
    };
  }
  writeFileAtomic(
    join(dir, ENV_MARKER),
    JSON.stringify(
      { id, base: base.command, created: new Date().toISOString(), requirements: lines.map((l) => l.raw) },
      null,
      2,
    ) + '\n',
  );
  return { id, status: 'installed', venv: dir, base: base.command };
}
