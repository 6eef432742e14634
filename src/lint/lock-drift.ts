import type { Project } from '../config.js';
import type { Diagnostic } from '../contract/diagnostic.js';
import type { ToolEntry } from '../contract/types.js';
import type { PathSeg, Pos } from '../contract/yaml-source.js';
import { ExitCode, ToolboxError } from '../errors.js';
import type { Drift } from '../lock/types.js';
import type { RuleMeta } from './types.js';

/** The two rule ids `validate --locked` reports (SARIF and docs describe them). */
export const LOCK_RULES: RuleMeta[] = [
  {
    id: 'lock-grant',
    severity: 'error',
    description:
      "A tool's sandbox grant (network, env, paths, limits, timeout, permissions) differs from toolbox.lock.",
    docs: 'A widened grant is how a harmless tool becomes a harmful one: review it, then accept it with `toolbox lock`.',
  },
  {
    id: 'lock-drift',
    severity: 'error',
    description:
      'A tool differs from toolbox.lock: wording the model sees, loader, implementation, dependencies, or the tool set.',
    docs: 'Review the change (a rewritten description can be a rug pull), then accept it with `toolbox lock`.',
  },
];

/** Where in the contract a drifted field lives, for the annotation's line. */
function pathOf(d: Drift): PathSeg[] {
  const [head, key] = d.field.split('.') as [string, string | undefined];
  if (head === 'sandbox') {
    if (key === 'timeout' || key === 'permissions') return [key];
    return ['sandbox', key ?? ''];
  }
  if (head === 'model') return [key === 'schema' ? 'schema' : (key ?? 'description')];
  if (head === 'runs') return key === 'loader' ? ['loader'] : ['loader_config'];
  if (head === 'deps') return ['requires'];
  if (head === 'requires') return ['requires', key ?? ''];
  return ['id'];
}

/**
 * `validate --locked`: the registry's drift from toolbox.lock as diagnostics on the changed
 * contract lines (grants as `lock-grant`, louder than wording). No lock: exit 3 with what to do.
 */
export async function lockDiagnostics(
  project: Project,
  entries: ToolEntry[],
  locate: (file: string, path: readonly PathSeg[]) => Pos,
): Promise<Diagnostic[]> {
  const { checkProjectLock, lockPath } = await import('../lock/index.js');
  const drift = await checkProjectLock(project, entries);
  if (!drift)
    throw new ToolboxError('lock_missing', `--locked: there is no ${lockPath(project)}`, {
      exitCode: ExitCode.registry,
      hint: 'Create it with `toolbox lock` and commit it.',
    });
  const byId = new Map(entries.map((e) => [e.contract.id, e]));
  return drift.map((d): Diagnostic => {
    const entry = byId.get(d.tool);
    const grant = d.kind === 'grant';
    const pos = entry ? locate(entry.file, pathOf(d)) : { line: 1, column: 1 };
    return {
      file: entry?.file ?? lockPath(project),
      line: pos.line,
      column: pos.column,
      severity: 'error',
      rule: grant ? 'lock-grant' : 'lock-drift',
      path: d.field,
      message: grant ? `SANDBOX GRANT CHANGED: ${d.message}` : d.message,
      hint: grant
        ? 'Check why the tool needs more (or less) access; if it is right, accept it with `toolbox lock`.'
        : 'Review the change; if it is intended, accept it with `toolbox lock`.',
    };
  });
}
