import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { packagePath } from '../util/assets.js';

/** The package's templates/ folder. */
export const TEMPLATES_DIR = packagePath('templates') + sep;
/** The published contract schema, for `# yaml-language-server: $schema=` lines. */
export const SCHEMA_FILE = packagePath('schemas', 'contract.schema.json');

/**
 * Fill a template: `%%key%%` markers (not `{{…}}`, which contracts use for their own
 * placeholders). A marker without a value is a bug in toolbox, not in the user's input.
 */
export function render(text: string, values: Record<string, string>): string {
  return text.replace(/%%([a-z_]+)%%/g, (_, k: string) => {
    const v = values[k];
    if (v === undefined) throw new Error(`template marker %%${k}%% has no value`);
    return v;
  });
}

export function readTemplate(rel: string): string {
  return readFileSync(join(TEMPLATES_DIR, rel), 'utf8');
}
