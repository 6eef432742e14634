import type { UpstreamChange } from './upstream.js';

interface Style {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  bold(s: string): string;
}

/**
 * `import mcp --check` for people: one line per changed, new or removed server tool. A changed
 * description is flagged as the classic rug pull; an unchanged server prints one line.
 */
export function upstreamCheckText(
  server: { name: string; version: string },
  changes: UpstreamChange[],
  s: Style,
): string {
  if (changes.length === 0)
    return `${s.green('unchanged')} MCP server '${server.name}' ${server.version}: every tool matches toolbox.lock\n`;
  const lines = changes.map((c) => {
    const who = c.id ? `${c.id} (${c.tool})` : c.tool;
    if (c.status === 'added') return `${s.yellow('added  ')} ${who}: new on the server, not in toolbox.lock`;
    if (c.status === 'removed') return `${s.yellow('removed')} ${who}: in toolbox.lock, gone from the server`;
    const rug = c.fields.includes('description') ? s.red(s.bold(' (description rewritten by the server)')) : '';
    return `${s.red('changed')} ${who}: ${c.fields.join(', ')} changed${rug}`;
  });
  return `${lines.join('\n')}\n${changes.length} change(s) on MCP server '${server.name}' ${server.version} since toolbox.lock; review, then \`toolbox import mcp\` (without --check) to update\n`;
}
