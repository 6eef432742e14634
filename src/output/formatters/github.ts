import type { Formatter } from './types.js';
import { displayPath } from '../../util/paths.js';

/** Escape the message part of a workflow command (GitHub's toolkit escapeData). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escape a property value of a workflow command (escapeProperty: also ':' and ','). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const LEVEL = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** GitHub Actions workflow annotations, one line per diagnostic: `::error file=…,line=…,col=…,title=rule::message`. */
export const github: Formatter = ({ diagnostics, cwd }) =>
  diagnostics
    .map((d) => {
      const props = [
        `file=${escapeProperty(displayPath(d.file, cwd))}`,
        `line=${d.line}`,
        `col=${d.column}`,
        `title=${escapeProperty(d.rule)}`,
      ].join(',');
      const msg = d.hint ? `${d.message}\n${d.hint}` : d.message;
      return `::${LEVEL[d.severity]} ${props}::${escapeData(msg)}\n`;
    })
    .join('');
