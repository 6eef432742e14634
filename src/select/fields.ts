import type { ToolContract } from '../contract/types.js';
import { terms } from './tokenize.js';

/**
 * The searchable fields of a contract, in index order. Every piece of text a contract has lands
 * in exactly one of them, so that a match can be explained by field and weighted by field.
 * `translated` is derived, not written: the English rendering of the contract's Chinese name,
 * description and (at half weight) parameter text (see translate.ts and docStats).
 */
export const FIELDS = ['name', 'description', 'parameters', 'enums', 'tags', 'examples', 'translated'] as const;
export type Field = (typeof FIELDS)[number];

const MAX_DEPTH = 12;

function walkSchema(node: unknown, params: string[], enums: string[], depth: number): void {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const n of node) walkSchema(n, params, enums, depth + 1);
    return;
  }
  const s = node as Record<string, unknown>;
  for (const key of ['description', 'title']) if (typeof s[key] === 'string') params.push(s[key] as string);
  for (const key of ['enum', 'examples']) {
    if (Array.isArray(s[key]))
      for (const v of s[key] as unknown[]) if (typeof v === 'string' || typeof v === 'number') enums.push(String(v));
  }
  if (typeof s.const === 'string') enums.push(s.const);
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    const props = s[key];
    if (!props || typeof props !== 'object' || Array.isArray(props)) continue;
    for (const [name, sub] of Object.entries(props as Record<string, unknown>)) {
      // Property names are identifiers ("cityName"); $defs names are internal labels.
      if (key === 'properties') params.push(name);
      walkSchema(sub, params, enums, depth + 1);
    }
  }
  for (const key of [
    'items',
    'additionalProperties',
    'anyOf',
    'oneOf',
    'allOf',
    'not',
    'if',
    'then',
    'else',
    'prefixItems',
  ]) {
    if (s[key] && typeof s[key] === 'object') walkSchema(s[key], params, enums, depth + 1);
  }
}

/** The id, and the name only when it says more than the id (most names repeat it: count those words once). */
function nameText(c: ToolContract): string {
  if (!c.name) return c.id;
  return terms(c.name).join(' ') === terms(c.id).join(' ') ? c.id : `${c.id} ${c.name}`;
}

/** The text of each written field of a contract (FIELDS order, without `translated`). */
export function fieldTexts(c: ToolContract): string[] {
  const params: string[] = [];
  const enums: string[] = [];
  // The top-level schema's own description/title repeats the tool description at best: skip it.
  const schema =
    c.schema && typeof c.schema === 'object' ? { ...c.schema, description: undefined, title: undefined } : undefined;
  walkSchema(schema, params, enums, 0);
  const tags = [...(Array.isArray(c.tags) ? c.tags : []), ...(typeof c.provider === 'string' ? [c.provider] : [])];
  return [
    nameText(c),
    c.description ?? '',
    params.join(' \n '),
    enums.join(' \n '),
    tags.join(' \n '),
    (Array.isArray(c.examples) ? c.examples : []).join(' \n '),
  ];
}

/** All of a contract's searchable text in one string (what dense retrieval embeds). */
export function toolText(c: ToolContract): string {
  return toolTextOf(c, fieldTexts(c));
}

/** toolText from the contract's fieldTexts, when the caller has them already. */
export function toolTextOf(c: ToolContract, texts: string[]): string {
  const [, description, params, , tags, examples] = texts;
  return [c.name && c.name !== c.id ? `${c.name} (${c.id})` : c.id, description, params, tags, examples]
    .filter(Boolean)
    .join('\n');
}
