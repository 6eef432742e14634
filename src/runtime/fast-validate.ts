import { linearRegExp } from '../contract/regex.js';
import type { JsonSchema } from '../contract/types.js';

// Keywords this validator implements exactly as ajv does, plus annotations that never affect
// validity. A schema using anything else (format, $ref, anyOf, pattern flags, ...) goes to ajv.
const IMPLEMENTED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'title',
  'description',
  'default',
  'examples',
  '$schema',
  '$id',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const prim = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function supported(s: unknown, depth = 0): boolean {
  if (typeof s === 'boolean') return true;
  if (!s || typeof s !== 'object' || Array.isArray(s) || depth > 32) return false;
  for (const [k, v] of Object.entries(s as JsonSchema)) {
    if (!IMPLEMENTED.has(k)) return false;
    switch (k) {
      case 'type':
        if (![v].flat().every((t) => TYPES.has(t as string))) return false;
        break;
      case 'properties':
        if (!v || typeof v !== 'object' || !Object.values(v).every((p) => supported(p, depth + 1))) return false;
        break;
      case 'additionalProperties':
      case 'items':
        if (!supported(v, depth + 1)) return false;
        break;
      case 'required':
        if (!Array.isArray(v)) return false;
        break;
      case 'enum':
        if (!Array.isArray(v) || !v.every(prim)) return false;
        break;
      case 'const':
        if (!prim(v)) return false;
        break;
      case 'pattern':
        try {
          linearRegExp(String(v));
        } catch {
          return false;
        }
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
        if (typeof v !== 'number') return false;
        break;
    }
  }
  return true;
}

function typeOk(t: string, v: unknown): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    default:
      return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
}

function valid(s: unknown, v: unknown): boolean {
  if (typeof s === 'boolean') return s;
  const x = s as JsonSchema;
  if (x.type !== undefined && ![x.type].flat().some((t) => typeOk(t as string, v))) return false;
  if (x.enum && !(x.enum as unknown[]).some((e) => e === v)) return false;
  if (Object.hasOwn(x, 'const') && x.const !== v) return false;
  if (typeof v === 'number') {
    if (typeof x.minimum === 'number' && v < x.minimum) return false;
    if (typeof x.maximum === 'number' && v > x.maximum) return false;
    if (typeof x.exclusiveMinimum === 'number' && v <= x.exclusiveMinimum) return false;
    if (typeof x.exclusiveMaximum === 'number' && v >= x.exclusiveMaximum) return false;
  }
  if (typeof v === 'string') {
    const len = [...v].length; // code points, as ajv counts them
    if (typeof x.minLength === 'number' && len < x.minLength) return false;
    if (typeof x.maxLength === 'number' && len > x.maxLength) return false;
    if (typeof x.pattern === 'string' && !linearRegExp(x.pattern).test(v)) return false;
  }
  if (Array.isArray(v)) {
    if (typeof x.minItems === 'number' && v.length < x.minItems) return false;
    if (typeof x.maxItems === 'number' && v.length > x.maxItems) return false;
    if (x.items !== undefined && !v.every((i) => valid(x.items, i))) return false;
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    // Own properties only: a required `toString` or `valueOf` is not supplied by Object.prototype.
    if (
      Array.isArray(x.required) &&
      !x.required.every((k) => Object.hasOwn(o, k as string) && o[k as string] !== undefined)
    )
      return false;
    const props = (x.properties ?? {}) as Record<string, unknown>;
    for (const [k, val] of Object.entries(o)) {
      if (val === undefined) continue;
      if (Object.hasOwn(props, k)) {
        if (!valid(props[k], val)) return false;
      } else if (x.additionalProperties !== undefined && !valid(x.additionalProperties, val)) return false;
    }
  }
  return true;
}

const support = new WeakMap<object, boolean>();

/**
 * Validate without loading ajv (~70 ms per process) when the schema only uses the common keywords
 * implemented here. Returns true (valid), false (invalid: ask ajv for the messages), or undefined
 * (the schema uses something else: ask ajv).
 */
export function fastValidate(schema: JsonSchema, data: unknown): boolean | undefined {
  let ok = support.get(schema);
  if (ok === undefined) support.set(schema, (ok = supported(schema)));
  return ok ? valid(schema, data) : undefined;
}
