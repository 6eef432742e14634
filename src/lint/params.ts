import type { PathSeg } from '../contract/yaml-source.js';

/** One parameter (a property at any depth of the input schema) with its path in the contract. */
export interface Param {
  /** Dotted name for messages: "address.city", "items[].name". */
  name: string;
  schema: Record<string, unknown>;
  path: PathSeg[];
}

const isObj = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/**
 * Every parameter of a contract's input schema, nested ones included: object properties,
 * array items' properties, and the variants of anyOf/oneOf/allOf. Depth-limited (hostile input).
 */
export function collectParams(contract: Record<string, unknown>): Param[] {
  const out: Param[] = [];
  const schema = contract.schema;
  if (isObj(schema)) walk(schema, ['schema'], '', out, 0);
  return out;
}

function walk(s: Record<string, unknown>, path: PathSeg[], prefix: string, out: Param[], depth: number) {
  if (depth > 12) return;
  if (isObj(s.properties)) {
    for (const [k, v] of Object.entries(s.properties)) {
      if (!isObj(v)) continue;
      const name = prefix ? `${prefix}.${k}` : k;
      const p = [...path, 'properties', k];
      out.push({ name, schema: v, path: p });
      walk(v, p, name, out, depth + 1);
    }
  }
  if (isObj(s.items)) walk(s.items, [...path, 'items'], `${prefix}[]`, out, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const variants = s[key];
    if (Array.isArray(variants))
      variants.forEach((v, i) => {
        if (isObj(v)) walk(v, [...path, key, i], prefix, out, depth + 1);
      });
  }
}

/** True when the schema says what type its value has (directly or through enum/const/$ref/variants). */
export function hasType(s: Record<string, unknown>): boolean {
  if (s.type !== undefined || s.enum !== undefined || s.const !== undefined || typeof s.$ref === 'string') return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const v = s[key];
    if (Array.isArray(v) && v.length > 0 && v.every((x) => isObj(x) && hasType(x))) return true;
  }
  const all = s.allOf;
  return Array.isArray(all) && all.some((x) => isObj(x) && hasType(x));
}

/** A non-empty description string of a schema, if any (title counts too: it is shown to models). */
export function describedBy(s: Record<string, unknown>): string | undefined {
  const d = typeof s.description === 'string' ? s.description.trim() : '';
  if (d) return d;
  const t = typeof s.title === 'string' ? s.title.trim() : '';
  return t || undefined;
}
