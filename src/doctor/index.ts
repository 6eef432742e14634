/**
 * `toolbox doctor`: everything a new user should know about this machine and project on one
 * screen (runtimes, sandbox, registry health, dependencies, where state lives), each problem with
 * its fix. Works without a registry (reports it missing).
 */
import { existsSync } from 'node:fs';
import { checkState, isStateUnsafe } from '../util/state.js';
import { noPasswordWarning, resolveStateUrl, type StateUrl } from '../state/url.js';
import { legacyGrantsWarning, loadUserGrants } from '../policy/grants.js';
import { projectUserOnlyKeys } from '../policy/user-settings.js';
import { join } from 'node:path';
import { resolveProject, type Project, type ProjectOptions } from '../config.js';
import { ToolboxError } from '../errors.js';
import type { SandboxInfo } from '../sandbox/types.js';
import type { SandboxCause } from '../sandbox/diagnose.js';
import { checkDeps } from '../deps/check.js';
import { depsMessage } from '../deps/message.js';
import { runChecker } from '../deps/python.js';
import { which } from '../deps/util.js';

/** One thing that is wrong (error: doctor exits 1) or weaker than it could be (warning), with its fix. */
export interface DoctorProblem {
  severity: 'error' | 'warning';
  area: 'node' | 'python' | 'sandbox' | 'registry' | 'deps' | 'state' | 'grants' | 'shared_state' | 'config';
  message: string;
  fix: string;
}

/** Everything doctor found. */
export interface DoctorReport {
  healthy: boolean;
  node: { version: string; path: string };
  python: {
    found: boolean;
    command: string;
    version?: string;
    executable?: string;
    packaging?: string | null;
    pip?: boolean;
    venv?: boolean;
    error?: string;
  };
  sandbox: Partial<SandboxInfo> & { error?: string; causes?: SandboxCause[] };
  registry: {
    dir?: string;
    found: boolean;
    config?: string;
    files?: number;
    tools?: number;
    errors?: number;
    warnings?: number;
    infos?: number;
  };
  deps?: { tools: number; ok: number; missing: string[] };
  state: { dir?: string; items: { name: string; path: string; exists: boolean; what: string }[] };
  /** Loopback/private addresses the user's grants.yaml opens to this project's tools (tool id or "*"). */
  networkGrants?: { tool: string; network: string[] }[];
  /** The shared state store in force (`--state`, $TOOLBOX_STATE_URL, the user's config), never its credentials. */
  shared?: SharedStateReport;
  problems: DoctorProblem[];
}

export interface SharedStateReport {
  url: string;
  source: string;
  health: string;
  lastError?: string;
  /** Round trip of a PING, ms. */
  pingMs?: number;
  redisVersion?: string;
}

const STATE_ITEMS: [string, string][] = [
  ['cache/', 'parsed-registry index and dependency results (safe to delete)'],
  ['calls.jsonl', 'call log read by `toolbox stats`'],
  ['breaker.json', 'circuit-breaker state per tool'],
  ['sessions/', 'selection sessions (--session)'],
  ['envs/', 'per-tool Python venvs from `toolbox deps --install`'],
  ['results/', 'full results cut by the output cap'],
  ['servers/', 'MCP servers installed by `toolbox import mcp --npm/--pypi`'],
];

