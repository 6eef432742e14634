/**
 * What `deps --install` hands pip, decided here rather than by pip: a tool's `requires.python` and
 * its requirements files are project files, and pip would act on everything in them (build an sdist
 * or a local folder by running its setup code, clone a VCS URL, follow a --find-links or an index the
 * project names, expand ${VARS} from the user's environment into URLs). Without --allow-local only
 * what installs without running code is accepted: names with versions, markers and extras, wheels
 * (local `.whl` files or https URLs ending in `.whl`), `--hash` pins and a few options that only
 * narrow what pip may pick. Everything else is refused with its file:line. The accepted lines are
 * written into a requirements file toolbox owns, with absolute paths, and pip also gets
 * `--only-binary :all:`.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { readProjectText } from '../util/project-file.js';
import { parsePep508 } from './pep508.js';
import { namesRequirementsFile, REQUIREMENTS_NAME } from './requirements-txt.js';

/** One requirement line kept for pip (already rewritten: absolute paths, per-line --hash options kept). */
export interface PlanLine {
  text: string;
  /** Where it came from, for messages. */
  where: string;
}

/** The requirements and options pip will get, or why not. */
export interface PipPlan {
  requirements: PlanLine[];
  constraints: PlanLine[];
  /** Global options that only narrow what pip may pick (--pre, --require-hashes, --no-index). */
  options: string[];
  /** Every requirement is a local file: pip needs no index. */
  allLocal: boolean;
  /** The first line refused: `raw` is '' for a line of a requirements file (its text is never quoted back). */
  refused?: { where: string; raw: string; why: string };
}

/** Options that only narrow what pip may pick (kept), or that toolbox sets itself (dropped). */
const KEEP = new Set(['--pre', '--require-hashes', '--no-index']);
const DROP = /^(--prefer-binary|--only-binary(?:[= ]\S+)?)$/;
/** Options refused, with the reason shown. */
const REFUSE: [RegExp, string][] = [
  [/^(-e|--editable)\b/, 'an editable requirement is built by running its setup code'],
  [/^(-f|--find-links)\b/, 'a --find-links location chosen by the project'],
  [
    /^(-i|--index-url|--extra-index-url)\b/,
    'a package index chosen by the project (set yours in pip.conf or PIP_INDEX_URL)',
  ],
  [/^--trusted-host\b/, 'a --trusted-host chosen by the project'],
  [/^--no-binary\b/, '--no-binary makes pip build from source'],
  [/^(--global-option|--install-option|--config-settings|-C)\b/, 'build options run a build'],
  [/^(--no-build-isolation|--use-pep517|--no-use-pep517|--use-feature)\b/, 'an option about building from source'],
];

const VCS = /^(git|hg|svn|bzr)\+/i;

function refuse(plan: PipPlan, where: string, raw: string, why: string): void {
  plan.refused ??= { where, raw, why };
}

/** `path` (relative to `base`) as pip would take it from a requirements file. */
function localPath(text: string, base: string): string {
  const p = text.replace(/^file:(\/\/)?/, '');
  return isAbsolute(p) ? p : resolve(base, p);
}

/** A URL path ends in .whl (query and fragment aside). */
function wheelUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && /\.whl$/i.test(decodeURIComponent(u.pathname));
  } catch {
    return false;
  }
}

