import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { Project } from '../config.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { ProjectFileError, readProjectText } from '../util/project-file.js';
import type { LockEntry, LockFile } from './types.js';

export const LOCK_NAME = 'toolbox.lock';

/** toolbox.lock sits beside toolbox.config.yaml (the project root). */
export const lockPath = (project: Project): string => join(project.root, LOCK_NAME);

const HEADER =
  '# toolbox.lock: written by `toolbox lock` and `toolbox import mcp`. Commit it and review its diffs:\n' +
  '# `toolbox validate --locked` fails when a tool drifts from it (wording, code, sandbox grant, deps).\n';

/** Read toolbox.lock; undefined when there is none. A broken file is a config error (exit 3). */
export function readLock(project: Project): LockFile | undefined {
  const file = lockPath(project);
  let text: string;
  try {
    text = readProjectText(project.root, file, { max: 64 * 1024 * 1024 });
  } catch (e) {
    if (e instanceof ProjectFileError && e.reason === 'missing') return undefined;
    throw new ToolboxError('lock_invalid', `cannot read ${LOCK_NAME}: ${(e as Error).message}`, {
      exitCode: ExitCode.registry,
      hint: `${LOCK_NAME} must be a regular file in the project; run \`toolbox lock\` to write it again.`,
    });
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    data = (e as Error).message;
  }
  const ok =
    data &&
    typeof data === 'object' &&
    (data as LockFile).version === 1 &&
    typeof (data as LockFile).tools === 'object';
  if (!ok)
    throw new ToolboxError('lock_invalid', `${file}: not a toolbox.lock (version 1)`, {
      exitCode: ExitCode.registry,
      hint: 'Regenerate it with `toolbox lock` (and review the diff).',
      location: { file },
    });
  return { version: 1, tools: (data as LockFile).tools ?? {} };
}

// Fixed key order inside an entry, so diffs stay small and readable.
const ORDER = ['model', 'runs', 'sandbox', 'requires', 'deps', 'upstream'];

function ordered(e: LockEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ORDER)
    if ((e as unknown as Record<string, unknown>)[k] !== undefined) out[k] = e[k as keyof LockEntry];
  return out;
}

/** The lock file's text: tools sorted by id, fixed key order, one value per line. */
export function renderLock(lock: LockFile): string {
  const tools: Record<string, unknown> = {};
  for (const id of Object.keys(lock.tools).sort()) tools[id] = ordered(lock.tools[id]!);
  return HEADER + stringify({ version: 1, tools }, { lineWidth: 0, sortMapEntries: false });
}

/** Write toolbox.lock atomically (never half-written). */
export function writeLock(project: Project, lock: LockFile): string {
  const file = lockPath(project);
  writeFileAtomic(file, renderLock(lock));
  return file;
}
