/**
 * Executables: on PATH (or at a path relative to the project root), optionally at a minimum
 * version read from `<bin> --version` (first version-looking token, compared with semver). The
 * version probe runs in the sandbox, with one of a fixed set of flags, and never for a program
 * that is a file of the project (that one is checked for existence only).
 */
import type { RequirementResult } from './types.js';
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { VERSION_FLAGS, type BinRequirement } from '../contract/types.js';
import { which, type Watch } from './util.js';

/** Debian package names of common executables, for `apt-get install` hints. */
const APT: Record<string, string> = {
  git: 'git',
  curl: 'curl',
  wget: 'wget',
  jq: 'jq',
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
  rg: 'ripgrep',
  fdfind: 'fd-find',
  convert: 'imagemagick',
  magick: 'imagemagick',
  pandoc: 'pandoc',
  bwrap: 'bubblewrap',
  python3: 'python3',
  pip3: 'python3-pip',
  node: 'nodejs',
  npm: 'npm',
  npx: 'npm',
  unzip: 'unzip',
  zip: 'zip',
  make: 'make',
  gcc: 'gcc',
  'g++': 'g++',
  sqlite3: 'sqlite3',
  psql: 'postgresql-client',
  mysql: 'default-mysql-client',
  'redis-cli': 'redis-tools',
  gs: 'ghostscript',
  tesseract: 'tesseract-ocr',
  pdftotext: 'poppler-utils',
  pdfinfo: 'poppler-utils',
  dot: 'graphviz',
  xmllint: 'libxml2-utils',
  rsync: 'rsync',
  ssh: 'openssh-client',
  docker: 'docker.io',
  java: 'default-jre',
  ruby: 'ruby',
  perl: 'perl',
  go: 'golang-go',
  cargo: 'cargo',
  rustc: 'rustc',
  uv: 'uv',
  sox: 'sox',
  exiftool: 'libimage-exiftool-perl',
  gh: 'gh',
  yq: 'yq',
  xz: 'xz-utils',
  zstd: 'zstd',
  '7z': 'p7zip-full',
  file: 'file',
};

export function normalizeBin(b: string | BinRequirement): BinRequirement {
  return typeof b === 'string' ? { name: b } : b;
}

function installHint(name: string, env: NodeJS.ProcessEnv, root: string): string {
  const base = name.split('/').pop()!;
  // Servers `toolbox import mcp` installed live in the (uncommitted) state folder: install again.
  if (name.startsWith('.toolbox/servers/'))
    return `run \`toolbox import mcp\` again to reinstall the server (see loader_config.package)`;
  if (name.includes('/')) return `make ${name} exist and be executable`;
  const apt = APT[base];
  if (apt && which('apt-get', env, root)) return `apt-get install ${apt}`;
  if (apt && which('brew', env, root)) return `brew install ${apt}`;
  return `install ${base} and put it on PATH`;
}

/** The first version-looking token of a `--version` output. */
export function versionToken(text: string): string | undefined {
  return /\d+\.\d+(?:\.\d+)?/.exec(text)?.[0] ?? /\b\d+\b/.exec(text)?.[0];
}

/** `file` (after symlinks) lies in `root` (after symlinks). */
function inside(file: string, root: string): boolean {
  try {
    const f = realpathSync(file);
    const r = realpathSync(root);
    return f === r || f.startsWith(r + sep);
  } catch {
    return true;
  }
}

/**
 * `<program> <flag>` in the sandbox (network closed, 10 s): what it printed, or why it could not run.
 * The program is a host program (never a project file) and the flag one of VERSION_FLAGS.
 */
async function probeVersion(path: string, flag: string): Promise<{ text: string; error?: string }> {
  const { resolveInterpreter, runSandboxed, DEFAULT_LIMITS } = await import('../sandbox/index.js');
  try {
    const prog = await resolveInterpreter(path);
    const r = await runSandboxed({
      command: prog.path,
      args: [flag],
      env: {},
      readOnlyPaths: prog.readOnlyPaths,
      network: false,
      limits: { ...DEFAULT_LIMITS, timeoutMs: 10_000 },
    });
    return { text: `${r.stdout}\n${r.stderr}`, ...(r.limit ? { error: `stopped: ${r.limit}` } : {}) };
  } catch (e) {
    return { text: '', error: (e as Error).message };
  }
}

/** Check one executable. */
export async function checkBin(
  req: BinRequirement,
  root: string,
  env: NodeJS.ProcessEnv,
  watch: Watch,
): Promise<RequirementResult> {
  const row: RequirementResult = {
    kind: 'bin',
    name: req.name,
    wanted: req.version ?? '*',
    found: null,
    status: 'ok',
    fix: null,
  };
  const path = which(req.name, env, root, watch);
  if (!path) {
    // PATH itself is part of the fingerprint, so an absent executable needs no watch entry.
    return { ...row, status: 'missing', fix: installHint(req.name, env, root) };
  }
  row.found = path;
  if (!req.version) return row;
  const { default: semver } = await import('semver');
  if (!semver.validRange(req.version))
    return {
      ...row,
      status: 'error',
      detail: `'${req.version}' is not a version range`,
      fix: "fix requires.bins: use a range such as '>=2.30'",
    };
  // A program of the project is never run to ask its version (toolbox would run the project's code
  // outside any tool call): its presence is what is checked.
  if (req.name.includes('/') || inside(path, root))
    return {
      ...row,
      detail: `version not checked: ${req.name} is a file of the project, which toolbox does not run to ask`,
    };
  const flag = req.version_flag ?? '--version';
  if (!(VERSION_FLAGS as readonly string[]).includes(flag))
    return {
      ...row,
      status: 'error',
      detail: `version_flag '${flag}' is not one toolbox uses`,
      fix: `set version_flag to one of ${VERSION_FLAGS.join(', ')} (or leave it out)`,
    };
  const r = await probeVersion(path, flag);
  const token = versionToken(r.text);
  const coerced = token ? semver.coerce(token) : null;
  if (!coerced) {
    return {
      ...row,
      status: 'error',
      detail: `'${req.name} ${flag}' printed no version${r.error ? ` (${r.error})` : ''}`,
      fix: `set version_flag to the flag that prints ${req.name}'s version (${VERSION_FLAGS.join(', ')})`,
    };
  }
  row.found = token!;
  if (!semver.satisfies(coerced, req.version))
    return { ...row, status: 'wrong_version', fix: `${installHint(req.name, env, root)} (need ${req.version})` };
  return row;
}
