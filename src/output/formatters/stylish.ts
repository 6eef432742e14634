import type { Diagnostic } from '../../contract/diagnostic.js';
import type { Formatter } from './types.js';
import { displayPath } from '../../util/paths.js';

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/**
 * Human output, ESLint "stylish"-like: diagnostics grouped by file (position, severity,
 * message, rule id, and the hint on the next line), then one count line.
 */
export const stylish: Formatter = ({ diagnostics, summary, cwd, style: s, frames }) => {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) (byFile.get(d.file) ?? byFile.set(d.file, []).get(d.file)!).push(d);
  let out = '';
  for (const [file, ds] of byFile) {
    out += `${s.underline(displayPath(file, cwd))}\n`;
    const posW = Math.max(...ds.map((d) => `${d.line}:${d.column}`.length));
    for (const d of ds) {
      const sev =
        d.severity === 'error' ? s.red('error  ') : d.severity === 'warning' ? s.yellow('warning') : s.blue('info   ');
      out += `  ${s.dim(`${d.line}:${d.column}`.padEnd(posW))}  ${sev}  ${d.message}  ${s.dim(d.rule)}\n`;
      if (d.frame && frames) for (const l of d.frame.split('\n')) out += `  ${' '.repeat(posW)}           ${l}\n`;
      if (d.hint) out += `  ${' '.repeat(posW)}           ${s.dim(`→ ${d.hint}`)}\n`;
    }
    out += '\n';
  }
  const { errors, warnings, infos, files, tools } = summary;
  const problems = errors + warnings + infos;
  const others = summary.registry ? summary.registry.files - files : 0;
  // validate FILE…: say what was checked, and that the rest of the registry was only read.
  const whole = others > 0 ? `; ${plural(others, 'other registry file')} read for duplicate ids and look-alikes` : '';
  const scope = `${plural(files, 'file')}, ${plural(tools, 'valid tool')}`;
  if (problems === 0) return `${s.green('✔')} ${scope}: no problems${whole}\n`;
  const counts = `${plural(problems, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')})`;
  const mark = errors ? s.red('✖') : warnings ? s.yellow('⚠') : s.blue('ℹ');
  return `${out}${mark} ${s.bold(counts)} in ${plural(byFile.size, 'file')}; checked ${scope}${whole}\n`;
};
