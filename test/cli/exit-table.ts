// Parsing the two places exit codes are documented for people: the table after every --help, and
// README's "Exit codes" table. Both must equal EXIT_MEANINGS in src/errors.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { REPO } from '../helpers.js';

/** code -> meaning, from the "Exit codes:" block at the end of a --help text. */
export function helpExitTable(help: string): Record<string, string> {
  const at = help.lastIndexOf('\nExit codes:\n');
  if (at < 0) return {};
  const rows: Record<string, string> = {};
  for (const line of help.slice(at).split('\n').slice(2)) {
    const m = /^\s+(\d+)\s+(\S.*?)\s*$/.exec(line);
    if (!m) break;
    rows[m[1]!] = m[2]!;
  }
  return rows;
}

/** code -> meaning from README's "## Exit codes" markdown table (backticks dropped). */
export function readmeExitTable(): Record<string, string> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Exit codes\n'));
  const rows: Record<string, string> = {};
  for (const line of section.split('\n').slice(2)) {
    if (line.startsWith('## ')) break;
    const m = /^\|\s*(\d+)\s*\|\s*(.+?)\s*\|$/.exec(line);
    if (m) rows[m[1]!] = m[2]!.replace(/`/g, '');
  }
  return rows;
}

/** Every command path of the commander tree: [[], ['init'], …, ['import', 'mcp']]. */
export function commandPaths(program: Command): string[][] {
  const out: string[][] = [[]];
  const walk = (c: Command, prefix: string[]) => {
    for (const sub of c.commands) {
      const path = [...prefix, sub.name()];
      out.push(path);
      walk(sub, path);
    }
  };
  walk(program, []);
  return out;
}
