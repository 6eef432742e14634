/**
 * `toolbox deps --install`: a venv per Python tool under .toolbox/envs/<id>/, made fresh each time
 * by the interpreter the tool would otherwise run with, and the declared requirements pip-installed
 * into it. Nothing that was in the folder before is reused or run (a repository can ship one): the
 * old folder is moved aside, the new one made by toolbox, and the old one deleted once pip has
 * succeeded (or put back when it failed). Only a trusted interpreter runs here (host-process.ts:
 * a system or pyenv/asdf/mise/uv/conda binary, in isolated mode), acting as the new venv's Python; pip gets
 * only what pip-plan.ts accepts, and `--only-binary :all:` unless the user passed --allow-local.
 * From then on `toolInterpreter` (the python loader) and the check use the venv.
 */
import { lstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { checkState } from '../util/state.js';
import { resolveInterpreter } from '../sandbox/index.js';
import { buildFresh } from '../util/fresh-dir.js';
import { asVenv, runHost, trustInterpreter, type TrustedInterpreter } from '../util/host-process.js';
import { collect } from './collect.js';
import { recordEnv } from './env-record.js';
import { envDir, resolvePython } from './interpreter.js';
import { pipPlan, type PipPlan } from './pip-plan.js';
import { PIP_NET_ARGS, unreachableIndex, unreachableText } from '../util/index-bounds.js';
import { shQuote } from './util.js';

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

/** Where one tool's install reports its steps and pip's output. */
interface Watch {
  step(step: string): void;
  output(text: string): void;
}

/** Install the Python requirements of each tool into its own venv, one tool after another. */
export async function installDeps(
  project: Project,
  entries: ToolEntry[],
  opts: {
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    onTool?: (id: string) => void;
    /** The step a tool's install is at ("creating the venv", pip's latest line), for a spinner. */
    onStep?: (id: string, step: string) => void;
    /** pip's own output as it comes (--verbose). */
    onOutput?: (text: string) => void;
    allowLocal?: boolean;
  } = {},
): Promise<InstallResult[]> {
  const env = opts.env ?? process.env;
  const out: InstallResult[] = [];
  for (const entry of entries) {
    opts.onTool?.(entry.contract.id);
    const id = entry.contract.id;
    const watch: Watch = {
      step: (step) => opts.onStep?.(id, step),
      output: (text) => {
        opts.onOutput?.(text);
        // pip's latest line ("Collecting requests", "Downloading …", "Installing collected packages")
        const line = text.trim().split('\n').pop()?.trim();
        if (line) opts.onStep?.(id, `pip: ${line.length > 60 ? `${line.slice(0, 60)}…` : line}`);
      },
    };
    out.push(await installOne(project, entry, env, opts.signal, opts.allowLocal === true, watch));
  }
  return out;
}

/** The base interpreter as one toolbox may run on the host, or why not. Resolved without running anything. */
async function hostPython(command: string, env: NodeJS.ProcessEnv): Promise<TrustedInterpreter | string> {
  let path: string;
  try {
    path = (await resolveInterpreter(command)).path;
  } catch (e) {
    return (e as Error).message;
  }
  return (
    trustInterpreter(path, env) ??
    `${path} is not an interpreter toolbox runs outside the sandbox (a system Python, or one installed with pyenv, asdf, mise, uv or conda, that only you or root can change)`
  );
}

/** The requirements file toolbox writes for pip (in its private `dir`): only the lines pip-plan.ts accepted. */
function planFiles(plan: PipPlan, dir: string): string[] {
  const args: string[] = [];
  const write = (name: string, flag: string, lines: { text: string }[]) => {
    if (!lines.length) return;
    writeFileSync(join(dir, name), lines.map((l) => l.text).join('\n') + '\n');
    args.push(flag, join(dir, name));
  };
  write('requirements.txt', '-r', plan.requirements);
  write('constraints.txt', '-c', plan.constraints);
  return [...args, ...plan.options];
}

async function installOne(
  project: Project,
  entry: ToolEntry,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
  allowLocal: boolean,
  watch: Watch,
): Promise<InstallResult> {
  const id = entry.contract.id;
  const decl = collect(project, entry);
  const lines = decl.python.lines.filter((l) => l.name.toLowerCase() !== 'python');
  const plan = pipPlan(entry.contract.requires?.python, entry.file, project.root);
  if (plan.refused && !allowLocal)
    return {
      id,
      status: 'failed',
      error: `${plan.refused.where}: ${plan.refused.raw ? `'${plan.refused.raw}': ` : ''}${plan.refused.why}; refused (pip would run or fetch what the project chose outside the sandbox)`,
      fix: 're-run with `toolbox deps --install --allow-local` only if you trust this project (or ship wheels)',
    };
  if (lines.length === 0 && !decl.python.requirementsFile) return { id, status: 'skipped' };
  const absent = lines.find((l) => l.localPath && !/^\w+:\/\//.test(l.localPath) && !existsAt(l.localPath));
  if (absent)
    return {
      id,
      status: 'failed',
      error: `local requirement ${absent.localPath} does not exist`,
      fix: `fix the path '${absent.raw}' in requires.python of ${entry.file}`,
    };
  if (!allowLocal && plan.requirements.length === 0) return { id, status: 'skipped' };

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
  const py = await hostPython(base.command, env);
  if (typeof py === 'string')
    return {
      id,
      status: 'failed',
      venv: dir,
      base: base.command,
      error: py,
      fix: 'set loader_config.python to a system or pyenv/asdf/mise/uv/conda Python (a venv made from one works too)',
    };
  const job: VenvJob = { id, dir, py, display: base.display, plan, decl, lines, entry, env, signal, allowLocal, watch };
  return buildFresh(
    dir,
    async () => {
      // A private working folder (0700): not the project, not the shared temp folder, whose files
      // another user could have planted (python -I keeps the working folder off sys.path anyway).
      const work = mkdtempSync(join(tmpdir(), 'toolbox-pip-'));
      try {
        return await venvAndPip(job, work);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    (r) => r.status === 'installed',
  );
}

/** What venvAndPip needs of one tool's install. */
interface VenvJob {
  id: string;
  dir: string;
  py: TrustedInterpreter;
  /** The base interpreter as the user wrote it (for fix commands). */
  display: string;
  plan: PipPlan;
  decl: ReturnType<typeof collect>;
  lines: ReturnType<typeof collect>['python']['lines'];
  entry: ToolEntry;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal | undefined;
  allowLocal: boolean;
  watch: Watch;
}

/** Make the venv at `j.dir` (absent) with the trusted interpreter, then pip-install into it from `work`. */
async function venvAndPip(j: VenvJob, work: string): Promise<InstallResult> {
  const { id, dir, py, env, signal } = j;
  const fail = (error: string, fix: string): InstallResult => ({ id, status: 'failed', venv: dir, error, fix });
  j.watch.step('creating the venv');
  const made = await runHost(py, ['-m', 'venv', dir], { env, cwd: work, signal, timeoutMs: 300_000 });
  if (made.code !== 0)
    return fail(
      `venv creation failed: ${tail(made.stderr || made.stdout || made.error || '')}`,
      `${j.display} -m venv ${dir}  (Debian: apt-get install python3-venv)`,
    );
  const pipArgs = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', ...PIP_NET_ARGS];
  let cwd = work;
  if (j.allowLocal) {
    // The user trusts this project: pip reads its requirements as they are (relative paths from their folder).
    const file = j.decl.python.requirementsFile;
    if (file) pipArgs.push('-r', file);
    else for (const l of j.lines) pipArgs.push(l.localPath && !l.line.includes('@') ? l.localPath : l.line);
    cwd = dirname(file ?? j.entry.file);
  } else {
    pipArgs.push('--only-binary', ':all:', ...planFiles(j.plan, work));
  }
  // Only local files: do not wait on an index that may be unreachable.
  if ((j.allowLocal ? j.lines.every((l) => l.localPath) : j.plan.allLocal) && !pipArgs.includes('--no-index'))
    pipArgs.push('--no-index');
  j.watch.step('pip install');
  const r = await runHost(asVenv(py, dir), pipArgs, {
    env: { ...env, PIP_REQUIRE_VIRTUALENV: '1' },
    cwd,
    signal,
    timeoutMs: 1_800_000,
    path: 'absolute',
    onOutput: j.watch.output,
  });
  const gone = r.code !== 0 ? unreachableIndex(`${r.stderr}\n${r.stdout}`) : undefined;
  if (gone) {
    const t = unreachableText(gone, 'pip');
    return fail(`pip install failed: ${t.error}`, t.fix);
  }
  if (r.code !== 0)
    return fail(
      `pip install failed: ${tail(r.stderr || r.stdout || r.error || '')}`,
      [join(dir, 'bin', 'python'), ...pipArgs].map(shQuote).join(' '),
    );
  const requirements = j.lines.map((l) => l.raw);
  if (!recordEnv(dir, { id, base: py.path, created: new Date().toISOString(), requirements }))
    return fail(
      'no safe cache folder (~/.cache/toolbox) to record that toolbox made this venv',
      'make ~/.cache/toolbox a folder of yours (mode 0700)',
    );
  return { id, status: 'installed', venv: dir, base: py.path };
}

function existsAt(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
