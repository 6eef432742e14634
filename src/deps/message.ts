/**
 * Words for dependency results, shared by `toolbox deps` (output/deps.ts), `doctor` and the check
 * before `run`, so all of them say the same thing.
 */
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
