import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * This toolbox's version from its package.json ('0.0.0' when it cannot be read). Read once per
 * process: the CLI needs it for --version and `validate` for its SARIF/JSON reports.
 */
export function packageVersion(): string {
  if (cached === undefined) {
    try {
      cached = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
        .version;
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}
