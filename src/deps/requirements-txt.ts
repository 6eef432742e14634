/**
 * Turn a tool's `requires.python` (PEP 508 lines, `-r file` items, or the path of a requirements.txt)
 * into checkable lines. Local paths and wheels are kept, with the package name they provide.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { parsePep508 } from './pep508.js';

/** One Python requirement, ready for the checker. */
export interface PyLine {
  /** PEP 508 line sent to the checker ('name' alone for a local path). */
  line: string;
  name: string;
  /** What the user wrote (shown as `wanted`). */
  raw: string;
  /** Absolute path when the requirement is a local file or folder (wheel, sdist, project). */
  localPath?: string;
  /** The requirements file it came from (absolute), if any. */
  file?: string;
}

/** The parsed `requires.python` of one tool. */
export interface PythonDecl {
  lines: PyLine[];
  /** Every requirements file read (absolute), for the cache fingerprint. */
  files: string[];
  /** Set when requires.python is exactly one requirements file (install with `pip install -r`). */
  requirementsFile?: string;
  /** Lines that could not be understood, with why. */
  problems: { raw: string; file?: string; message: string }[];
}

const IGNORED_OPTIONS =
  /^(-i|--index-url|--extra-index-url|-f|--find-links|--no-index|--pre|--prefer-binary|--trusted-host|--no-binary|--only-binary|--require-hashes|-c|--constraint|--use-feature)\b/;

/** Read `requires.python` of a contract in `contractDir`. */
export function parsePythonRequires(value: string[] | string | undefined, contractDir: string): PythonDecl {
  const decl: PythonDecl = { lines: [], files: [], problems: [] };
  if (value === undefined) return decl;
  if (typeof value === 'string') {
    const abs = resolve(contractDir, value);
    if (existsSync(abs) || /\.(txt|in)$/i.test(value) || value.includes('/')) {
      decl.requirementsFile = abs;
      readFile(abs, decl, new Set());
      return decl;
    }
    addLine(value, contractDir, decl, undefined);
    return decl;
  }
  for (const item of value) addLine(item, contractDir, decl, undefined);
  return decl;
}

function readFile(file: string, decl: PythonDecl, seen: Set<string>): void {
  decl.files.push(file);
  if (seen.has(file)) return;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    decl.problems.push({
      raw: file,
      file,
      message: `cannot read requirements file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    });
    return;
  }
  // pip: a trailing backslash continues the line; '#' after whitespace starts a comment.
  const joined = text.replace(/\\\r?\n/g, '');
  for (const rawLine of joined.split(/\r?\n/)) {
    const line = rawLine.replace(/(^|\s)#.*$/, '').trim();
    if (line) addLine(line, dirname(file), decl, file, seen);
  }
}

function addLine(
  input: string,
  base: string,
  decl: PythonDecl,
  file: string | undefined,
  seen = new Set<string>(),
): void {
  const raw = input.trim();
  if (!raw) return;
  const inc = /^(?:-r|--requirement)(?:\s+|=)(.+)$/.exec(raw);
  if (inc) {
    readFile(resolve(base, inc[1]!.trim()), decl, seen);
    return;
  }
  if (IGNORED_OPTIONS.test(raw)) return;
  // Per-requirement options (--hash=...) do not change what must be installed.
  const text = raw
    .replace(/^(?:-e|--editable)(?:\s+|=)/, '')
    .replace(/\s+--[a-z-]+(=\S+)?/g, '')
    .trim();
  if (looksLikePath(text)) {
    const localPath = isAbsolute(text) ? text : resolve(base, text.replace(/^file:(\/\/)?/, ''));
    const name = nameOfLocal(localPath);
    if (!name) {
      decl.problems.push({ raw, file, message: `cannot tell which package the local path ${localPath} provides` });
      return;
    }
    decl.lines.push({ line: name, name, raw, localPath, file });
    return;
  }
  const parsed = parsePep508(text);
  if (!parsed) {
    decl.problems.push({ raw, file, message: `'${raw}' is not a PEP 508 requirement` });
    return;
  }
  const localPath = parsed.url?.startsWith('file:')
    ? decodeURIComponent(parsed.url.replace(/^file:(\/\/)?/, ''))
    : undefined;
  decl.lines.push({ line: text, name: parsed.name, raw, localPath, file });
}

function looksLikePath(s: string): boolean {
  return /^(\.{1,2}\/|\/|~\/|file:)/.test(s) || /\.(whl|tar\.gz|zip|tar\.bz2)$/i.test(s);
}

/** The distribution name a wheel, sdist or project folder provides (best effort, no build). */
export function nameOfLocal(path: string): string | undefined {
  const file = basename(path);
  const wheel = /^([A-Za-z0-9_.]+?)-\d[^-]*(-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$/.exec(file);
  if (wheel) return wheel[1]!;
  const sdist = /^(.+?)-\d[^-]*\.(tar\.gz|zip|tar\.bz2)$/.exec(file);
  if (sdist) return sdist[1]!;
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return undefined;
  }
  if (!isDir) return undefined;
  const read = (f: string) => {
    try {
      return readFileSync(join(path, f), 'utf8');
    } catch {
      return '';
    }
  };
  const pyproject = read('pyproject.toml');
  const project = /^\[project\]\s*$([\s\S]*?)(^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? '';
  const fromProject = /^\s*name\s*=\s*["']([^"']+)["']/m.exec(project)?.[1];
  if (fromProject) return fromProject;
  const cfg = /^\s*name\s*=\s*([A-Za-z0-9._-]+)\s*$/m.exec(read('setup.cfg'))?.[1];
  if (cfg) return cfg;
  return /name\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(read('setup.py'))?.[1];
}
