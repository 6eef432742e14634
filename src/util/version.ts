import { readFileSync } from 'node:fs';
import { packagePath } from './assets.js';

let cached: { name: string; version: string } | undefined;

function manifest(): { name: string; version: string } {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      cached = { name: pkg.name ?? 'agent-toolbox', version: pkg.version ?? '0.0.0' };
    } catch {
      cached = { name: 'agent-toolbox', version: '0.0.0' };
    }
  }
  return cached;
}

/**
 * This toolbox's version from its package.json ('0.0.0' when it cannot be read). Read once per
 * process: the CLI needs it for --version and `validate` for its SARIF/JSON reports.
 */
export function packageVersion(): string {
  return manifest().version;
}

/** The npm package name (what users install and what `node_modules/<name>` is called). */
export function packageName(): string {
  return manifest().name;
}
