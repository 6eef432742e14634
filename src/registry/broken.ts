import { relative } from 'node:path';

// Kept apart from registry.ts so that commands on a warm cache can warn without loading the parser.

/** The one warning every command prints when it skipped broken contract files. */
export function brokenFilesWarning(files: readonly string[], base: string): string | undefined {
  if (!files.length) return undefined;
  const names =
    files
      .slice(0, 5)
      .map((f) => relative(base, f) || f)
      .join(', ') + (files.length > 5 ? `, and ${files.length - 5} more` : '');
  return `skipped ${files.length} broken contract file${files.length > 1 ? 's' : ''}: ${names}. Run \`toolbox validate\` for details.`;
}
