import { createRequire } from 'node:module';

// yaml costs ~20 ms to load: loaded (synchronously, through its CommonJS build) on the first
// YAML text to parse, so commands that read no YAML (warm select, run) never pay for it.
let yamlLib: typeof import('yaml') | undefined;

/** The `yaml` package, loaded on first use. */
export const yaml = (): typeof import('yaml') =>
  (yamlLib ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));
