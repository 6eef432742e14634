/**
 * Managed server installs for `toolbox import mcp`: an npm package or a PyPI package installed
 * once into .toolbox/servers/<name>/ (outside the sandbox, where the registry is reachable), pinned
 * to the version that resolved, so every later start inside the sandbox needs no network.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Project } from '../config.js';
import { ExitCode, ToolboxError, usageError } from '../errors.js';
import { buildFresh } from '../util/fresh-dir.js';
import { writeFileAtomic } from '../util/fs.js';
import { checkState } from '../util/state.js';
import { asVenv, runHost, trustInterpreter, type TrustedInterpreter } from '../util/host-process.js';
import { ownedRecord, recordOwned } from '../util/owned-dirs.js';
import { treeHash } from '../util/tree-hash.js';
import { npmConfigArgs } from './npm-config.js';
import { NPM_NET_ARGS, PIP_NET_ARGS, unreachableIndex, unreachableText } from '../util/index-bounds.js';
import { serverDirName } from '../lock/server-files.js';

/** What was installed: written into each contract's loader_config.package (and toolbox.lock). */
export interface ServerPackage {
  registry: 'npm' | 'pypi';
  name: string;
  version: string;
  /** npm: the lockfile's integrity (sha512-…); pypi: sha256 of the archive pip installed, when it reports one. */
  integrity?: string;
  /** sha256 of every file toolbox installed (util/tree-hash.ts): checked on reuse and by `run --locked`. */
  files?: string;
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

const rel = (project: Project, p: string) => relative(project.root, p).split(sep).join('/');

function installFailed(
  what: string,
  r: { code: number | null; stderr: string; error?: string },
  fix: string,
): ToolboxError {
  const gone = unreachableIndex(r.stderr);
  if (gone) {
    const t = unreachableText(gone, what.startsWith('npm') ? 'npm' : 'pip');
    return new ToolboxError('server_install_failed', `${what} failed: ${t.error}`, {
      exitCode: ExitCode.missingDeps,
      hint: t.fix,
      details: { index: gone.index },
    });
  }
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

const STORE = 'servers.json';

/**
 * The install at `dir` when toolbox made it and nothing in it changed since: the user's cache
 * records the folder (util/owned-dirs.ts) and the hash of every file in it, re-computed here. A
 * folder a repository shipped, or one edited after the install, is not reused.
 */
function verifiedInstall(dir: string, registry: ServerPackage['registry'], name: string): ServerPackage | undefined {
  const rec = ownedRecord(STORE, dir);
  const pkg = rec?.package as ServerPackage | undefined;
  if (!pkg || pkg.registry !== registry || pkg.name !== name || typeof pkg.files !== 'string') return undefined;
  try {
    return treeHash(dir) === pkg.files ? pkg : undefined;
  } catch {
    return undefined;
  }
}

/** Hash the fresh install and record it as toolbox's; the package gains `files`. */
function recordInstall(dir: string, pkg: ServerPackage): ServerPackage {
  const done = { ...pkg, files: treeHash(dir) };
  if (!recordOwned(STORE, dir, { package: done }))
    throw installFailed(
      `recording the install of ${pkg.name}`,
      { code: 1, stderr: 'no safe cache folder (~/.cache/toolbox) to record it in' },
      'Make ~/.cache/toolbox a folder of yours (mode 0700).',
    );
  return done;
}

/**
 * Install an npm package into .toolbox/servers/<name>/: a fresh folder (whatever was there is moved
 * aside and never run), npm's project and user config out of reach (npm-config.ts), lifecycle
 * scripts and git dependencies off unless allowed. An earlier install is reused only when toolbox
 * recorded it and its files are unchanged.
 */
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
  const have = verifiedInstall(dir, 'npm', name);
  // Without a version a verified install is reused (pinned); a version or tag asks the registry.
  const needed = !have || (version !== undefined && version !== have.version);
  let recorded = have;
  if (needed) {
    const env = opts.env ?? process.env;
    recorded = await buildFresh(
      dir,
      async () => {
        mkdirSync(dir, { recursive: true });
        // A package.json of its own, so npm never walks up into the user's project.
        writeFileAtomic(
          join(dir, 'package.json'),
          `${JSON.stringify({ name: `toolbox-server-${serverDirName(name)}`, private: true }, null, 2)}\n`,
        );
        const cfg = npmConfigArgs(env);
        const args = ['install', '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', dir];
        args.push(...NPM_NET_ARGS);
        args.push(...cfg.args, '--update-notifier=false');
        if (!opts.allowScripts) args.push('--ignore-scripts', '--git=/bin/false');
        let r;
        try {
          r = await runHost('npm', [...args, version ? `${name}@${version}` : name], {
            env,
            cwd: dir,
            signal: opts.signal,
            timeoutMs: 300_000,
          });
        } finally {
          cfg.cleanup();
        }
        if (r.code !== 0)
          throw installFailed(
            `npm install ${spec}`,
            r,
            `Check the name and version on the npm registry, then run \`npm install ${spec}\` in an empty folder to see npm's full output.`,
          );
        const pkg = readJson(pkgFile);
        if (!pkg)
          throw installFailed(
            `npm install ${spec}`,
            { code: 1, stderr: `${pkgFile} missing after install` },
            'Run the install by hand to see why.',
          );
        const lock = readJson(join(dir, 'package-lock.json'));
        const entry = (lock?.packages as Record<string, { integrity?: string }> | undefined)?.[`node_modules/${name}`];
        return recordInstall(dir, {
          registry: 'npm',
          name,
          version: pkg.version as string,
          ...(entry?.integrity ? { integrity: entry.integrity } : {}),
        });
      },
      () => true,
    );
  }
  const bin = npmBin(readJson(pkgFile) ?? {}, name, opts.bin);
  return {
    package: recorded!,
    dir,
    command: rel(project, join(dir, 'node_modules', '.bin', bin)),
    installed: needed,
    scripts: Boolean(opts.allowScripts),
  };
}

/** The version and console scripts of an installed distribution, read from its .dist-info (nothing is run). */
function distInfo(venv: string, name: string): { version: string; scripts: string[] } | undefined {
  const canon = (n: string) => n.toLowerCase().replace(/[-_.]+/g, '_');
  let site: string | undefined;
  try {
    const lib = join(venv, 'lib');
    const py = readdirSync(lib).find((d) => /^python\d/.test(d));
    site = py && join(lib, py, 'site-packages');
  } catch {
    return undefined;
  }
  if (!site) return undefined;
  let info: string | undefined;
  try {
    info = readdirSync(site).find(
      (d) => d.endsWith('.dist-info') && canon(d.replace(/-[^-]+\.dist-info$/, '')) === canon(name),
    );
  } catch {
    return undefined;
  }
  if (!info) return undefined;
  const read = (f: string) => {
    try {
      return readFileSync(join(site, info, f), 'utf8');
    } catch {
      return '';
    }
  };
  const version = /^Version:\s*(\S+)/m.exec(read('METADATA'))?.[1];
  if (!version) return undefined;
  const eps = read('entry_points.txt');
  const section = /^\[console_scripts\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(eps)?.[1] ?? '';
  const scripts = [...section.matchAll(/^\s*([^=\s#][^=]*?)\s*=/gm)].map((m) => m[1]!);
  return { version, scripts };
}

/**
 * Install a PyPI package into a venv at .toolbox/servers/<name>/venv: a fresh folder made by a
 * trusted Python (host-process.ts), pip run as that venv's Python in isolated mode, and only wheels
 * (`--only-binary :all:`) without --allow-scripts: building an sdist runs the package's own setup
 * code. What was installed is read from its .dist-info, never by running the venv's Python.
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
  const have = verifiedInstall(dir, 'pypi', name);
  const needed = !have || (version !== undefined && version !== have.version);
  let recorded = have;
  if (needed) {
    const base = await trustedPython(env);
    recorded = await buildFresh(
      dir,
      async () => {
        mkdirSync(dir, { recursive: true });
        const v = await runHost(base, ['-m', 'venv', venv], { env, cwd: dir, signal: opts.signal, timeoutMs: 300_000 });
        if (v.code !== 0) throw installFailed('python3 -m venv', v, 'Install python3 with the venv module.');
        const report = join(dir, 'pip-report.json');
        const args = [
          '-m',
          'pip',
          'install',
          '--disable-pip-version-check',
          '--no-input',
          '--quiet',
          '--report',
          report,
          ...PIP_NET_ARGS,
        ];
        if (!opts.allowScripts) args.push('--only-binary', ':all:');
        const r = await runHost(asVenv(base, venv), [...args, version ? `${name}==${version}` : name], {
          env: { ...env, PIP_REQUIRE_VIRTUALENV: '1' },
          cwd: dir,
          signal: opts.signal,
          timeoutMs: 300_000,
          path: 'absolute',
        });
        if (r.code !== 0)
          throw installFailed(
            `pip install ${spec}`,
            r,
            opts.allowScripts
              ? `Run \`python3 -m pip install ${spec}\` in a fresh venv to see pip's full output.`
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
        const canon = (n: string) => n.toLowerCase().replace(/[-_.]+/g, '-');
        const mine = rep?.install?.find((i) => canon(i.metadata?.name ?? '') === canon(name));
        const sha = mine?.download_info?.archive_info?.hashes?.sha256;
        const info = distInfo(venv, name);
        if (!info)
          throw installFailed(
            `pip install ${spec}`,
            { code: 1, stderr: `${name} has no .dist-info after install` },
            'Run the install by hand to see why.',
          );
        return recordInstall(dir, {
          registry: 'pypi',
          name,
          version: info.version,
          ...(sha ? { integrity: `sha256-${Buffer.from(sha, 'hex').toString('base64')}` } : {}),
        });
      },
      () => true,
    );
  }
  const info = distInfo(venv, name) ?? { version: recorded!.version, scripts: [] };
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
    package: recorded!,
    dir,
    command: rel(project, join(venv, 'bin', bin)),
    installed: needed,
    scripts: Boolean(opts.allowScripts),
  };
}

/** python3 as found on PATH (shims followed), when it is one toolbox may run on the host. */
async function trustedPython(env: NodeJS.ProcessEnv): Promise<TrustedInterpreter> {
  const { resolveInterpreter } = await import('../sandbox/index.js');
  let path: string | undefined;
  try {
    path = (await resolveInterpreter('python3')).path;
  } catch (e) {
    throw installFailed('finding python3', { code: 1, stderr: (e as Error).message }, 'Install python3.');
  }
  const t = trustInterpreter(path, env);
  if (!t)
    throw installFailed(
      'finding python3',
      { code: 1, stderr: `${path} is not a Python toolbox runs outside the sandbox` },
      'Put a system Python (or one installed with pyenv, asdf, mise, uv or conda) first on PATH.',
    );
  return t;
}
