import { createRequire } from 'node:module';
import type { JsonSchema } from './types.js';
import { linearRegExp } from './regex.js';

// ajv is CommonJS; loading it through require keeps the NodeNext typings simple and lets us
// construct it only when a command actually validates something.
const require = createRequire(import.meta.url);

type AjvLike = {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
  validateSchema(schema: object): boolean;
  errors?: AjvError[] | null;
};
export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

let draft07: AjvLike | undefined;
let draft2020: AjvLike | undefined;

function make(kind: '07' | '2020'): AjvLike {
  const Ctor = kind === '2020' ? require('ajv/dist/2020').default : require('ajv').default;
  // ownProperties: a required 'toString' must really be there, not inherited from Object.prototype.
  const ajv = new Ctor({
    allErrors: true,
    strict: false,
    validateFormats: true,
    ownProperties: true,
    loadSchema: undefined,
    // Contract patterns run on any caller's arguments: a linear-time engine, never backtracking.
    code: { regExp: Object.assign((p: string, f: string) => linearRegExp(p, f), { code: 'linearRegExp' }) },
  });
  require('ajv-formats').default(ajv);
  linearFormats(ajv as unknown as { addFormat(name: string, f: unknown): void });
  return ajv as AjvLike;
}

// Format regexes are ajv-formats' own (fixed, not from contracts). Those RE2 can run are swapped
// for linear-time matchers; the rest (lookaround in duration, url, hostname) and the formats
// checked by functions only ever see at most 8 KiB of input.
const FORMAT_INPUT_CAP = 8192;
function linearFormats(ajv: { addFormat(name: string, f: unknown): void }): void {
  const formats = require('ajv-formats/dist/formats').fullFormats as Record<string, unknown>;
  for (const [name, f] of Object.entries(formats)) {
    const re = f instanceof RegExp ? f : undefined;
    if (re) {
      // Compiled on first use (RE2 compiles of all formats cost ~50 ms in every process that checks a contract).
      let test: ((s: string) => boolean) | undefined;
      const compile = (): ((s: string) => boolean) => {
        try {
          const lin = linearRegExp(re.source, re.flags);
          return (s) => lin.test(s);
        } catch {
          return (s) => s.length <= FORMAT_INPUT_CAP && re.test(s);
        }
      };
      ajv.addFormat(name, { type: 'string', validate: (s: string) => (test ??= compile())(s) });
      continue;
    }
    const fn = f && typeof f === 'object' ? (f as { validate?: unknown; type?: string; compare?: unknown }) : undefined;
    const v = typeof f === 'function' ? f : fn?.validate;
    if (typeof v !== 'function' || (fn?.type && fn.type !== 'string')) continue;
    const inner = v as (s: string) => boolean;
    ajv.addFormat(name, {
      ...(fn ?? {}),
      type: 'string',
      validate: (s: string) => s.length <= FORMAT_INPUT_CAP && inner(s),
    });
  }
}

/** The ajv instance for a schema's dialect: draft 2020-12 when its $schema says so, else draft-07. */
export function ajvFor(schema: JsonSchema | undefined): AjvLike {
  const dialect = typeof schema?.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12') || dialect.includes('2019-09')) return (draft2020 ??= make('2020'));
  return (draft07 ??= make('07'));
}

/** Paths ("$defs.x.$ref") of every $ref that does not point inside the document. */
export function remoteRefs(
  schema: unknown,
  path: (string | number)[] = [],
  out: { path: (string | number)[]; ref: string }[] = [],
) {
  // `path` is used as a stack (restored on return) and copied only for a finding: this runs on every schema.
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i++) {
      path.push(i);
      remoteRefs(schema[i], path, out);
      path.pop();
    }
  } else if (schema && typeof schema === 'object') {
    const o = schema as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const v = o[k];
      if ((k === '$ref' || k === '$dynamicRef') && typeof v === 'string' && !v.startsWith('#'))
        out.push({ path: [...path, k], ref: v });
      else {
        path.push(k);
        remoteRefs(v, path, out);
        path.pop();
      }
    }
  }
  return out;
}

/** Turn an ajv instancePath ("/schema/properties/city") into path segments. */
export function pointerToPath(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
