import type { JsonSchema } from '../contract/types.js';
import { ExitCode, ToolboxError, closest } from '../errors.js';
import { choicesOf, deref, jsonType, propertiesOf, typesOf } from './schema-walk.js';

/** Where a flag points inside the arguments object, and the schema found there. */
interface FlagTarget {
  path: string[];
  schema: JsonSchema;
}

const argError = (code: string, message: string, toolId: string, details: Record<string, unknown>) =>
  new ToolboxError(code, message, {
    exitCode: ExitCode.usage,
    hint: `Run \`toolbox run ${toolId} --help\` for the tool's parameters.`,
    details,
  });

const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');

/** Find a property by exact name, else by name ignoring case, '-' and '_' (so --max-results finds max_results). */
function findKey(props: Record<string, JsonSchema>, name: string): string | undefined {
  if (name in props) return name;
  const n = norm(name);
  return Object.keys(props).find((k) => norm(k) === n);
}

function resolveFlag(root: JsonSchema, name: string): FlagTarget | undefined {
  const path: string[] = [];
  let cur: JsonSchema | undefined = root;
  for (const seg of name.split('.')) {
    if (!cur) return undefined;
    const props = propertiesOf(cur, root);
    const key = findKey(props, seg);
    if (key !== undefined) {
      path.push(key);
      cur = props[key];
      continue;
    }
    // Undeclared keys only where the schema says so explicitly (a typo must not pass silently).
    const extra: unknown = deref(cur, root)?.additionalProperties;
    if (extra === true || (extra && typeof extra === 'object')) {
      path.push(seg);
      cur = extra === true ? {} : deref(extra, root);
      continue;
    }
    return undefined;
  }
  return cur ? { path, schema: cur } : undefined;
}

/** Every flag name the schema offers (nested objects as a.b), for "Did you mean". */
export function flagNames(root: JsonSchema, schema: JsonSchema = root, prefix = '', depth = 0): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(propertiesOf(schema, root))) {
    out.push(prefix + k);
    if (depth < 3 && typesOf(v, root).includes('object')) out.push(...flagNames(root, v, `${prefix}${k}.`, depth + 1));
  }
  return out;
}

const INT = /^[-+]?\d+$/;
const NUM = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const BOOLS: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  on: true,
  off: false,
  '1': true,
  '0': false,
};

function tryType(type: string, raw: string): { ok: true; value: unknown } | { ok: false } {
  switch (type) {
    case 'string':
      return { ok: true, value: raw };
    case 'integer':
      return INT.test(raw.trim()) && Number.isSafeInteger(Number(raw))
        ? { ok: true, value: Number(raw) }
        : { ok: false };
    case 'number':
      return NUM.test(raw.trim()) ? { ok: true, value: Number(raw) } : { ok: false };
    case 'boolean':
      return raw.toLowerCase() in BOOLS ? { ok: true, value: BOOLS[raw.toLowerCase()] } : { ok: false };
    case 'null':
      return raw === 'null' ? { ok: true, value: null } : { ok: false };
    case 'array':
    case 'object': {
      try {
        const v = JSON.parse(raw) as unknown;
        return jsonType(v) === type ? { ok: true, value: v } : { ok: false };
      } catch {
        return { ok: false };
      }
    }
    default:
      return { ok: false };
  }
}

const EXPECT: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  array: 'a JSON array',
  object: 'a JSON object',
  string: 'a string',
};
// With several admitted types, the most specific conversion that succeeds wins; a string stays a string last.
const ORDER = ['null', 'integer', 'number', 'boolean', 'array', 'object', 'string'];

/**
 * Convert one flag value by the schema's declared type. Never guesses: a value that does not
 * convert to an admitted type is a usage error naming the flag, what was expected and what was given.
 */
export function convertValue(raw: string, schema: JsonSchema, root: JsonSchema, flag: string, toolId: string): unknown {
  const choices = choicesOf(schema, root);
  if (choices) {
    // By index: a null choice is a hit too (`find` would return the same null as a miss).
    const at = choices.findIndex((c) =>
      typeof c === 'string' ? c === raw : JSON.stringify(c) === raw || String(c) === raw,
    );
    if (at >= 0) return choices[at];
    const list = choices.map((c) => (typeof c === 'string' ? c : JSON.stringify(c)));
    const near = closest(raw, list, 1);
    throw argError(
      'invalid_argument',
      `${flag}: expected one of ${list.join(', ')}; got '${raw}'.${near.length ? ` Did you mean '${near[0]}'?` : ''}`,
      toolId,
      { flag, param: flag.slice(2), expected: `one of: ${list.join(', ')}`, given: raw, choices },
    );
  }
  const types = typesOf(schema, root);
  if (types.length === 0) return raw;
  const ordered = ORDER.filter((t) => types.includes(t));
  for (const t of ordered) {
    const r = tryType(t, raw);
    if (r.ok) return r.value;
  }
  const expected = types.map((t) => EXPECT[t] ?? t).join(' or ');
  throw argError('invalid_argument', `${flag}: expected ${expected}, got '${raw}'.`, toolId, {
    flag,
    param: flag.slice(2),
    expected: types.join('|'),
    given: raw,
  });
}

