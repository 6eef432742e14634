import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { checkDeps } from './check.js';
import { declaresNothing } from './collect.js';
import { depsHint, depsMessage } from './message.js';
import { isProblem } from './types.js';

/**
 * Check the tool's declared runtime dependencies (from the cache when it can) and throw a
 * ToolboxError with exit 6 (missing_dependencies) and the same message as `toolbox deps` when
 * any is missing. Called by the runtime before a tool is loaded. `opts.env` is the environment
 * the tool is run from (default process.env); only presence of variables is looked at.
 */
export async function assertDeps(
  project: Project,
  entry: ToolEntry,
  opts: { env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  if (declaresNothing(entry)) return;
  const [res] = await checkDeps(project, [entry], { env: opts.env ?? process.env });
  if (!res || res.ok) return;
  const id = entry.contract.id;
  const python = res.requirements.some(
    (r) => r.kind === 'python' && r.name !== 'python' && (r.status === 'missing' || r.status === 'wrong_version'),
  );
  throw new ToolboxError('missing_dependencies', depsMessage(res), {
    exitCode: ExitCode.missingDeps,
    hint: `fix with:\n  ${depsHint(res).split('\n').join('\n  ')}\n${python ? `  or \`toolbox deps --install ${id}\` (a venv for this tool)\n` : ''}\`toolbox deps ${id}\` shows the details`,
    location: { file: entry.file, line: entry.line },
    details: { tool: entry.contract.id, requirements: res.requirements.filter(isProblem) },
  });
}
