/**
 * Managed server installs for `toolbox import mcp`: an npm package or a PyPI package installed
 * once into .toolbox/servers/<name>/ (outside the sandbox, where the registry is reachable), pinned
 * to the version that resolved, so every later start inside the sandbox needs no network.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Project } from '../config.js';
import { ExitCode, ToolboxError, usageError } from '../errors.js';
import { runProcess } from '../deps/util.js';
import { writeFileAtomic } from '../util/fs.js';
import { checkState } from '../util/state.js';

/** What was installed: written into each contract's loader_config.package (and toolbox.lock). */
export interface ServerPackage {
  registry: 'npm' | 'pypi';
  name: string;
  version: string;
  /** npm: the lockfile's integrity (sha512-…); pypi: sha256 of the archive pip installed, when it reports one. */
  integrity?: string;
}

/** A managed server ready to start: its command relative to the project root. */
export interface ManagedServer {
  package: ServerPackage;
  /** Install folder, absolute. */
  dir: string;
  /** The program to start, relative to the project root (`.toolbox/servers/x/node_modules/.bin/y`). */
  command: string;
  /** True when this call ran the installer; false when the pinned version was already there. */
  installed: boolean;
  /** Lifecycle scripts (npm) or source builds (pip) were allowed. */
  scripts: boolean;
}

