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

const SUBSCHEMAS = [
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
] as const;

/** `top`: the contract's schema itself, whose description and title are skipped (see fieldsOf). */
function walkSchema(node: unknown, params: string[], enums: string[], depth: number, top = false): void {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const n of node) walkSchema(n, params, enums, depth + 1);
    return;
  }
  const s = node as Record<string, unknown>;
  // The keys one by one, in this order (it is the order of the text): this runs on every schema node.
  if (!top && typeof s.description === 'string') params.push(s.description);
  if (!top && typeof s.title === 'string') params.push(s.title);
  values(s.enum, enums);
  values(s.examples, enums);
  if (typeof s.const === 'string') enums.push(s.const);
  named(s.properties, true, params, enums, depth);
  named(s.patternProperties, false, params, enums, depth);
  named(s.$defs, false, params, enums, depth);
  named(s.definitions, false, params, enums, depth);
  for (const key of SUBSCHEMAS) {
    const sub = s[key];
    if (sub && typeof sub === 'object') walkSchema(sub, params, enums, depth + 1);
  }
}

function values(list: unknown, enums: string[]): void {
  if (Array.isArray(list))
    for (const v of list as unknown[]) if (typeof v === 'string' || typeof v === 'number') enums.push(String(v));
}

/** Subschemas by name: property names are identifiers ("cityName"); $defs names are internal labels. */
function named(props: unknown, isProperties: boolean, params: string[], enums: string[], depth: number): void {
  if (!props || typeof props !== 'object' || Array.isArray(props)) return;
  for (const [name, sub] of Object.entries(props as Record<string, unknown>)) {
    if (isProperties) params.push(name);
    walkSchema(sub, params, enums, depth + 1);
  }
}

/**
 * The name field: the id, and the name only when it says more than the id (most names repeat it:
 * count those words once). With its terms, found anyway to compare the two: the terms of
 * "id name" are the id's followed by the name's (a space splits every term and changes no character).
 */
function nameField(c: ToolContract): [string, string[]] {
  const id = terms(c.id);
  if (!c.name) return [c.id, id];
  const name = terms(c.name);
  return sameTerms(id, name) ? [c.id, id] : [`${c.id} ${c.name}`, id.concat(name)];
}

const sameTerms = (a: string[], b: string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** A contract's field texts (fieldTexts) and the terms of its name field (the first). */
export interface Fields {
  texts: string[];
  nameTerms: string[];
}

/** The text of each written field of a contract (FIELDS order, without `translated`). */
export function fieldTexts(c: ToolContract): string[] {
  return fieldsOf(c).texts;
}

/** fieldTexts, with the name field's terms (docStatsOf then need not find them again). */
export function fieldsOf(c: ToolContract): Fields {
  const params: string[] = [];
  const enums: string[] = [];
  // The top-level schema's own description/title repeats the tool description at best: skip it.
  // (A list is no schema: nothing of it is text.)
  if (c.schema && typeof c.schema === 'object' && !Array.isArray(c.schema))
    walkSchema(c.schema, params, enums, 0, true);
  const tags = [...(Array.isArray(c.tags) ? c.tags : []), ...(typeof c.provider === 'string' ? [c.provider] : [])];
  const [name, nameTerms] = nameField(c);
  const texts = [
    name,
    c.description ?? '',
    params.join(' \n '),
    enums.join(' \n '),
    tags.join(' \n '),
    (Array.isArray(c.examples) ? c.examples : []).join(' \n '),
  ];
  return { texts, nameTerms };
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
