// Writes schemas/contract.schema.json from the compiled contract schema (dist/contract/schema.js),
// so editors (yaml-language-server) can check contracts as people type. Run by `npm run build`;
// the output is committed, and test/scripts/gen-schema.test.ts checks it is up to date.
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_FILE = join(root, 'schemas', 'contract.schema.json');

/** The exact text of the published schema for a contract schema object. */
export function renderSchema(schema) {
  return JSON.stringify(schema, null, 2) + '\n';
}

/**
 * The contract schema's validator as ajv standalone code (CommonJS), with the options of
 * src/contract/ajv.ts's draft-07 instance: src/contract/contract-validator.ts loads it instead of
 * compiling the schema in every process. The schema's own patterns are toolbox's (not a
 * contract's), so they run as native RegExps here; test/contract/contract-validator.test.ts
 * checks that it judges contracts exactly as the compiled schema does.
 */
export function renderValidator(schema) {
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv').default;
  const standalone = require('ajv/dist/standalone').default;
  const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true, code: { source: true } });
  return standalone(ajv, ajv.compile(schema));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { contractSchema } = await import(pathToFileURL(join(root, 'dist', 'contract', 'schema.js')).href);
  writeFileSync(join(root, 'dist', 'contract', 'contract-validate.cjs'), renderValidator(contractSchema));
  const text = renderSchema(contractSchema);
  let old;
  try {
    old = readFileSync(SCHEMA_FILE, 'utf8');
  } catch {
    old = undefined;
  }
  if (old !== text) {
    mkdirSync(dirname(SCHEMA_FILE), { recursive: true });
    writeFileSync(SCHEMA_FILE, text);
    process.stderr.write(`wrote ${SCHEMA_FILE}\n`);
  }
}
