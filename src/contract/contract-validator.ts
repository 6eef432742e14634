import { createRequire } from 'node:module';
import { codePath } from '../util/assets.js';
import { ajvFor, type AjvError } from './ajv.js';
import { contractSchema } from './schema.js';

/** An ajv validate function: true when valid, else `errors` says why. */
export type ValidateFn = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

let validator: ValidateFn | undefined;

/**
 * The contract schema's validator. `npm run build` writes it as ajv standalone code
 * (dist/contract/contract-validate.cjs, scripts/gen-schema.mjs): loading that costs a few ms where
 * compiling the schema costs ~85 ms in every process that checks a contract (a cold build, the
 * incremental update after an edit, validate). Without the file (tests run from src/), it is compiled.
 */
export function contractValidator(): ValidateFn {
  if (validator) return validator;
  try {
    validator = createRequire(import.meta.url)(codePath('contract', 'contract-validate.cjs')) as ValidateFn;
  } catch {
    validator = ajvFor(contractSchema).compile(contractSchema);
  }
  return validator;
}
