import { jsonText } from '../inert.js';
import type { Formatter } from './types.js';

/** `{ diagnostics: [{ file, line, column, severity, rule, message, hint? }], summary }`; files absolute. */
export const json: Formatter = ({ diagnostics, summary }) =>
  jsonText(
    {
      diagnostics: diagnostics.map((d) => ({
        file: d.file,
        line: d.line,
        column: d.column,
        severity: d.severity,
        rule: d.rule,
        message: d.message,
        ...(d.path !== undefined ? { path: d.path } : {}),
        ...(d.hint ? { hint: d.hint } : {}),
      })),
      summary,
    },
    2,
  ) + '\n';
