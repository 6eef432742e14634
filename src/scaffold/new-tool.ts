import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { Project } from '../config.js';
import type { Diagnostic } from '../contract/diagnostic.js';
import { MAX_CONTRACT_BYTES, parseContract } from '../contract/parse.js';
import { LOADER_TYPES, type LoaderType } from '../contract/types.js';
import { ExitCode, ToolboxError, usageError } from '../errors.js';
import { lintSettings, runLint } from '../lint/engine.js';
import { loadRules } from '../lint/rules/index.js';
import { loadRegistry } from '../registry/registry.js';
import { ID_PATTERN, planTool } from './tool.js';
import { existing, writePlanned, type WriteReport } from './write.js';
import { readProjectFile } from '../util/project-file.js';

export interface NewToolOptions {
  id: string;
  loader: LoaderType;
  name?: string;
  description?: string;
  force?: boolean;
  cwd: string;
}

/** What `toolbox new` did, plus what validate would say about the new contract. */
export interface NewToolResult extends WriteReport {
  diagnostics: Diagnostic[];
}

export function checkId(id: string): void {
  if (!ID_PATTERN.test(id)) {
    throw usageError(
      'invalid_tool_id',
      `invalid tool id '${id}'`,
      'Use a letter or _ first, then letters, digits, _ . - (at most 64 characters), e.g. query_weather.',
      { pattern: ID_PATTERN.source },
    );
  }
}

/**
 * Scaffold one tool (contract + implementation stub) into the project. Refuses, writing nothing,
 * when a planned file exists (unless force) or another contract already has the id.
 */
export async function newTool(project: Project, o: NewToolOptions): Promise<NewToolResult> {
  checkId(o.id);
  if (!LOADER_TYPES.includes(o.loader)) {
    throw usageError(
      'invalid_loader',
      `unknown loader '${String(o.loader)}'`,
      `Use one of: ${LOADER_TYPES.join(', ')}.`,
    );
  }
  const files = planTool({
    root: project.root,
    registryDir: project.registryDir,
    id: o.id,
    loader: o.loader,
    name: o.name,
    description: o.description,
    // The stub's own description would describe a word counter under another tool's id, and two
    // identical descriptions make selection a coin toss: ask for the real text instead.
    todoDescription: o.description === undefined,
    // Never another tool's schema and code under this tool's name (init's word counter): a stub
    // whose TODOs validate reports until they are filled in.
    stub: true,
  });
  const rel = (p: string) => relative(o.cwd, p) || p;
  const taken = existing(files);
  if (taken.length && !o.force) {
    throw new ToolboxError(
      'file_exists',
      `not overwriting ${taken.map((f) => rel(f.path)).join(', ')}: already exists`,
      {
        exitCode: ExitCode.usage,
        hint: 'Pick another id, or pass --force to overwrite.',
        details: { files: taken.map((f) => f.path) },
      },
    );
  }
  const other = existsSync(project.registryDir) ? loadRegistry(project).byId.get(o.id) : undefined;
  if (other && other.file !== files[0]!.path) {
    throw new ToolboxError('duplicate_id', `a tool with id '${o.id}' already exists in ${rel(other.file)}`, {
      exitCode: ExitCode.usage,
      hint: 'Tool ids must be unique across the registry; pick another id.',
    });
  }
  const report = writePlanned(files, { force: o.force });
  return { ...report, diagnostics: await checkContract(project, files[0]!.path) };
}

/** Structural diagnostics and lint findings for one contract file (what validate would report). */
export async function checkContract(project: Project, file: string): Promise<Diagnostic[]> {
  const parsed = parseContract(file, readProjectFile(project.registryDir, file, { max: MAX_CONTRACT_BYTES }));
  if (!parsed.contract) return parsed.diagnostics;
  const rules = (await loadRules()).filter((r) => r.check); // registry-wide rules need the whole registry
  const settings = lintSettings(rules, project.config, project.configFile);
  return runLint(
    rules,
    [{ file, data: parsed.data as Record<string, unknown>, locate: parsed.locate }],
    settings,
    (f) => relative(project.root, f),
  );
}
