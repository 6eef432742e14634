import type { JsonSchema } from '../contract/types.js';

/** Follow a local `$ref` ("#/$defs/x", "#/definitions/x") against the root schema; remote refs stay as they are. */
export function deref(schema: unknown, root: JsonSchema, depth = 0): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const s = schema as JsonSchema;
  const ref = s.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 20) return s;
  let cur: unknown = root;
  for (const seg of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
  }
  const target = deref(cur, root, depth + 1);
  if (!target) return s;
  // Keywords beside $ref (description, default) win over the target's.
  const { $ref: _ref, ...rest } = s;
  return { ...target, ...rest };
}

/** The declared properties of an object schema, including those of allOf/anyOf/oneOf branches. */
export function propertiesOf(schema: JsonSchema | undefined, root: JsonSchema): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const visit = (raw: unknown, depth: number) => {
    const s = deref(raw, root);
    if (!s || depth > 5) return;
    const props = s.properties;
    if (props && typeof props === 'object') {
      for (const [k, v] of Object.entries(props as Record<string, unknown>)) {
        if (!(k in out)) out[k] = deref(v, root) ?? {};
      }
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[key];
      if (Array.isArray(list)) for (const b of list) visit(b, depth + 1);
    }
  };
  visit(schema, 0);
  return out;
}

/** Names listed in `required` of an object schema (top level and allOf branches). */
export function requiredOf(schema: JsonSchema | undefined, root: JsonSchema): string[] {
  const s = deref(schema, root);
  if (!s) return [];
  const own = Array.isArray(s.required) ? (s.required as string[]) : [];
  const fromAll = Array.isArray(s.allOf) ? (s.allOf as unknown[]).flatMap((b) => requiredOf(deref(b, root), root)) : [];
  return [...new Set([...own, ...fromAll])];
}

/**
 * The JSON types a schema admits, from `type`, or inferred from `enum`/`const` values, or the
 * union of anyOf/oneOf branches. Empty means "anything".
 */
export function typesOf(schema: JsonSchema | undefined, root: JsonSchema): string[] {
  const s = deref(schema, root);
  if (!s) return [];
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type as string[];
  const values = Array.isArray(s.enum) ? (s.enum as unknown[]) : 'const' in s ? [s.const] : undefined;
  if (values) return [...new Set(values.map(jsonType))];
  const branches = [
    ...(Array.isArray(s.anyOf) ? s.anyOf : []),
    ...(Array.isArray(s.oneOf) ? s.oneOf : []),
  ] as unknown[];
  if (branches.length) {
    const all = branches.map((b) => typesOf(deref(b, root), root));
    if (all.some((t) => t.length === 0)) return [];
    return [...new Set(all.flat())];
  }
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  return [];
}

/** The JSON Schema type name of a value ('integer' for whole numbers). */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Enum choices of a schema (also from `const`, or from anyOf/oneOf branches made only of consts). */
export function choicesOf(schema: JsonSchema | undefined, root: JsonSchema): unknown[] | undefined {
  const s = deref(schema, root);
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return s.enum as unknown[];
  if ('const' in s) return [s.const];
  const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
    unknown[] | undefined;
  if (branches?.length) {
    const vals = branches.map((b) => choicesOf(deref(b, root), root));
    if (vals.every((v) => v !== undefined)) return vals.flat();
  }
  return undefined;
}
