import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Formatter } from './types.js';
import { jsonText } from '../inert.js';
import { displayPath } from '../../util/paths.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

// Paths under cwd are relative to %SRCROOT% (what code-scanning uploads expect); others are file URIs.
const artifact = (p: string) =>
  isAbsolute(p) ? { uri: pathToFileURL(p).href } : { uri: encodeURI(p), uriBaseId: '%SRCROOT%' };

/** SARIF 2.1.0: one run, tool.driver.rules from the rules' metadata, one result per diagnostic. */
export const sarif: Formatter = ({ diagnostics, rules, cwd, version }) => {
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'toolbox',
            version,
            rules: rules.map((r) => ({
              id: r.id,
              shortDescription: { text: r.description },
              fullDescription: { text: r.docs },
              help: { text: r.docs },
              defaultConfiguration: { level: LEVEL[r.severity] },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith('/') ? cwd : cwd + '/').href } },
        results: diagnostics.map((d) => ({
          ruleId: d.rule,
          ...(index.has(d.rule) ? { ruleIndex: index.get(d.rule) } : {}),
          level: LEVEL[d.severity],
          message: { text: d.hint ? `${d.message}. ${d.hint}` : d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: artifact(displayPath(d.file, cwd)),
                region: { startLine: d.line, startColumn: d.column },
              },
            },
          ],
        })),
      },
    ],
  };
  return jsonText(doc, 2) + '\n';
};
