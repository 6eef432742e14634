import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Project } from '../config.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { parseContract } from '../contract/parse.js';
import { SEVERITY_RANK, sortDiagnostics, type Diagnostic, type Severity } from '../contract/diagnostic.js';
import { networkOpen, type ToolEntry } from '../contract/types.js';
import { networkFindings } from './network.js';
import type { Registry } from '../registry/registry.js';
import { discoverContractFiles } from '../registry/discover.js';
import { readContractFile } from '../registry/read.js';
import { lintOneFile, lintRegistry, lintSettings, registryView } from './engine.js';
import {
  applyDirectives,
  applyOverrides,
  isIgnored,
  parseDirectives,
  type Directive,
  type LintOverride,
} from './filters.js';
import { loadRules } from './rules/index.js';
import { STRUCTURAL_RULES } from './structural.js';
import { checkSandboxPaths, legacyGrantsWarning, loadUserGrants } from '../policy/grants.js';
import {
  readsCode,
  RUNNABLE_RULES,
  runnableCodeDiagnostics,
  runnableContractDiagnostics,
  type RunnableTool,
} from './runnable/index.js';
import { envProblems } from '../policy/credentials.js';
import { projectPathProblems } from './project-paths.js';
import { projectUserOnlyKeys } from '../policy/user-settings.js';
import type { Env } from '../util/env.js';
import type { LintFile, LintSettings, RuleMeta } from './types.js';

/** Counts for the end of a report. */
export interface ValidationSummary {
  files: number;
  tools: number;
  errors: number;
  warnings: number;
  infos: number;
  /**
   * `validate FILE…` only: the whole registry, read so that duplicate ids and look-alike
   * descriptions of other tools are still found (`files` and `tools` then count the given files).
   */
  registry?: { files: number; tools: number };
}

/** Everything `toolbox validate` found, sorted by file, line, column. */
export interface ValidationResult {
  diagnostics: Diagnostic[];
  summary: ValidationSummary;
  /** Metadata of every rule that can appear (for SARIF and docs). */
  rules: RuleMeta[];
}

export interface ValidateOptions {
  /** Run the routing check (each tool's `examples` select it). Default true. */
  routing?: boolean;
  /** Paths in messages are shown relative to this folder (default: the project root). */
  cwd?: string;
  /** Aborts a long validation (Ctrl+C, SIGTERM): it stops at the next file and throws `cancelled`. */
  signal?: AbortSignal;
  /** Also report drift from toolbox.lock (`validate --locked`). */
  locked?: boolean;
  /**
   * Report only on these contract files (absolute paths; for lint-staged / pre-commit). The whole
   * registry is still read: duplicate ids and look-alike descriptions need the other tools.
   */
  files?: string[];
  /** The environment a credential would come from (default process.env): see `sandbox-env`. */
  env?: Env;
}

/**
 * Long loops call this between items: every ~50 ms it lets the event loop run (so SIGINT/SIGTERM
 * handlers fire) and throws `cancelled` once `signal` is aborted.
 */
export function yielder(signal?: AbortSignal): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < 50) return;
    await new Promise((r) => setImmediate(r));
    last = performance.now();
    if (signal?.aborted) throw new ToolboxError('cancelled', 'cancelled', { exitCode: ExitCode.cancelled });
  };
}

/**
 * Validate a whole registry: every file's structural diagnostics (encoding, YAML, contract
 * schema, loader_config, JSON Schemas), duplicate ids, the description lint and the routing
 * check. Never throws for bad contract files; throws config_invalid (exit 3) for a bad `lint:`
 * section in toolbox.config.yaml.
 */
