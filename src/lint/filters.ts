// What narrows a validate report after the rules ran, the way ESLint users expect: `lint.ignore`
// globs, per-glob `lint.overrides`, and inline `# toolbox-disable-next-line <rules>` comments in
// the contract YAML (an unused one is itself reported, so stale disables do not pile up).
import { relative, sep } from 'node:path';
import type { Diagnostic, Severity } from '../contract/diagnostic.js';

/** One `lint.overrides` entry: the rules' severities for files matching any of `files`. */
export interface LintOverride {
  files: string[];
  rules: Record<string, Severity | 'off'>;
}

const DIRECTIVE = /^[ \t]*#[ \t]*toolbox-disable-next-line\b(.*)$/;

/** An inline disable comment: which rules (undefined: all) on which line it silences. */
export interface Directive {
  /** The comment's own line (1-based): where an unused directive is reported. */
  line: number;
  column: number;
  /** The line it applies to: the next line that is neither blank nor a comment. */
  target: number;
  rules?: string[];
}

/** The disable comments of one contract file's text. */
export function parseDirectives(text: string): Directive[] {
  if (!text.includes('toolbox-disable')) return [];
  const lines = text.split(/\r?\n/);
  const out: Directive[] = [];
  lines.forEach((l, i) => {
    const m = DIRECTIVE.exec(l);
    if (!m) return;
    let t = i + 1;
    while (t < lines.length && /^[ \t]*(#.*)?$/.test(lines[t]!)) t++;
    // "-- reason" after the rule list is a comment about the comment (ESLint's convention).
    const list = m[1]!.split(/\s--\s/)[0]!.trim();
    const rules = list ? list.split(/[\s,]+/).filter(Boolean) : undefined;
    out.push({ line: i + 1, column: l.indexOf('#') + 1, target: t + 1, ...(rules ? { rules } : {}) });
  });
  return out;
}

/** A registry-relative path against a glob: `*` within a folder, `**` across folders, `?` one character. */
export function globMatch(pattern: string, rel: string): boolean {
  let re = '';
  const p = pattern.replace(/^\.\//, '');
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*') {
      re += p[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += p[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A pattern without a slash matches the file name at any depth (as in .gitignore).
  return new RegExp(`^${p.includes('/') ? '' : '(?:.*/)?'}${re}$`).test(rel);
}

const toRel = (root: string, file: string) => relative(root, file).split(sep).join('/');

/** Is this contract file ignored by `lint.ignore`? */
export function isIgnored(registryDir: string, file: string, ignore: readonly string[]): boolean {
  const rel = toRel(registryDir, file);
  return ignore.some((g) => globMatch(g, rel));
}

/**
 * Apply `lint.overrides` (later entries win): new severities, and 'off' drops the finding.
 * `offElsewhere`: rules that are off globally and ran only because an override turns them on;
 * their findings outside the override's files are dropped.
 */
export function applyOverrides(
  ds: Diagnostic[],
  registryDir: string,
  overrides: readonly LintOverride[],
  offElsewhere: ReadonlySet<string> = new Set(),
): Diagnostic[] {
  if (!overrides.length) return ds;
  const out: Diagnostic[] = [];
  for (const d of ds) {
    const rel = toRel(registryDir, d.file);
    let sev: Severity | 'off' | undefined;
    for (const o of overrides) if (o.rules[d.rule] && o.files.some((g) => globMatch(g, rel))) sev = o.rules[d.rule];
    if (sev === 'off' || (sev === undefined && offElsewhere.has(d.rule))) continue;
    out.push(sev ? { ...d, severity: sev } : d);
  }
  return out;
}

/**
 * Drop findings silenced by inline directives; report each directive (or each of its rules) that
 * silenced nothing as an `unused-disable` warning on the comment's line.
 */
export function applyDirectives(ds: Diagnostic[], directives: ReadonlyMap<string, Directive[]>): Diagnostic[] {
  if (!directives.size) return ds;
  const used = new Set<string>();
  const kept = ds.filter((d) => {
    if (!isLintRule(d)) return true;
    const dir = directives.get(d.file)?.find((x) => x.target === d.line && (!x.rules || x.rules.includes(d.rule)));
    if (!dir) return true;
    used.add(`${d.file}:${dir.line}:${dir.rules ? d.rule : '*'}`);
    return false;
  });
  for (const [file, list] of directives) {
    for (const x of list) {
      const unused = x.rules
        ? x.rules.filter((r) => !used.has(`${file}:${x.line}:${r}`))
        : used.has(`${file}:${x.line}:*`)
          ? []
          : ['(all rules)'];
      if (!unused.length) continue;
      kept.push({
        file,
        line: x.line,
        column: x.column,
        severity: 'warning',
        rule: 'unused-disable',
        message: `toolbox-disable-next-line ${unused.join(', ')}: nothing to disable on line ${x.target}`,
        hint: 'Remove the comment (or the rule names that no longer apply).',
      });
    }
  }
  return kept;
}

// Structural problems (YAML syntax, schema errors, duplicate ids) cannot be disabled inline: the
// contract would still be broken. Only description/schema lint findings can.
const STRUCTURAL = new Set([
  'yaml-syntax',
  'encoding',
  'binary-file',
  'empty-file',
  'file-too-large',
  'unreadable',
  'file-refused',
  'unsafe-key',
  'contract-schema',
  'invalid-json-schema',
  'remote-ref',
  'duplicate-id',
]);
const isLintRule = (d: Diagnostic) => !STRUCTURAL.has(d.rule);
