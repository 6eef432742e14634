/**
 * Turn a tool's `requires.python` (PEP 508 lines, `-r file` items, or the path of a requirements.txt)
 * into checkable lines. Local paths and wheels are kept, with the package name they provide.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { readProjectText, readProjectTextIfAny } from '../util/project-file.js';
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

/** A requirements file, as pip names them: `requirements.txt`, `dev.in`, … (nothing else is read as one). */
export const REQUIREMENTS_NAME = /\.(txt|in)$/i;

/** Whether a string `requires.python` names a file (it exists, is named like one, or is a path). */
export function namesRequirementsFile(value: string, contractDir: string): boolean {
  return existsSync(resolve(contractDir, value)) || REQUIREMENTS_NAME.test(value) || value.includes('/');
}

/** Read `requires.python` of a contract in `contractDir`, in the project `root` (its requirements files lie inside). */
export function parsePythonRequires(
  value: string[] | string | undefined,
  contractDir: string,
  root: string,
): PythonDecl {
  const decl: PythonDecl = { lines: [], files: [], problems: [] };
  if (value === undefined) return decl;
  const ctx: Ctx = { decl, root, seen: new Set() };
  if (typeof value === 'string') {
    const abs = resolve(contractDir, value);
    if (namesRequirementsFile(value, contractDir)) {
      decl.requirementsFile = abs;
      readFile(ctx, abs);
      return decl;
    }
    addLine(ctx, value, contractDir, undefined);
    return decl;
  }
  for (const item of value) addLine(ctx, item, contractDir, undefined);
  return decl;
}

interface Ctx {
  decl: PythonDecl;
  root: string;
  seen: Set<string>;
}

/** Where a line of a requirements file is, for messages (never the line itself). */
interface At {
  file: string;
  line: number;
}

const shown = (ctx: Ctx, f: string) => relative(ctx.root, f) || f;

// A requirements file is read through the project-file reader (inside the project, a regular file,
// no credentials, bounded) and only when it is named like one: a contract's `requires.python:
// /proc/self/environ` or `config/keys.yaml` is refused unread. What a file holds is never quoted back
// in messages (they reach `run`'s caller, serve's clients and the model): a requirement's name,
// with its version when that is plain, or the file:line of a line that is not a requirement.
function readFile(ctx: Ctx, file: string): void {
  const { decl } = ctx;
  decl.files.push(file);
  if (ctx.seen.has(file)) return;
  ctx.seen.add(file);
  if (!REQUIREMENTS_NAME.test(file)) {
    decl.problems.push({
      raw: shown(ctx, file),
      file,
      message: `${shown(ctx, file)} is not named like a requirements file (*.txt or *.in): not read`,
    });
    return;
  }
  let text: string;
  try {
    text = readProjectText(ctx.root, file, { max: 256 * 1024 });
  } catch (e) {
    decl.problems.push({ raw: shown(ctx, file), file, message: `requirements file ${(e as Error).message}` });
    return;
  }
  // pip: a trailing backslash continues the line; '#' after whitespace starts a comment.
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let rawLine = lines[i]!;
    while (/\\$/.test(rawLine) && i + 1 < lines.length) rawLine = rawLine.slice(0, -1) + lines[++i]!;
    const line = rawLine.replace(/(^|\s)#.*$/, '').trim();
    if (line) addLine(ctx, line, dirname(file), { file, line: start + 1 });
  }
}

/** A plain version specifier (`>=2.1,<3`): digits and operators only, safe to show. */
const PLAIN_SPECIFIER =
  /^(\s*(===?|!=|~=|<=?|>=?)\s*[0-9][0-9A-Za-z.*]*\s*)(,\s*(===?|!=|~=|<=?|>=?)\s*[0-9][0-9A-Za-z.*]*\s*)*$/;

function addLine(ctx: Ctx, input: string, base: string, at: At | undefined): void {
  const { decl } = ctx;
  const file = at?.file;
  const where = at ? `line ${at.line} of ${shown(ctx, at.file)}` : undefined;
  const raw = input.trim();
  if (!raw) return;
  const inc = /^(?:-r|--requirement)(?:\s+|=)(.+)$/.exec(raw);
  if (inc) {
    readFile(ctx, resolve(base, inc[1]!.trim()));
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
    const name = nameOfLocal(localPath, ctx.root);
    if (!name) {
      decl.problems.push(
        where
          ? {
              raw: `${shown(ctx, at!.file)}:${at!.line}`,
              file,
              message: `${where}: cannot tell which package its local path provides`,
            }
          : { raw, file, message: `cannot tell which package the local path ${localPath} provides` },
      );
      return;
    }
    decl.lines.push({ line: name, name, raw: where ? name : raw, localPath, file });
    return;
  }
  const parsed = parsePep508(text);
  if (!parsed) {
    decl.problems.push(
      where
        ? { raw: `${shown(ctx, at!.file)}:${at!.line}`, file, message: `${where} is not a PEP 508 requirement` }
        : { raw, file, message: `'${raw}' is not a PEP 508 requirement` },
    );
    return;
  }
  const localPath = parsed.url?.startsWith('file:')
    ? decodeURIComponent(parsed.url.replace(/^file:(\/\/)?/, ''))
    : undefined;
  // From a file: the name, and the version range when it is plain (never a URL, a marker or an option).
  const spec = parsed.specifier && PLAIN_SPECIFIER.test(parsed.specifier) ? parsed.specifier : '';
  decl.lines.push({ line: text, name: parsed.name, raw: where ? `${parsed.name}${spec}` : raw, localPath, file });
}

function looksLikePath(s: string): boolean {
  return /^(\.{1,2}\/|\/|~\/|file:)/.test(s) || /\.(whl|tar\.gz|zip|tar\.bz2)$/i.test(s);
}

/**
 * The distribution name a wheel, sdist or project folder provides (best effort, no build). A folder's
 * metadata files are read only inside the project `root`.
 */
export function nameOfLocal(path: string, root: string): string | undefined {
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
  const read = (f: string) => readProjectTextIfAny(root, join(path, f)) ?? '';
  const pyproject = read('pyproject.toml');
  const project = /^\[project\]\s*$([\s\S]*?)(^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? '';
  const fromProject = /^\s*name\s*=\s*["']([^"']+)["']/m.exec(project)?.[1];
  if (fromProject) return fromProject;
  const cfg = /^\s*name\s*=\s*([A-Za-z0-9._-]+)\s*$/m.exec(read('setup.cfg'))?.[1];
  if (cfg) return cfg;
  return /name\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(read('setup.py'))?.[1];
}