export async function validateProject(project: Project, opts: ValidateOptions = {}): Promise<ValidationResult> {
  const rules = await loadRules();
  const settings = lintSettings(rules, project.config, project.configFile, [
    ...STRUCTURAL_RULES.filter((r) => r.id === 'routing'),
    ...RUNNABLE_RULES,
  ]);
  const lintConfig = project.config.lint ?? {};
  const ignore = lintConfig.ignore ?? [];
  const overrides = lintConfig.overrides ?? [];
  const offElsewhere = enableOverridden(settings, overrides, project.configFile);
  const directives = new Map<string, Directive[]>();
  const base = opts.cwd ?? project.root;
  const displayPath = (f: string) => relative(base, f) || f;

  const diagnostics: Diagnostic[] = [];
  // Files are linted as they are read; what stays is each file's locator and the few fields the
  // registry-wide rules read (registryView), plus whole contracts only when routing or --locked needs them.
  const lintFiles: LintFile[] = [];
  const routing = opts.routing !== false && settings.severity.routing !== 'off';
  const keepContracts = routing || opts.locked === true;
  const entries: ToolEntry[] = [];
  const byId = new Map<string, { file: string; line?: number }>();
  let tools = 0;
  const only = opts.files ? new Set(opts.files) : undefined;
  let toolsInFiles = 0;
  const broken: Registry['broken'] = [];
  const rels = discoverContractFiles(project.registryDir).filter(
    (rel) => !isIgnored(project.registryDir, join(project.registryDir, rel), ignore),
  );
  const breathe = yielder(opts.signal);
  // Tools whose code the runnable checks read after the loop (one sandboxed parse for all Python tools).
  const withCode: RunnableTool[] = [];
  const grants = loadUserGrants(project.root);
  const oldGrants = legacyGrantsWarning(grants, project.root);
  if (oldGrants && grants.file)
    diagnostics.push({
      file: grants.file,
      line: grants.legacyLine ?? 1,
      column: 1,
      severity: 'warning',
      rule: 'grants-outdated',
      ...oldGrants,
    });

  // Keys that speak for you, set by the project: ignored, and said here (policy/user-settings.ts).
  // Always a warning: the project's own lint settings cannot hide what it asked for.
  for (const k of projectUserOnlyKeys(project))
    diagnostics.push({
      file: k.file ?? project.configFile ?? project.root,
      line: k.line,
      column: k.column,
      severity: 'warning',
      rule: 'config-user-only',
      path: k.key,
      message: k.message,
      hint: k.hint,
    });

  for (const rel of rels) {
    await breathe();
    const file = join(project.registryDir, rel);
    const read = readContractFile(project.registryDir, file);
    if (!(read instanceof Uint8Array)) {
      diagnostics.push(read);
      broken.push({ file, diagnostics: [read] });
      continue;
    }
    const bytes = Buffer.from(read.buffer, read.byteOffset, read.byteLength);
    if (bytes.includes('toolbox-disable')) directives.set(file, parseDirectives(bytes.toString('utf8')));
    const parsed = parseContract(file, read);
    for (const d of parsed.diagnostics) diagnostics.push(d);
    const data = parsed.data;
    const structurallyParsed =
      data &&
      typeof data === 'object' &&
      !Array.isArray(data) &&
      !parsed.diagnostics.some((d) => d.rule === 'unsafe-key');
    if (structurallyParsed) {
      const lf: LintFile = { file, data: data as Record<string, unknown>, locate: parsed.locate };
      for (const d of lintOneFile(rules, lf, settings)) diagnostics.push(d);
      lintFiles.push({ ...lf, data: registryView(lf.data) });
    }
    if (!parsed.contract) {
      broken.push({ file, diagnostics: parsed.diagnostics });
      continue;
    }
    const line = parsed.locate(['id']).line;
    const dup = byId.get(parsed.contract.id);
    if (dup) {
      const pos = parsed.locate(['id']);
      const d: Diagnostic = {
        file,
        line: pos.line,
        column: pos.column,
        severity: 'error',
        rule: 'duplicate-id',
        path: 'id',
        message: `duplicate id '${parsed.contract.id}': also defined in ${displayPath(dup.file)}:${dup.line ?? 1}`,
        hint: 'Tool ids must be unique across the registry; rename one of the two.',
      };
      diagnostics.push(d);
      broken.push({ file, diagnostics: [d] });
      continue;
    }
    const sb = parsed.contract.sandbox;
    for (const pr of checkSandboxPaths(project.root, parsed.contract.id, sb?.paths ?? [], networkOpen(sb), grants)) {
      const pos = parsed.locate(['sandbox', 'paths', pr.index]);
      diagnostics.push({
        file,
        line: pos.line,
        column: pos.column,
        severity: 'error',
        rule: 'sandbox-path',
        path: `sandbox.paths[${pr.index}]`,
        message: pr.message,
        hint: pr.hint,
      });
    }
    for (const nf of networkFindings(parsed.contract)) {
      const pos = parsed.locate(nf.path);
      diagnostics.push({
        file,
        line: pos.line,
        column: pos.column,
        severity: nf.severity,
        rule: nf.rule,
        path: nf.path.join('.'),
        message: nf.message,
        hint: nf.hint,
      });
    }
    for (const pr of projectPathProblems(project.root, file, parsed.contract)) {
      const pos = parsed.locate(pr.path);
      diagnostics.push({
        file,
        line: pos.line,
        column: pos.column,
        severity: 'error',
        rule: 'project-path',
        path: pr.path.join('.'),
        message: pr.message,
        hint: pr.hint,
      });
    }
    const runnable: RunnableTool = { file, contract: parsed.contract, locate: parsed.locate };
    for (const d of runnableContractDiagnostics(project, runnable, settings.severity)) diagnostics.push(d);
    if (readsCode(runnable) && (!only || only.has(file))) withCode.push(runnable);
    // An error when your credential is set (run would refuse the tool); a warning while it is not.
    for (const pr of envProblems(project.root, parsed.contract, () => grants, opts.env ?? process.env)) {
      const pos = parsed.locate(pr.path);
      diagnostics.push({
        file,
        line: pos.line,
        column: pos.column,
        severity: pr.set ? 'error' : 'warning',
        rule: 'sandbox-env',
        path: pr.path.join('.'),
        message: pr.message,
        hint: pr.hint,
      });
    }
    tools++;
    if (only?.has(file)) toolsInFiles++;
    byId.set(parsed.contract.id, { file, line });
    if (keepContracts) entries.push({ contract: parsed.contract, file, line });
  }

  await breathe();
  for (const d of await runnableCodeDiagnostics(project, withCode, settings.severity)) diagnostics.push(d);
  await breathe();
  // One push per finding: a spread of a huge array overflows the stack.
  for (const d of lintRegistry(rules, lintFiles, settings, displayPath)) diagnostics.push(d);
  await breathe();

  if (routing && entries.length > 0) {
    const registry: Registry = {
      project,
      entries,
      byId: new Map(entries.map((e) => [e.contract.id, e])),
      broken,
      parsed: rels.length,
    };
    const { checkRouting } = await import('../select/routing.js');
    const sev = settings.severity.routing as Severity;
    for (const d of await checkRouting(registry, { top: 3, signal: opts.signal }))
      diagnostics.push({ ...d, severity: sev });
  }

  const extraRules: RuleMeta[] = [];
  if (opts.locked) {
    const { lockDiagnostics, LOCK_RULES } = await import('./lock-drift.js');
    extraRules.push(...LOCK_RULES);
    const where = new Map(lintFiles.map((f) => [f.file, f.locate]));
    diagnostics.push(
      ...(await lockDiagnostics(project, entries, (file, path) => where.get(file)?.(path) ?? { line: 1, column: 1 })),
    );
  }

  let reported = applyDirectives(applyOverrides(diagnostics, project.registryDir, overrides, offElsewhere), directives);
  if (only) reported = reported.filter((d) => only.has(d.file));
  sortDiagnostics(reported);
  const summary = only
    ? { ...summarize(reported, only.size, toolsInFiles), registry: { files: rels.length, tools } }
    : summarize(reported, rels.length, tools);
  return {
    diagnostics: reported,
    summary,
    rules: [...STRUCTURAL_RULES, ...RUNNABLE_RULES, ...rules.map((r) => r.meta), ...extraRules],
  };
}