export interface InstallOptions {
  allowScripts?: boolean;
  /** The program to start when the package has several (npx -p PKG CMD, uvx --from PKG CMD). */
  bin?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;
const PYPI_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** `@scope/name@1.2.3` → name + version (undefined when none was given). */
export function splitNpmSpec(spec: string): { name: string; version?: string } {
  const at = spec.indexOf('@', 1);
  const name = at > 0 ? spec.slice(0, at) : spec;
  const version = at > 0 ? spec.slice(at + 1) : undefined;
  if (!NPM_NAME.test(name) || version === '')
    throw usageError(
      'bad_package',
      `'${spec}' is not an npm package name`,
      'Give NAME or NAME@VERSION, e.g. --npm @modelcontextprotocol/server-everything@2026.8.31.',
    );
  return { name, version };
}

/** `name==1.2` (or `name@1.2`, uvx style) → name + version. */
export function splitPypiSpec(spec: string): { name: string; version?: string } {
  const m = /^([^=@<>!~ ]+)(?:(?:==|@)([^=@<>!~ ]+))?$/.exec(spec);
  if (!m || !PYPI_NAME.test(m[1]!))
    throw usageError(
      'bad_package',
      `'${spec}' is not a PyPI package name`,
      'Give NAME or NAME==VERSION, e.g. --pypi mcp-server-fetch==2025.4.7.',
    );
  return { name: m[1]!, version: m[2] };
}

/** The install folder's name: the package name without `@` and `/`, e.g. modelcontextprotocol-server-everything. */
export const serverDirName = (name: string) => name.replace(/^@/, '').replace(/\//g, '-').toLowerCase();

const rel = (project: Project, p: string) => relative(project.root, p).split(sep).join('/');

function installFailed(
  what: string,
  r: { code: number | null; stderr: string; error?: string },
  fix: string,
): ToolboxError {
  const tail = (r.error ?? r.stderr).trim().split('\n').slice(-8).join('\n');
  return new ToolboxError('server_install_failed', `${what} failed${tail ? `:\n${tail}` : ''}`, {
    exitCode: ExitCode.missingDeps,
    hint: fix,
  });
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The program of an npm package that `npx <pkg>` would start: the only bin, or the one named like the package. */
function npmBin(pkgJson: Record<string, unknown>, name: string, want?: string): string {
  const base = name.replace(/^@[^/]+\//, '');
  const bin = pkgJson.bin;
  const bins = typeof bin === 'string' ? [base] : Object.keys((bin as Record<string, string> | undefined) ?? {});
  const pick = want ?? (bins.length === 1 ? bins[0] : bins.find((b) => b === base));
  if (pick && bins.includes(pick)) return pick;
  throw usageError(
    'server_bin_unknown',
    bins.length
      ? `package ${name} has several programs (${bins.join(', ')}); which one starts the server?`
      : `package ${name} has no program (no "bin" in its package.json)`,
    bins.length
      ? `Name it: \`toolbox import mcp -- npx -y -p ${name} ${bins[0]}\`.`
      : 'It cannot be started as an MCP server by name.',
  );
}

/** Install an npm package into .toolbox/servers/<name>/ with lifecycle scripts off (unless allowed). */
export async function installNpmServer(
  project: Project,
  spec: string,
  opts: InstallOptions = {},
): Promise<ManagedServer> {
  const { name, version } = splitNpmSpec(spec);
  // .toolbox/servers/<name> must be toolbox's own folder (util/state.ts): never a link planted by the project.
  checkState(project.stateDir, [`servers/${serverDirName(name)}/`]);
  const dir = join(project.stateDir, 'servers', serverDirName(name));
  const pkgFile = join(dir, 'node_modules', ...name.split('/'), 'package.json');
  const have = readJson(pkgFile)?.version as string | undefined;
  // Without a version an installed copy is reused (pinned); a version or tag asks the registry.
  const needed = !have || (version !== undefined && version !== have);
  if (needed) {
    mkdirSync(dir, { recursive: true });
    // A package.json of its own, so npm never walks up into the user's project.
    if (!existsSync(join(dir, 'package.json')))
      writeFileAtomic(
        join(dir, 'package.json'),
        `${JSON.stringify({ name: `toolbox-server-${serverDirName(name)}`, private: true }, null, 2)}\n`,
      );
    const args = ['install', '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', dir];
    if (!opts.allowScripts) args.push('--ignore-scripts');
    const r = await runProcess('npm', [...args, version ? `${name}@${version}` : name], {
      env: opts.env ?? process.env,
      cwd: dir,
      signal: opts.signal,
      timeoutMs: 300_000,
    });
    if (r.code !== 0)
      throw installFailed(
        `npm install ${spec}`,
        r,
        `Check the name and version on the npm registry, then run \`npm install ${spec}\` in ${dir} to see npm's full output.`,
      );
  }
  const pkg = readJson(pkgFile);
  if (!pkg)
    throw installFailed(
      `npm install ${spec}`,
      { code: 1, stderr: `${pkgFile} missing after install` },
      'Run the install by hand to see why.',
    );
  const lock = readJson(join(dir, 'package-lock.json'));
  const entry = (lock?.packages as Record<string, { integrity?: string }> | undefined)?.[`node_modules/${name}`];
  const bin = npmBin(pkg, name, opts.bin);
  return {
    package: {
      registry: 'npm',
      name,
      version: pkg.version as string,
      ...(entry?.integrity ? { integrity: entry.integrity } : {}),
    },
    dir,
    command: rel(project, join(dir, 'node_modules', '.bin', bin)),
    installed: needed,
    scripts: Boolean(opts.allowScripts),
  };
}

const PY_META = `import importlib.metadata as m, json, sys
d = m.distribution(sys.argv[1])
print(json.dumps({"version": d.version, "scripts": [e.name for e in d.entry_points if e.group == "console_scripts"]}))`;

/**
 * Install a PyPI package into a venv at .toolbox/servers/<name>/venv. Without --allow-scripts only
 * wheels are accepted (`--only-binary :all:`): building an sdist runs the package's own setup code.
 */
export async function installPypiServer(
  project: Project,
  spec: string,
  opts: InstallOptions = {},
): Promise<ManagedServer> {
  const { name, version } = splitPypiSpec(spec);
  const env = opts.env ?? process.env;
  checkState(project.stateDir, [`servers/${serverDirName(name)}/`]);
  const dir = join(project.stateDir, 'servers', serverDirName(name));
  const venv = join(dir, 'venv');
  const py = join(venv, 'bin', 'python');
  const meta = async () => {
    const r = await runProcess(py, ['-c', PY_META, name], { env, cwd: dir, signal: opts.signal });
    return r.code === 0 ? (JSON.parse(r.stdout) as { version: string; scripts: string[] }) : undefined;
  };
  let info = existsSync(py) ? await meta() : undefined;
  const needed = !info || (version !== undefined && version !== info.version);
  let integrity: string | undefined;
  if (needed) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(py)) {
      const v = await runProcess('python3', ['-m', 'venv', venv], { env, cwd: dir, signal: opts.signal });
      if (v.code !== 0) throw installFailed('python3 -m venv', v, 'Install python3 with the venv module.');
    }
    const report = join(dir, 'pip-report.json');
    const args = ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', '--report', report];
    if (!opts.allowScripts) args.push('--only-binary', ':all:');
    const r = await runProcess(py, [...args, version ? `${name}==${version}` : name], {
      env,
      cwd: dir,
      signal: opts.signal,
      timeoutMs: 300_000,
    });
    if (r.code !== 0)
      throw installFailed(
        `pip install ${spec}`,
        r,
        opts.allowScripts
          ? `Run \`${py} -m pip install ${spec}\` to see pip's full output.`
          : "Only wheels are installed without --allow-scripts (building from source runs the package's own code); check the name and version.",
      );
    const rep = readJson(report) as
      | {
          install?: {
            metadata?: { name?: string };
            download_info?: { archive_info?: { hashes?: { sha256?: string } } };
          }[];
        }
      | undefined;
    const mine = rep?.install?.find(
      (i) => i.metadata?.name?.toLowerCase().replace(/_/g, '-') === name.toLowerCase().replace(/_/g, '-'),
    );
    const sha = mine?.download_info?.archive_info?.hashes?.sha256;
    if (sha) integrity = `sha256-${Buffer.from(sha, 'hex').toString('base64')}`;
    info = await meta();
  } else {
    integrity = readJson(join(dir, 'integrity.json'))?.integrity as string | undefined;
  }
  if (!info)
    throw installFailed(
      `pip install ${spec}`,
      { code: 1, stderr: `${name} is not importable after install` },
      'Run the install by hand to see why.',
    );
  if (integrity) writeFileAtomic(join(dir, 'integrity.json'), `${JSON.stringify({ integrity })}\n`);
  const base = name.toLowerCase();
  const bin =
    opts.bin ?? (info.scripts.length === 1 ? info.scripts[0] : info.scripts.find((s) => s.toLowerCase() === base));
  if (!bin || !info.scripts.includes(bin))
    throw usageError(
      'server_bin_unknown',
      info.scripts.length
        ? `package ${name} has several programs (${info.scripts.join(', ')}); which one starts the server?`
        : `package ${name} installs no program (no console_scripts entry point)`,
      info.scripts.length
        ? `Name it: \`toolbox import mcp -- uvx --from ${name} ${info.scripts[0]}\`.`
        : 'It cannot be started as an MCP server by name.',
    );
  return {
    package: { registry: 'pypi', name, version: info.version, ...(integrity ? { integrity } : {}) },
    dir,
    command: rel(project, join(venv, 'bin', bin)),
    installed: needed,
    scripts: Boolean(opts.allowScripts),
  };
}