export async function runDoctor(
  opts: ProjectOptions,
  env: NodeJS.ProcessEnv,
  more: { state?: string } = {},
): Promise<DoctorReport> {
  const problems: DoctorProblem[] = [];
  const report: DoctorReport = {
    healthy: true,
    node: { version: process.versions.node, path: process.execPath },
    python: { found: false, command: 'python3' },
    sandbox: {},
    registry: { found: false },
    state: { items: [] },
    problems,
  };

  let project: Project | undefined;
  try {
    project = resolveProject(opts);
    report.registry = { dir: project.registryDir, found: true, config: project.configFile };
  } catch (e) {
    if (!(e instanceof ToolboxError)) throw e;
    problems.push({
      severity: 'error',
      area: 'registry',
      message: e.message,
      fix:
        e.code === 'registry_not_found'
          ? '`toolbox init` creates one (or pass --registry DIR)'
          : (e.hint ?? 'fix the config file'),
    });
    try {
      project = resolveProject(opts, { mustExist: false });
      report.registry.dir = project.registryDir;
    } catch {
      /* config itself is broken */
    }
  }

  const [major] = process.versions.node.split('.').map(Number);
  if (major! < 20)
    problems.push({
      severity: 'error',
      area: 'node',
      message: `Node ${process.versions.node} is older than 20`,
      fix: 'install Node 20 or newer',
    });

  const py = which('python3', env, opts.cwd) ?? which('python', env, opts.cwd);
  if (!py) {
    problems.push({
      severity: 'warning',
      area: 'python',
      message: 'no python3 on PATH: python_function tools cannot run',
      fix: 'apt-get install python3 (or set loader_config.python per tool)',
    });
  } else {
    report.python = { found: true, command: py };
    try {
      const r = await runChecker(py, []);
      Object.assign(report.python, {
        version: r.version,
        executable: r.executable,
        packaging: r.packaging,
        pip: r.has_pip,
        venv: r.has_venv,
      });
      if (!r.has_venv)
        problems.push({
          severity: 'warning',
          area: 'python',
          message: `${py} cannot create venvs: \`toolbox deps --install\` will not work`,
          fix: 'apt-get install python3-venv',
        });
    } catch (e) {
      report.python.error = (e as Error).message;
      problems.push({ severity: 'error', area: 'python', message: (e as Error).message, fix: `check that ${py} runs` });
    }
  }

  try {
    const { probeSandbox, sandboxCauses } = await import('../sandbox/index.js');
    report.sandbox = await probeSandbox(report.registry.found ? { stateDir: project?.stateDir } : {});
    // The real cause and the option that removes it (a container's masked /proc, seccomp, no user
    // namespaces); "install bubblewrap" only when it is missing.
    const causes = report.sandbox.tier === 'bwrap' ? [] : await sandboxCauses();
    if (causes.length) report.sandbox.causes = causes;
    const fix = (dflt: string) => (causes.length ? causes.map((c) => c.fix).join('; ') : dflt);
    const why = causes.length ? ` (${causes.map((c) => c.message).join('; ')})` : '';
    if (report.sandbox.tier === 'none')
      problems.push({
        severity: 'error',
        area: 'sandbox',
        message: `no isolation available: tools run with your files, network and processes${why}`,
        fix: fix('apt-get install bubblewrap (or allow unprivileged user namespaces)'),
      });
    else if (report.sandbox.tier === 'unshare')
      problems.push({
        severity: 'warning',
        area: 'sandbox',
        message: `sandbox without filesystem confinement (user namespaces only): tools can read your files${why}`,
        fix: fix('apt-get install bubblewrap'),
      });
  } catch (e) {
    report.sandbox = { error: (e as Error).message };
    problems.push({
      severity: 'warning',
      area: 'sandbox',
      message: `could not probe the sandbox: ${(e as Error).message}`,
      fix: 'check that `bwrap --unshare-all --ro-bind / / true` or `unshare --user --map-root-user true` works',
    });
  }

  if (report.registry.found && project) {
    const { validateProject } = await import('../lint/validate.js');
    const v = await validateProject(project, { routing: false });
    Object.assign(report.registry, v.summary);
    if (v.summary.errors > 0)
      problems.push({
        severity: 'error',
        area: 'registry',
        message: `${v.summary.errors} contract errors in ${project.registryDir}`,
        fix: '`toolbox validate` lists them with file:line:col',
      });
    else if (v.summary.warnings > 0)
      problems.push({
        severity: 'warning',
        area: 'registry',
        message: `${v.summary.warnings} lint warnings`,
        fix: '`toolbox validate` lists them',
      });
    const { loadRegistry } = await import('../registry/registry.js');
    const deps = await checkDeps(project, loadRegistry(project).entries, { env });
    const missing = deps.filter((t) => !t.ok);
    report.deps = { tools: deps.length, ok: deps.length - missing.length, missing: missing.map((t) => t.id) };
    for (const t of missing)
      problems.push({
        severity: 'error',
        area: 'deps',
        message: depsMessage(t),
        fix: `\`toolbox deps ${t.id}\` shows the fix commands`,
      });
  }

  if (project) {
    report.state.dir = project.stateDir;
    report.state.items = STATE_ITEMS.map(([name, what]) => ({
      name,
      path: join(project!.stateDir, name),
      exists: existsSync(join(project!.stateDir, name)),
      what,
    }));
    for (const k of projectUserOnlyKeys(project))
      problems.push({
        severity: 'warning',
        area: 'config',
        message: `${k.file ?? 'toolbox.config.yaml'}:${k.line}:${k.column}: ${k.message}`,
        fix: k.hint,
      });
    const userGrants = loadUserGrants(project.root);
    report.networkGrants = Object.entries(userGrants.tools)
      .filter(([, g]) => g.network.length > 0)
      .map(([tool, g]) => ({ tool, network: g.network }));
    const oldGrants = legacyGrantsWarning(userGrants, project.root);
    if (oldGrants)
      problems.push({ severity: 'warning', area: 'grants', message: oldGrants.message, fix: oldGrants.hint });
    // The same checks every state read and write makes (util/state.ts): a link, another user's entry.
    for (const [name] of STATE_ITEMS) {
      try {
        checkState(project.stateDir, [name]);
      } catch (e) {
        if (!isStateUnsafe(e)) throw e;
        if (problems.some((p) => p.message === e.message)) continue;
        problems.push({ severity: 'error', area: 'state', message: e.message, fix: e.hint ?? '' });
      }
    }
  }
  const url = resolveStateUrl({
    ...(more.state !== undefined ? { flag: more.state } : {}),
    env,
    projectRoot: project?.root,
  });
  if (url) {
    const open = noPasswordWarning(url);
    if (open) problems.push({ severity: 'warning', area: 'shared_state', ...open });
    report.shared = await checkShared(url);
    if (report.shared.health !== 'connected')
      problems.push({
        severity: 'warning',
        area: 'shared_state',
        message: `shared state ${report.shared.url} unreachable${report.shared.lastError ? ` (${report.shared.lastError})` : ''}: calls use this machine's .toolbox/ meanwhile`,
        fix: 'Start Redis or check the URL, its credentials (TOOLBOX_STATE_PASSWORD) and TLS (rediss://); `--state off` runs without it.',
      });
  }
  report.healthy = !problems.some((p) => p.severity === 'error');
  return report;
}

/** Connect to the shared store, time a PING and read its version (the connection is closed again). */
async function checkShared(url: StateUrl): Promise<SharedStateReport> {
  const { SharedState } = await import('../state/shared.js');
  const s = await SharedState.open(url);
  try {
    const t0 = performance.now();
    const pong = await s.attempt((r) => r.ping());
    const pingMs = pong ? Math.round((performance.now() - t0) * 10) / 10 : undefined;
    const info = pong ? await s.attempt((r) => r.info('server')) : undefined;
    const redisVersion = info ? /redis_version:(\S+)/.exec(info)?.[1] : undefined;
    const st = s.status();
    return {
      url: st.url,
      source: url.source,
      health: st.health,
      ...(st.lastError ? { lastError: st.lastError } : {}),
      ...(pingMs !== undefined ? { pingMs } : {}),
      ...(redisVersion ? { redisVersion } : {}),
    };
  } finally {
    await s.close();
  }
}
