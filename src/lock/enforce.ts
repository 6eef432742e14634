import { statSync } from 'node:fs';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { lockEntry } from './compute.js';
import { diffEntry } from './diff.js';
import { lockPath, readLock } from './file.js';
import { serverFilesProblem } from './server-files.js';
import type { LockFile } from './types.js';

let cached: { file: string; key: string; lock: LockFile | undefined } | undefined;

function lockOf(project: Project): LockFile | undefined {
  const file = lockPath(project);
  let key = 'missing';
  try {
    const st = statSync(file);
    key = `${st.mtimeMs}:${st.size}`;
  } catch {
    /* no lock */
  }
  if (cached?.file !== file || cached.key !== key) cached = { file, key, lock: readLock(project) };
  return cached.lock;
}

/** True when toolbox.config.yaml asks every run/serve to check the lock (`locked: true`). */
export const lockedByConfig = (project: Project): boolean => project.config.locked === true;

/**
 * `run --locked` / `serve --locked`: refuse to call a tool that differs from toolbox.lock (its
 * wording, code, grant). Dependency versions are not probed here (that needs interpreters);
 * `validate --locked` checks them.
 */
export function assertLocked(project: Project, entry: ToolEntry): void {
  const lock = lockOf(project);
  const id = entry.contract.id;
  const hint =
    'Review the change (`toolbox validate --locked` shows every field), then run `toolbox lock` to accept it.';
  if (!lock)
    throw new ToolboxError('lock_missing', `--locked: there is no ${lockPath(project)}`, {
      exitCode: ExitCode.registry,
      hint: 'Create it with `toolbox lock` and commit it.',
    });
  const locked = lock.tools[id];
  if (!locked)
    throw new ToolboxError('lock_drift', `tool '${id}' is not in toolbox.lock`, { exitCode: ExitCode.registry, hint });
  const drift = diffEntry(id, locked, lockEntry(project, entry));
  if (drift.length === 0) {
    // A managed server: the files that will run are the ones toolbox installed and the lock pins.
    const pkg = entry.contract.loader === 'mcp' ? entry.contract.loader_config.package : undefined;
    const bad = pkg && typeof pkg === 'object' ? serverFilesProblem(project, pkg as { name: string }) : undefined;
    if (bad)
      throw new ToolboxError('server_files_changed', `tool '${id}': ${bad}`, {
        exitCode: ExitCode.registry,
        hint: `Import the server again (\`toolbox import mcp\` with its package), review, then \`toolbox lock\`.`,
      });
    return;
  }
  const grants = drift.filter((d) => d.kind === 'grant');
  const text = drift.map((d) => d.message.replace(`${id}: `, '')).join('; ');
  throw new ToolboxError(
    'lock_drift',
    `tool '${id}' differs from toolbox.lock${grants.length ? ' (SANDBOX GRANT CHANGED)' : ''}: ${text}`,
    { exitCode: ExitCode.registry, hint, details: { drift } },
  );
}
