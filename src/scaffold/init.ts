import { existsSync } from 'node:fs';
import { join, isAbsolute, normalize, sep } from 'node:path';
import { LOADER_TYPES, type LoaderType } from '../contract/types.js';
import { usageError } from '../errors.js';
import type { IO } from '../io.js';
import { DEFAULT_IDS, ID_PATTERN, planTool, type PlannedFile } from './tool.js';
import { readTemplate, render } from './templates.js';
import { writePlanned, type WriteReport } from './write.js';
import { writeFileAtomic } from '../util/fs.js';
import { ProjectFileError, readProjectText } from '../util/project-file.js';

/** What `toolbox init` needs to know; asked on a TTY, else defaults and flags. */
export interface InitAnswers {
  registry: string;
  tool: string;
  loader: LoaderType;
}

/** Why a registry folder name is not acceptable, or undefined when it is. */
export function registryNameProblem(name: string): string | undefined {
  if (!name.trim()) return 'the registry folder name is empty';
  if (isAbsolute(name) || normalize(name).split(sep).includes('..'))
    return 'the registry folder must be inside the project (a relative path without ..)';
  return undefined;
}

export function initDefaults(flags: { registryDir?: string; tool?: string; loader?: LoaderType }): InitAnswers {
  const loader = flags.loader ?? 'python_function';
  return { registry: flags.registryDir ?? 'tool_registry', loader, tool: flags.tool ?? DEFAULT_IDS[loader] };
}

/**
 * Ask for the registry folder, the first tool's loader and id (@inquirer/prompts, loaded only
 * here). Everything is asked before anything is written, so Ctrl+C (exit 130) leaves no file.
 */
export async function askInit(defaults: InitAnswers, io: IO): Promise<InitAnswers> {
  const { input, select } = await import('@inquirer/prompts');
  const context = io.signal ? { signal: io.signal } : {};
  const registry = await input(
    { message: 'Registry folder', default: defaults.registry, validate: (v) => registryNameProblem(v) ?? true },
    context,
  );
  const loader = await select<LoaderType>(
    {
      message: 'Loader of the first tool',
      default: defaults.loader,
      choices: LOADER_TYPES.map((t) => ({ value: t, name: t })),
    },
    context,
  );
  const tool = await input(
    {
      message: 'Id of the first tool',
      default: defaults.loader === loader ? defaults.tool : DEFAULT_IDS[loader],
      validate: (v) => ID_PATTERN.test(v) || 'letters, digits, _ . - (start with a letter or _)',
    },
    context,
  );
  return { registry, loader, tool };
}

/** Every file `init` writes: toolbox.config.yaml and the first tool (contract + implementation). */
export function planInit(dir: string, a: InitAnswers): PlannedFile[] {
  const problem = registryNameProblem(a.registry);
  if (problem)
    throw usageError('invalid_registry_dir', `${problem}: '${a.registry}'`, 'e.g. --registry-dir tool_registry');
  if (!ID_PATTERN.test(a.tool))
    throw usageError(
      'invalid_tool_id',
      `invalid tool id '${a.tool}'`,
      'Use a letter or _ first, then letters, digits, _ . - (at most 64 characters).',
    );
  const registryDir = join(dir, a.registry);
  const config: PlannedFile = {
    path: join(dir, 'toolbox.config.yaml'),
    role: 'config',
    content: render(readTemplate('toolbox.config.yaml'), { registry: JSON.stringify(a.registry.split(sep).join('/')) }),
  };
  return [config, ...planTool({ root: dir, registryDir, id: a.tool, loader: a.loader })];
}

/** What init did to .gitignore: `.toolbox/` (caches, call log, venvs) must not be committed. */
/** 'refused': the .gitignore is a link or not a regular file: neither read nor written (add `.toolbox/` yourself). */
export type GitignoreChange = 'created' | 'updated' | 'unchanged' | 'refused';

/** Plan and write; existing files are kept unless `force`. `.toolbox/` is added to .gitignore. */
export function initProject(
  dir: string,
  a: InitAnswers,
  opts: { force?: boolean } = {},
): WriteReport & { gitignore: GitignoreChange } {
  const report = writePlanned(planInit(dir, a), opts);
  return { ...report, gitignore: ignoreStateDir(dir) };
}

function ignoreStateDir(dir: string): GitignoreChange {
  const file = join(dir, '.gitignore');
  if (!existsSync(file)) {
    writeFileAtomic(file, '.toolbox/\n');
    return 'created';
  }
  // Through the project-file reader: a `.gitignore` that is a link (to ~/.ssh/config, /dev/zero) is
  // refused, never copied into the project.
  let text: string;
  try {
    text = readProjectText(dir, file);
  } catch (e) {
    if (e instanceof ProjectFileError) return 'refused';
    throw e;
  }
  if (/^\/?\.toolbox\/?\s*$/m.test(text)) return 'unchanged';
  writeFileAtomic(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}.toolbox/\n`);
  return 'updated';
}
