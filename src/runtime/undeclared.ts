import type { JsonSchema } from '../contract/types.js';
import { linearRegExp, type LinearRegExp } from '../contract/regex.js';
import { deref, propertiesOf } from './schema-walk.js';

/** What the top level of a tool's input schema accepts as argument names. */
interface Names {
  /** The schema says so explicitly: additionalProperties (or unevaluatedProperties) true or a schema. */
  open: boolean;
  declared: Set<string>;
  patterns: LinearRegExp[];
}

const cache = new WeakMap<object, Names>();

// An explicit `additionalProperties: true` or a subschema opens the object; an absent one does not.
// That is the rule the CLI's flags already follow (args.ts resolveFlag): a misspelt or invented
// argument must not reach a Python function as a keyword, fail there, and count against the tool.
const opens = (v: unknown) => v === true || (!!v && typeof v === 'object');

function namesOf(schema: JsonSchema): Names {
  let n = cache.get(schema);
  if (n) return n;
  const declared = new Set(Object.keys(propertiesOf(schema, schema)));
  const patterns: LinearRegExp[] = [];
  let open = false;
  const visit = (raw: unknown, depth: number) => {
    const s = deref(raw, schema);
    if (!s || depth > 5) return;
    if (opens(s.additionalProperties) || opens(s.unevaluatedProperties)) open = true;
    const pp = s.patternProperties;
    if (pp && typeof pp === 'object') {
      for (const p of Object.keys(pp)) {
        try {
          patterns.push(linearRegExp(p));
        } catch {
          open = true; // a pattern this engine cannot run: let ajv decide, as before
        }
      }
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[key];
      if (Array.isArray(list)) for (const b of list) visit(b, depth + 1);
    }
  };
  visit(schema, 0);
  n = { open, declared, patterns };
  cache.set(schema, n);
  return n;
}

/**
 * The top-level argument names the schema neither declares nor explicitly allows. validateArgs
 * refuses them before the call (exit 2): a caller's invented or misspelt argument is the caller's
 * mistake, never a tool failure that the breaker would count. A schema that wants free-form
 * arguments says so with `additionalProperties: true` (or a schema for them), or `patternProperties`.
 */
export function undeclaredArgs(schema: JsonSchema, args: Record<string, unknown>): string[] {
  const n = namesOf(schema);
  if (n.open) return [];
  const out: string[] = [];
  for (const k of Object.keys(args)) {
    if (args[k] === undefined || n.declared.has(k)) continue;
    if (n.patterns.some((re) => re.test(k))) continue;
    out.push(k);
  }
  return out;
}