/** One logical requirement line (file, option or requirement) into the plan. */
function addLine(
  plan: PipPlan,
  root: string,
  raw: string,
  base: string,
  where: string,
  into: PlanLine[],
  seen: Set<string>,
): void {
  if (raw.includes('${')) {
    // pip expands ${VAR} from the environment: the user's variables must not end up in a URL the project chose.
    refuse(plan, where, raw, 'a ${VARIABLE} reference (pip would fill in your environment variable)');
    return;
  }
  const inc = /^(-r|--requirement|-c|--constraint)(?:\s+|=)(.+)$/.exec(raw);
  if (inc) {
    const constraint = inc[1] === '-c' || inc[1] === '--constraint';
    readInto(plan, root, resolve(base, inc[2]!.trim()), constraint ? plan.constraints : into, seen);
    return;
  }
  if (raw.startsWith('-')) {
    const opt = raw.split(/[\s=]/)[0]!;
    if (KEEP.has(raw)) {
      if (!plan.options.includes(raw)) plan.options.push(raw);
      return;
    }
    if (DROP.test(raw)) return;
    const r = REFUSE.find(([re]) => re.test(raw));
    refuse(plan, where, raw, r ? r[1] : `the option ${opt} is not one toolbox passes on`);
    return;
  }
  // Per-requirement options: only --hash (pins an archive; fine to keep).
  const m = /^(.*?)((?:\s+--\S+(?:\s+[^-\s]\S*)?)*)$/.exec(raw)!;
  const spec = m[1]!.trim();
  const perLine = m[2]!
    .trim()
    .split(/\s+(?=--)/)
    .filter(Boolean);
  const bad = perLine.find((o) => !/^--hash[= ]\S+$/.test(o));
  if (bad) {
    refuse(plan, where, raw, `the option ${bad.split(/[\s=]/)[0]} is not one toolbox passes on`);
    return;
  }
  const hashes = perLine.map((o) => o.replace(' ', '='));
  const keep = (text: string, local: boolean) => {
    into.push({ text: [text, ...hashes].join(' '), where });
    if (!local) plan.allLocal = false;
  };
  if (VCS.test(spec) || / @ (git|hg|svn|bzr)\+/i.test(spec)) {
    refuse(plan, where, raw, 'a version-control URL is cloned and built from source');
    return;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec) && !spec.startsWith('file:')) {
    if (!wheelUrl(spec))
      return refuse(plan, where, raw, 'a URL that is not an https wheel (.whl) is built from source');
    keep(spec, false);
    return;
  }
  const named = /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[^\]]*\])?\s*@/.test(spec); // `name @ url`: PEP 508, below
  if (
    !named &&
    (/^(\.{1,2}\/|\/|~\/|file:)/.test(spec) || /\.(whl|tar\.gz|tgz|zip|tar\.bz2|tar\.xz|tar)$/i.test(spec))
  ) {
    const p = localPath(spec, base);
    if (!/\.whl$/i.test(p))
      return refuse(plan, where, raw, 'a local folder or sdist is built by running its setup code');
    keep(p, true);
    return;
  }
  const parsed = parsePep508(spec);
  if (!parsed) return refuse(plan, where, raw, 'not a PEP 508 requirement');
  if (parsed.url !== undefined) {
    if (parsed.url.startsWith('file:')) {
      const p = localPath(parsed.url, base);
      if (!/\.whl$/i.test(p))
        return refuse(plan, where, raw, 'a local folder or sdist is built by running its setup code');
      keep(`${spec.slice(0, spec.indexOf('@')).trim()} @ file://${p}`, true);
      return;
    }
    if (!wheelUrl(parsed.url))
      return refuse(plan, where, raw, 'a URL that is not an https wheel (.whl) is built from source');
  }
  keep(spec, false);
}

// Read as requirements-txt.ts reads them: through the project-file reader, only files named like
// requirements files; a refused line is named by file:line, never quoted.
function readInto(plan: PipPlan, root: string, file: string, into: PlanLine[], seen: Set<string>): void {
  if (seen.has(file)) return;
  seen.add(file);
  if (!REQUIREMENTS_NAME.test(file))
    return refuse(plan, file, '', 'not named like a requirements file (*.txt or *.in)');
  let text: string;
  try {
    text = readProjectText(root, file, { max: 256 * 1024 });
  } catch (e) {
    refuse(plan, file, '', (e as Error).message);
    return;
  }
  // As pip reads it: a trailing backslash joins lines, '#' at the start or after whitespace starts a comment.
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!;
    while (/\\$/.test(line) && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i]!;
    const clean = line.replace(/(^|\s)#.*$/, '').trim();
    if (!clean) continue;
    const had = plan.refused;
    addLine(plan, root, clean, dirname(file), `${file}:${start + 1}`, into, seen);
    if (!had && plan.refused?.where === `${file}:${start + 1}`) plan.refused.raw = '';
  }
}

/**
 * The plan for a tool's `requires.python` (inline lines relative to the contract's folder, or one
 * requirements file). `python` lines (the interpreter's own version) are left out.
 */
export function pipPlan(value: string[] | string | undefined, contractFile: string, root: string): PipPlan {
  const plan: PipPlan = { requirements: [], constraints: [], options: [], allLocal: true };
  const base = dirname(contractFile);
  const seen = new Set<string>();
  if (value === undefined) return plan;
  if (typeof value === 'string' && namesRequirementsFile(value, base)) {
    readInto(plan, root, resolve(base, value), plan.requirements, seen);
  } else {
    const items = typeof value === 'string' ? [value] : value;
    items.forEach((item, i) => {
      const raw = item.trim();
      if (raw && parsePep508(raw)?.name.toLowerCase() !== 'python')
        addLine(plan, root, raw, base, `${contractFile} (requires.python[${i}])`, plan.requirements, seen);
    });
  }
  plan.requirements = plan.requirements.filter((l) => parsePep508(l.text)?.name.toLowerCase() !== 'python');
  return plan;
}
