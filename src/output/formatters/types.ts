import type { Diagnostic } from '../../contract/diagnostic.js';
import type { RuleMeta } from '../../lint/types.js';
import type { ValidationSummary } from '../../lint/validate.js';

/** The colour functions a formatter may use (a chalk instance fits; identity when colour is off). */
export interface Style {
  red(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
  underline(s: string): string;
}

/** What every formatter gets: the findings, and how to present paths and the tool. */
export interface FormatInput {
  diagnostics: Diagnostic[];
  summary: ValidationSummary;
  /** Metadata of the rules that can appear (SARIF's tool.driver.rules). */
  rules: RuleMeta[];
  /** Paths are shown relative to this folder (human, github, sarif). */
  cwd: string;
  style: Style;
  /** toolbox's version, for SARIF. */
  version: string;
  /** Show code frames (the contract's own lines): only when a person reads stdout at a terminal. */
  frames?: boolean;
}

/** A pure function from findings to the text printed on stdout. */
export type Formatter = (input: FormatInput) => string;

export const FORMATS = ['human', 'json', 'github', 'sarif'] as const;
export type Format = (typeof FORMATS)[number];
