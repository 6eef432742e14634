// Every string of a contract a model is shown, for the poisoning check: the id, name, title,
// description, the annotations' strings, and everything in the input and output schemas at any
// depth (descriptions and titles, property names, enum/default/const/examples values however
// nested, $comment and unknown keywords). One walk, labels as the other rules word them.
import type { PathSeg } from '../../contract/yaml-source.js';

/** A string of the contract a model sees. */
export interface SeenText {
  path: PathSeg[];
  /** For messages: "description", "description of parameter 'city'", "enum value of 'unit'". */
  what: string;
  text: string;
  /** 'value': enum/default/const/examples; 'key': a property name or the id; 'prose': everything else. */
  kind: 'prose' | 'value' | 'key';
  /** Belongs to a parameter: its description, title, a value, its name. */
  inParam: boolean;
  /** For values: does the parameter hold a path, file or key (a secret path as its default is a default)? */
  pathParam?: () => boolean;
}
const NO_PATH: PathSeg[] = [];

const isObj = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

// Schema keywords whose string values are structure, not words for the model.
const STRUCTURAL = new Set(['type', 'format', '$ref', '$schema', '$id', '$anchor', 'pattern', 'required']);
const VALUE_LABEL: Record<string, string> = {
  enum: 'enum value',
  const: 'const',
  default: 'default',
  examples: 'example value',
  example: 'example value',
};
const SUBSCHEMAS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'additionalProperties', 'items']);
const PATH_NAME = /path|file|dir|folder|key|identity|cert|credential|config|ssh|location/i;
const PATH_DESC = /\b(?:path|file|folder|directory)\b|路径|文件/i;
const MAX_DEPTH = 24;
/** Whether the walk in progress records paths and labels (seenTexts' `detail`). */
let D = true;
const copy = (path: PathSeg[]) => (D ? path.slice() : NO_PATH);

/**
 * The strings of a contract a model is shown. With `detail`, with their paths and labels; without,
 * only the texts (in the same order): most contracts are clean, and paths and labels cost an
 * allocation each.
 */
export function seenTexts(data: Record<string, unknown>, detail = true): SeenText[] {
  const out: SeenText[] = [];
  D = detail;
  const top = (key: string, v: unknown, kind: SeenText['kind'] = 'prose') => {
    if (typeof v === 'string') out.push({ path: D ? [key] : NO_PATH, what: key, text: v, kind, inParam: false });
  };
  top('id', data.id, 'key');
  top('name', data.name);
  top('title', data.title);
  top('description', data.description);
  if (isObj(data.annotations))
    for (const [k, v] of Object.entries(data.annotations))
      if (typeof v === 'string')
        out.push({ path: ['annotations', k], what: `annotations.${k}`, text: v, kind: 'prose', inParam: false });
  for (const root of ['schema', 'output_schema'] as const)
    if (isObj(data[root])) schema(data[root], [root], root === 'schema' ? '' : 'output', undefined, out, 0);
  return out;
}

/** The parameter a schema node describes: its dotted name and its own schema (for the path test). */
interface Param {
  name: string;
  node: Record<string, unknown>;
  /** A parameter of the input schema, which the model fills (an output field is not). */
  input: boolean;
}

// The walk keeps one path stack (pushed and popped) and copies it only for the strings it keeps:
// validate walks every schema of registries of 50,000 tools.
function schema(
  node: Record<string, unknown>,
  path: PathSeg[],
  where: string,
  param: Param | undefined,
  out: SeenText[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  const inParam = param?.input === true;
  for (const k in node) {
    if (STRUCTURAL.has(k)) continue;
    const v = node[k];
    path.push(k);
    if (k === 'properties' && isObj(v)) {
      for (const name in v) {
        const sub = v[name];
        const full = !D ? name : param ? `${param.name}.${name}` : where ? `${where}.${name}` : name;
        path.push(name);
        out.push({
          path: copy(path),
          what: D ? `parameter name '${full}'` : '',
          text: name,
          kind: 'key',
          inParam: !where,
        });
        if (isObj(sub)) schema(sub, path, where, { name: full, node: sub, input: !where }, out, depth + 1);
        path.pop();
      }
    } else if (VALUE_LABEL[k]) {
      const what = param
        ? `${VALUE_LABEL[k]} of '${param.name}'`
        : `${VALUE_LABEL[k]} of the ${where || 'input'} schema`;
      values(v, path, what, param, out, depth + 1, 'value');
    } else if (typeof v === 'string') {
      const what = !D ? '' : param ? `${k} of parameter '${param.name}'` : `${where ? `${where} ` : ''}schema ${k}`;
      out.push({ path: copy(path), what, text: v, kind: 'prose', inParam });
    } else if (SUBSCHEMAS.has(k)) {
      const sub = k === 'items' && param && D ? { ...param, name: `${param.name}[]` } : param;
      subschemas(v, path, where, sub, out, depth + 1, false);
    } else if (k === '$defs' || k === 'definitions' || k === 'patternProperties') {
      subschemas(v, path, where, param, out, depth + 1, true);
    } else if (v && typeof v === 'object') {
      values(
        v,
        path,
        D ? `${k} of ${param ? `parameter '${param.name}'` : 'the schema'}` : '',
        param,
        out,
        depth + 1,
        'prose',
      );
    }
    path.pop();
  }
}

function subschemas(
  v: unknown,
  path: PathSeg[],
  where: string,
  param: Param | undefined,
  out: SeenText[],
  depth: number,
  named: boolean,
): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      if (!isObj(x)) return;
      path.push(i);
      schema(x, path, where, param, out, depth);
      path.pop();
    });
  } else if (isObj(v)) {
    if (!named) schema(v, path, where, param, out, depth);
    else
      for (const k in v) {
        const x = v[k];
        if (!isObj(x)) continue;
        path.push(k);
        schema(x, path, where, param, out, depth);
        path.pop();
      }
  }
}

/** Every string inside a value (enum member, default, example), however nested. */
function values(
  v: unknown,
  path: PathSeg[],
  what: string,
  param: Param | undefined,
  out: SeenText[],
  depth: number,
  kind: 'value' | 'prose',
): void {
  if (depth > MAX_DEPTH) return;
  if (typeof v === 'string') {
    const t: SeenText = { path: copy(path), what, text: v, kind, inParam: param?.input === true };
    if (kind === 'value' && param) t.pathParam = () => isPathParam(param);
    out.push(t);
  } else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      values(v[i], path, what, param, out, depth + 1, kind);
      path.pop();
    }
  } else if (isObj(v)) {
    for (const k in v) {
      path.push(k);
      values(v[k], path, what, param, out, depth + 1, kind);
      path.pop();
    }
  }
}

function isPathParam(param: Param): boolean {
  const last = param.name.split('.').pop()?.replace(/\[\]$/, '') ?? '';
  const desc = typeof param.node.description === 'string' ? param.node.description : '';
  return PATH_NAME.test(last) || PATH_DESC.test(desc);
}
