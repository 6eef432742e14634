import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The package's templates/ folder (same depth from src/ and dist/). */
export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url));
/** The published contract schema, for `# yaml-language-server: $schema=` lines. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schemas/contract.schema.json', import.meta.url));

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
