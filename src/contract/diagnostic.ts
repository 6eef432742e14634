export type Severity = 'error' | 'warning' | 'info';

/** One finding about one file, located by 1-based line and column. */
export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  severity: Severity;
  /** Rule id (lint rule, or a structural check such as 'yaml-syntax', 'contract-schema'). */
  rule: string;
  message: string;
  /** JSON path inside the contract, when there is one ("schema.properties.city"). */
  path?: string;
  hint?: string;
  /** The source lines around the position with a caret under it (YAML syntax errors). */
  frame?: string;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule),
  );
}
