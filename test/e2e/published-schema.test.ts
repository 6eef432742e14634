import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { contractSchema } from '../../src/contract/schema.js';
import { ajvFor } from '../../src/contract/ajv.js';
import { REPO, REFERENCE_CONTRACT } from '../helpers.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import { renderSchema } from '../../scripts/gen-schema.mjs';

const FILE = join(REPO, 'schemas', 'contract.schema.json');

describe('schemas/contract.schema.json', () => {
  it('is committed and equals what the build generates from src/contract/schema.ts', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(renderSchema(contractSchema));
  });

  it('accepts the reference contract and rejects a broken one, as editors will', () => {
    const schema = JSON.parse(readFileSync(FILE, 'utf8'));
    const validate = ajvFor(schema).compile(schema);
    expect(validate(parse(REFERENCE_CONTRACT))).toBe(true);
    expect(validate({ ...parse(REFERENCE_CONTRACT), loader: 'python' })).toBe(false);
  });

  it('is shipped in the package', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(pkg.files).toEqual(expect.arrayContaining(['schemas', 'templates']));
    expect(pkg.scripts.build).toContain('gen-schema');
  });
});
