// The precompiled contract validator (ajv standalone code written by the build) judges every
// contract exactly as the schema compiled at run time does: same verdict, same errors.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ajvFor } from '../../src/contract/ajv.js';
import { contractValidator, type ValidateFn } from '../../src/contract/contract-validator.js';
import { parseYamlSource } from '../../src/contract/yaml-source.js';
import { contractSchema } from '../../src/contract/schema.js';
import { REPO } from '../helpers.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import { renderValidator } from '../../scripts/gen-schema.mjs';

/** Load standalone code the way Node loads dist/contract/contract-validate.cjs. */
function load(code: string): ValidateFn {
  const module = { exports: {} as unknown };
  const require = createRequire(join(REPO, 'dist', 'contract', 'x.cjs'));
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports as ValidateFn;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const compiled = ajvFor(contractSchema).compile(contractSchema) as ValidateFn;
const verdict = (v: ValidateFn, data: unknown) => {
  const ok = v(structuredClone(data));
  return { ok, errors: ok ? [] : v.errors };
};

describe('the precompiled contract validator', () => {
  const precompiled = load(renderValidator(contractSchema) as string);

  it('agrees with the compiled schema on every contract of the repository and on broken variants of them', () => {
    const docs = ['tool_registry', 'test/fixtures', 'templates']
      .flatMap((d) => yamlFiles(join(REPO, d)))
      .map((f) => parseYamlSource(readFileSync(f, 'utf8')).value)
      .filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
    const variants = docs.flatMap((d) => [
      d,
      { ...d, id: 'Bad Id!' },
      { ...d, loader: 'python' },
      { ...d, timeout: 'soon' },
      { ...d, unknown_key: 1 },
      { ...d, loader_config: { module: '1bad', function: 'f' } },
      { ...d, sandbox: { memory: 'lots', network: 'yes' } },
      { ...d, permissions: { roles: 'admin' } },
      { ...d, examples: [1, 2] },
      { ...d, toString: 'x' },
      Object.fromEntries(Object.entries(d).filter(([k]) => k !== 'description')),
    ]);
    let valid = 0;
    for (const v of variants) {
      const want = verdict(compiled, v);
      expect(verdict(precompiled, v), JSON.stringify(v).slice(0, 200)).toEqual(want);
      if (want.ok) valid++;
    }
    // Both verdicts are exercised.
    expect(valid).toBeGreaterThan(20);
    expect(variants.length - valid).toBeGreaterThan(200);
  });

  it('is what the build wrote into dist/', () => {
    const file = join(REPO, 'dist', 'contract', 'contract-validate.cjs');
    expect(existsSync(file)).toBe(true); // npm test builds first
    expect(readFileSync(file, 'utf8')).toBe(renderValidator(contractSchema));
  });

  it('falls back to compiling the schema when there is no built file (running from src/)', () => {
    const v = contractValidator();
    expect(v({ id: 'x' })).toBe(false);
    expect(v.errors?.some((e) => e.keyword === 'required')).toBe(true);
  });
});
