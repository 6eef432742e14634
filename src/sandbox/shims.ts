// pyenv and asdf shims, followed without running them: the version is chosen from the same variables
// and version files the shim would read, and the answer is an installed version's own binary under
// the user's pyenv/asdf folder (or, for pyenv's "system", the next program of that name on PATH).
// What a project's version file can choose is only which of the user's installed versions runs.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { readRegularHead } from '../util/project-file.js';
import { isExecutableFile } from '../util/which.js';

const real = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

// A version file may be planted by the project (a FIFO, a link to /dev/zero): regular files only, 64 KiB at most.
const read = (f: string): string | undefined => readRegularHead(f, 64 * 1024)?.toString('utf8');

/** Version names of a `.python-version` / pyenv `version` file: words, `#` comments skipped. */
export function pyenvVersionWords(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .flatMap((l) => l.split(/\s+/))
    .filter(Boolean);
}

/** Numeric comparison of dotted versions (3.10.2 > 3.9.18). */
function cmpVersion(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : -1));
  const pb = b.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : -1));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

/** An installed version folder for a name: exact, else (as pyenv ≥ 2.3 does) the newest `name.*`. */
function installed(versionsDir: string, name: string): string | undefined {
  if (!name || name.includes('/') || name === '.' || name === '..') return undefined;
  let names: string[];
  try {
    names = readdirSync(versionsDir);
  } catch {
    return undefined;
  }
  if (names.includes(name)) return join(versionsDir, name);
  const prefixed = names.filter((n) => n.startsWith(`${name}.`) && /^[\d.]+$/.test(n)).sort(cmpVersion);
  const pick = prefixed[prefixed.length - 1];
  return pick ? join(versionsDir, pick) : undefined;
}

/** The first version file found from `cwd` up to `/`. */
function versionFileUp(cwd: string, file: string): string | undefined {
  for (let d = cwd; ; d = dirname(d)) {
    const t = read(join(d, file));
    if (t !== undefined) return t;
    if (dirname(d) === d) return undefined;
  }
}

function pyenvTarget(root: string, name: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const words = env.PYENV_VERSION
    ? env.PYENV_VERSION.split(':').filter(Boolean)
    : pyenvVersionWords(versionFileUp(cwd, '.python-version') ?? read(join(root, 'version')) ?? 'system');
  const shims = real(join(root, 'shims'));
  for (const w of words.length ? words : ['system']) {
    if (w === 'system') {
      for (const dir of (env.PATH ?? '').split(delimiter)) {
        if (!isAbsolute(dir) || real(dir) === shims) continue;
        const f = join(dir, name);
        if (isExecutableFile(f)) return f;
      }
      continue;
    }
    const v = installed(join(root, 'versions'), w);
    const f = v && join(v, 'bin', name);
    if (f && isExecutableFile(f)) return f;
  }
  return undefined;
}

function asdfTarget(root: string, name: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const fromFile = () => {
    const text = versionFileUp(cwd, '.tool-versions') ?? read(join(env.HOME ?? homedir(), '.tool-versions')) ?? '';
    const line = text.split('\n').find((l) => /^\s*python\s/.test(l.replace(/#.*/, '')));
    return line ? line.replace(/#.*/, '').trim().split(/\s+/).slice(1) : [];
  };
  const words = env.ASDF_PYTHON_VERSION ? [env.ASDF_PYTHON_VERSION] : fromFile();
  for (const w of words) {
    const v = installed(join(root, 'installs', 'python'), w);
    const f = v && join(v, 'bin', name);
    if (f && isExecutableFile(f)) return f;
  }
  return undefined;
}

/**
 * The program a pyenv or asdf shim at `found` would run for `name`, or undefined when `found` is no
 * such shim (or it selects nothing installed). A shim is a file in a `shims` folder whose parent is
 * a pyenv root (it has `versions/`) or an asdf data folder (`installs/`); $PYENV_ROOT and
 * $ASDF_DATA_DIR are not needed (the shims carry their root). Reads files only.
 */
export function shimTarget(
  found: string,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string | undefined {
  const dir = real(dirname(found));
  if (!dir || !dir.endsWith('/shims')) return undefined;
  const root = dirname(dir);
  if (isDir(join(root, 'versions')) && isDir(join(root, 'libexec'))) return pyenvTarget(root, name, env, cwd);
  if (isDir(join(root, 'installs'))) return asdfTarget(root, name, env, cwd);
  return undefined;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
