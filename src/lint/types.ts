import type { Diagnostic, Severity } from '../contract/diagnostic.js';
import type { PathSeg, Pos } from '../contract/yaml-source.js';

/** What every rule declares about itself (shown in SARIF, docs and `--format human` hints). */
export interface RuleMeta {
  /** Stable rule id; also the rule's file name in src/lint/rules/. */
  id: string;
  /** One line: what the rule finds. */
  description: string;
  /** Default severity; `lint.rules.<id>` in toolbox.config.yaml overrides it (or turns it 'off'). */
  severity: Severity;
  /** Why it matters and how to fix it (one or two sentences). */
  docs: string;
  /** Default values of the rule's options (`lint.options.<id>`); only these keys are accepted. */
  options?: Record<string, number | string | boolean>;
}

/** One contract file as lint sees it: the raw parsed mapping and a way to locate paths in it. */
export interface LintFile {
  file: string;
  /** The contract as parsed (may still have structural errors, so rules must check types). */
  data: Record<string, unknown>;
  locate(path: readonly PathSeg[]): Pos;
}

/** A finding a rule reports; the engine adds file, position, severity and rule id. */
export interface Report {
  path: readonly PathSeg[];
  message: string;
  hint?: string;
}

/** What a per-file rule's `check` gets. */
export interface FileRuleContext extends LintFile {
  options: Record<string, number | string | boolean>;
  report(r: Report): void;
}

/** What a registry-wide rule's `checkAll` gets (for rules that compare tools with each other). */
export interface RegistryRuleContext {
  /**
   * Every structurally parsed file; `data` holds only what such rules read (engine.ts
   * registryView: id, name, title, description, annotations.title, schema).
   */
  files: LintFile[];
  options: Record<string, number | string | boolean>;
  report(file: LintFile, r: Report): void;
  /** A file path as messages should show it (relative to the working directory). */
  displayPath(file: string): string;
}

/**
 * A lint rule, ESLint-style: metadata plus a check. Per-file rules implement `check`;
 * rules that compare contracts with each other implement `checkAll`.
 */
export interface LintRule {
  meta: RuleMeta;
  check?(ctx: FileRuleContext): void;
  checkAll?(ctx: RegistryRuleContext): void;
}

/** Lint settings after merging defaults with `lint:` from toolbox.config.yaml. */
export interface LintSettings {
  severity: Record<string, Severity | 'off'>;
  options: Record<string, Record<string, number | string | boolean>>;
}

export type { Diagnostic, Severity };