/**
 * Rules that are off globally but turned on by an override must run; returns them (their findings
 * outside the override's files are dropped later). Unknown rule ids are config errors.
 */
function enableOverridden(
  settings: LintSettings,
  overrides: readonly LintOverride[],
  configFile?: string,
): Set<string> {
  const off = new Set<string>();
  overrides.forEach((o, i) => {
    for (const [id, sev] of Object.entries(o.rules)) {
      if (!(id in settings.severity))
        throw new ToolboxError(
          'config_invalid',
          `${configFile ?? 'toolbox.config.yaml'}: lint.overrides[${i}].rules: unknown rule '${id}'`,
          {
            exitCode: ExitCode.registry,
            hint: `Rules: ${Object.keys(settings.severity).join(', ')}.`,
          },
        );
      if (sev !== 'off' && settings.severity[id] === 'off') {
        off.add(id);
        settings.severity[id] = sev;
      }
    }
  });
  return off;
}

function summarize(ds: Diagnostic[], files: number, tools: number): ValidationSummary {
  const count = (s: Severity) => ds.filter((d) => d.severity === s).length;
  return { files, tools, errors: count('error'), warnings: count('warning'), infos: count('info') };
}

/** True when any diagnostic is at or above `failOn`: `validate` then exits 1. */
export function hasFindings(ds: Diagnostic[], failOn: Severity): boolean {
  return ds.some((d) => SEVERITY_RANK[d.severity] >= SEVERITY_RANK[failOn]);
}

export type { LintSettings };
