// The human report of `toolbox deps`: per tool a heading, a table of its requirements, the fixes.
import { depsMessage } from '../deps/message.js';
import type { RequirementResult, ToolDeps } from '../deps/types.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';

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
