// Which strings of a contract a model reads, with where they are: shared by the description and
// poisoning rules.
import type { PathSeg } from '../contract/yaml-source.js';
import { collectParams } from './params.js';

/** One string a model will read, with where it is in the contract. */
export interface ModelText {
  path: PathSeg[];
  /** For messages: "description", "description of parameter 'city'", "enum value of 'unit'". */
  what: string;
  text: string;
  /** 'prose' for names/titles/descriptions; 'value' for enum/default/const/examples values. */
  kind: 'prose' | 'value';
}

const isObj = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

function valuesOf(s: Record<string, unknown>, base: PathSeg[], param: string, out: ModelText[]) {
  const push = (v: unknown, path: PathSeg[], label: string) => {
    if (typeof v === 'string') out.push({ path, what: `${label} of '${param}'`, text: v, kind: 'value' });
  };
  if (Array.isArray(s.enum)) s.enum.forEach((v, i) => push(v, [...base, 'enum', i], 'enum value'));
  if (Array.isArray(s.examples)) s.examples.forEach((v, i) => push(v, [...base, 'examples', i], 'example value'));
  push(s.default, [...base, 'default'], 'default');
  push(s.const, [...base, 'const'], 'const');
}

/**
 * Everything in a contract that ends up in front of the model: name, title, description,
 * annotations' title, each parameter's description/title and its enum/default/const/examples.
 */
export function modelTexts(data: Record<string, unknown>): ModelText[] {
  const out: ModelText[] = [];
  for (const key of ['name', 'title', 'description'] as const) {
    const v = data[key];
    if (typeof v === 'string') out.push({ path: [key], what: key, text: v, kind: 'prose' });
  }
  if (isObj(data.annotations) && typeof data.annotations.title === 'string')
    out.push({
      path: ['annotations', 'title'],
      what: 'annotations.title',
      text: data.annotations.title,
      kind: 'prose',
    });
  if (isObj(data.schema) && typeof data.schema.description === 'string')
    out.push({
      path: ['schema', 'description'],
      what: 'schema description',
      text: data.schema.description,
      kind: 'prose',
    });
  for (const p of collectParams(data)) {
    for (const key of ['description', 'title'] as const) {
      const v = p.schema[key];
      if (typeof v === 'string')
        out.push({ path: [...p.path, key], what: `${key} of parameter '${p.name}'`, text: v, kind: 'prose' });
    }
    valuesOf(p.schema, p.path, p.name, out);
  }
  return out;
}

/** Every string and key of a contract, with its path (depth-limited: hostile input). */
export function allStrings(v: unknown, path: PathSeg[] = [], out: { path: PathSeg[]; text: string }[] = [], depth = 0) {
  if (depth > 40) return out;
  if (typeof v === 'string') out.push({ path, text: v });
  else if (Array.isArray(v)) v.forEach((x, i) => allStrings(x, [...path, i], out, depth + 1));
  else if (isObj(v)) {
    for (const [k, x] of Object.entries(v)) {
      out.push({ path: [...path, k], text: k });
      allStrings(x, [...path, k], out, depth + 1);
    }
  }
  return out;
}