function setPath(obj: Record<string, unknown>, path: string[], value: unknown): void {
  let cur = obj;
  for (const k of path.slice(0, -1)) {
    const next = cur[k];
    if (!next || typeof next !== 'object' || Array.isArray(next)) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

function getPath(obj: Record<string, unknown>, path: string[]): unknown {
  let cur: unknown = obj;
  for (const k of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

/** Merge `b` into `a` (objects recursively; everything else replaced). Returns a new object. */
export function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const old = out[k];
    const isObj = (x: unknown): x is Record<string, unknown> =>
      Boolean(x) && typeof x === 'object' && !Array.isArray(x);
    out[k] = isObj(old) && isObj(v) ? deepMerge(old, v) : v;
  }
  return out;
}

/**
 * Turn `--<param> <value>` flags into an arguments object typed by the tool's JSON Schema:
 * `--name=value`, booleans as `--flag` / `--no-flag` / `--flag=false`, arrays by repeating the flag
 * (or one JSON array), nested objects as `--address.city X` or `--address '{"city":"X"}'`.
 */
export function argsFromFlags(schema: JsonSchema, tokens: string[], toolId: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (!tok.startsWith('--') || tok === '--') {
      throw argError(
        'unexpected_argument',
        `unexpected argument '${tok}': tool arguments are flags, e.g. --${flagNames(schema)[0] ?? 'name'} <value>.`,
        toolId,
        { given: tok },
      );
    }
    let name = tok.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    const target = resolveFlag(schema, name);
    if (!target && name.startsWith('no-') && value === undefined) {
      const t = resolveFlag(schema, name.slice(3));
      if (t && typesOf(t.schema, schema).includes('boolean')) {
        setPath(out, t.path, false);
        continue;
      }
    }
    if (!target) {
      const near = closest(name, flagNames(schema));
      throw argError(
        'unknown_argument',
        `unknown argument --${name} for tool '${toolId}'.${near.length ? ` Did you mean ${near.map((n) => `--${n}`).join(' or ')}?` : ''}`,
        toolId,
        { flag: `--${name}`, suggestions: near.map((n) => `--${n}`), valid: flagNames(schema).map((n) => `--${n}`) },
      );
    }
    const flag = `--${target.path.join('.')}`;
    const types = typesOf(target.schema, schema);
    if (value === undefined) {
      const next = tokens[i + 1];
      if (
        types.includes('boolean') &&
        (next === undefined || next.startsWith('--') || !(next.toLowerCase() in BOOLS))
      ) {
        setPath(out, target.path, true);
        continue;
      }
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        throw argError(
          'missing_value',
          `${flag} needs a value (${types.map((t) => EXPECT[t] ?? t).join(' or ') || 'any value'}).`,
          toolId,
          { flag, param: target.path.join('.'), expected: types.join('|') },
        );
      }
      value = next;
      i++;
    }
    if (types.length === 1 && types[0] === 'array') {
      const items = deref(deref(target.schema, schema)?.items, schema) ?? {};
      const prev = getPath(out, target.path);
      const acc = Array.isArray(prev) ? prev : [];
      const whole = value.trimStart().startsWith('[') ? tryType('array', value) : { ok: false as const };
      const add = whole.ok ? (whole.value as unknown[]) : [convertValue(value, items, schema, flag, toolId)];
      setPath(out, target.path, [...acc, ...add]);
      continue;
    }
    const v = convertValue(value, target.schema, schema, flag, toolId);
    const prev = getPath(out, target.path);
    if (v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object' && !Array.isArray(prev)) {
      setPath(out, target.path, deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>));
    } else setPath(out, target.path, v);
  }
  return out;
}

/** Parse a JSON arguments document (from --args, --args-file or stdin); `source` names it in errors. */
export function parseArgsJson(text: string, source: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ToolboxError('invalid_args_json', `${source}: not valid JSON (${(e as Error).message}).`, {
      exitCode: ExitCode.usage,
      hint: 'Pass a JSON object, e.g. --args \'{"city": "Paris"}\'.',
    });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw new ToolboxError('invalid_args_json', `${source}: expected a JSON object of arguments, got ${jsonType(v)}.`, {
      exitCode: ExitCode.usage,
      hint: 'Pass a JSON object, e.g. --args \'{"city": "Paris"}\'.',
    });
  }
  return v as Record<string, unknown>;
}
