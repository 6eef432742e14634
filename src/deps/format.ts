/**
 * Words and tables for dependency results. `depsMessage`/`depsHint` are shared by `toolbox deps`
 * and the check before `run`, so both say the same thing.
 */
import type { Style } from '../output/style.js';
import { renderTable } from '../output/table.js';
import { isProblem, type RequirementResult, type ToolDeps } from './types.js';

const label = (r: RequirementResult) =>
  r.kind === 'env'
    ? `env ${r.name}`
    : r.kind === 'bin'
      ? `program ${r.name}`
      : r.kind === 'node'
        ? `node ${r.wanted === '*' ? r.name : `${r.name}@${r.wanted}`}`
        : r.wanted === '*'
          ? r.name
          : r.wanted;

function problemText(r: RequirementResult): string {
  if (r.status === 'missing') return r.kind === 'env' ? `${label(r)} (not set)` : `${label(r)} (missing)`;
  if (r.status === 'wrong_version') return `${label(r)} (found ${r.found})`;
  return `${label(r)} (cannot check: ${r.detail ?? 'unknown'})`;
}

/** One line: which tool lacks what. Empty string when nothing is missing. */
export function depsMessage(t: ToolDeps): string {
  const bad = t.requirements.filter(isProblem);
  if (bad.length === 0) return '';
  return `tool '${t.id}' is missing dependencies: ${bad.map(problemText).join(', ')}`;
}

/** The fix commands, one per line, without duplicates. */
export function depsHint(t: ToolDeps): string {
  return [
    ...new Set(
      t.requirements
        .filter(isProblem)
        .map((r) => r.fix)
        .filter((f): f is string => Boolean(f)),
    ),
  ].join('\n');
}

const STATUS: Record<RequirementResult['status'], string> = {
  ok: 'ok',
  missing: 'missing',
  wrong_version: 'wrong version',
  skipped: 'skipped',
  error: 'error',
};

/** The human report of one tool: a heading, a table of its requirements, the fixes. */
export function renderToolDeps(t: ToolDeps, style: Style, width?: number): string {
  const head = t.ok
    ? `${style.green('✓')} ${style.bold(t.id)}`
    : `${style.red('✗')} ${style.bold(t.id)}: ${depsMessage(t).replace(/^tool '[^']*' is /, '')}`;
  if (t.requirements.length === 0) return `${head} ${style.dim('(declares no dependencies)')}\n`;
  const colour = (r: RequirementResult) => {
    const s = STATUS[r.status];
    return r.status === 'ok' ? style.green(s) : r.status === 'skipped' ? style.dim(s) : style.red(s);
  };
  const rows = t.requirements.map((r) => [
    colour(r),
    r.kind,
    r.name,
    r.wanted,
    r.found ?? '-',
    r.fix ?? (r.detail ? style.dim(r.detail) : ''),
  ]);
  const table = renderTable(['STATUS', 'KIND', 'NAME', 'WANTED', 'FOUND', 'FIX'], rows, { width, header: style.dim });
  return `${head}\n${table.trimEnd().replace(/^/gm, '  ')}\n`;
}
