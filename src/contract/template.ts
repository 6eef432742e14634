/**
 * `{{param}}` and `${ENV_VAR}` placeholders in loader configs (command argv, http url/headers/body).
 * Substitution is always per value, never through a shell: a value can only ever become (part of)
 * one argv element, one URL component, one header value or one JSON value.
 */

/** `{{name}}` or `{{address.city}}` (a path into nested objects). Spaces inside the braces are allowed. */
const PARAM = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;
const EXACT_PARAM = /^\{\{\s*([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\s*\}\}$/;
const ENV = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The value at a dotted path in the arguments (undefined when any step is missing). Own properties
 * only: `{{toString}}` or `{{a.constructor}}` never reach Object.prototype.
 */
export function lookup(args: Record<string, unknown>, path: string): unknown {
  let v: unknown = args;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/**
 * How an argument becomes text: strings as they are, numbers/booleans via String, arrays/objects as JSON,
 * missing/null as ''.
 */
export function toText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** The parameter named by a template that is exactly one placeholder (`'{{city}}'`), else undefined. */
export function exactParam(template: string): string | undefined {
  return EXACT_PARAM.exec(template)?.[1];
}

/** Every parameter a template string mentions. */
export function paramsIn(template: string): string[] {
  return [...template.matchAll(PARAM)].map((m) => m[1]!);
}

/**
 * The `{{param}}`s in the part of an http URL template that decides who receives the request: the
 * scheme, user info, host and port (everything before the path, query or fragment; all of it when
 * the template does not spell out `scheme://`, as in `{{base}}/items`). A secret must never go to
 * an address an argument picks.
 */
export function originParams(url: string): string[] {
  const i = url.indexOf('://');
  const start = i < 0 ? 0 : i + 3;
  const end = url.slice(start).search(/[/?#]/);
  return paramsIn(url.slice(0, end < 0 ? url.length : start + end));
}

/** Replace every `{{param}}` in a string; `encode` is applied to each substituted value (e.g. encodeURIComponent). */
export function fill(
  template: string,
  args: Record<string, unknown>,
  encode: (s: string) => string = (s) => s,
): string {
  return template.replace(PARAM, (_m, name: string) => encode(toText(lookup(args, name))));
}

/**
 * A command's argv. An element that is exactly one placeholder whose argument is missing (or null)
 * is dropped, so an optional positional argument simply disappears; any other element keeps its
 * literal text with the missing value as ''. Never more than one element per template element.
 */
export function fillArgv(argv: string[], args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const el of argv) {
    const only = exactParam(el);
    if (only !== undefined) {
      const v = lookup(args, only);
      if (v === undefined || v === null) continue;
      out.push(toText(v));
    } else {
      out.push(fill(el, args));
    }
  }
  return out;
}

/**
 * A JSON body template: a string that is exactly one placeholder takes the argument's own JSON value
 * (numbers stay numbers, objects stay objects; an object key whose argument is missing is dropped);
 * other strings are filled as text; `${ENV}` placeholders are filled by `env` first.
 */
export function fillValue(template: unknown, args: Record<string, unknown>, env: (s: string) => string): unknown {
  if (typeof template === 'string') {
    const s = env(template);
    const only = exactParam(s);
    return only !== undefined ? (lookup(args, only) ?? null) : fill(s, args);
  }
  if (Array.isArray(template)) return template.map((t) => fillValue(t, args, env));
  if (template !== null && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, t] of Object.entries(template)) {
      if (typeof t === 'string') {
        const only = exactParam(env(t));
        if (only !== undefined && lookup(args, only) === undefined) continue;
      }
      out[k] = fillValue(t, args, env);
    }
    return out;
  }
  return template;
}

/** Names of the `${ENV_VAR}` placeholders in a template (strings inside objects too). */
export function envRefs(template: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof template === 'string') for (const m of template.matchAll(ENV)) into.add(m[1]!);
  else if (Array.isArray(template)) for (const t of template) envRefs(t, into);
  else if (template !== null && typeof template === 'object') for (const t of Object.values(template)) envRefs(t, into);
  return into;
}

/** Replace `${ENV_VAR}` placeholders with values from `env` (callers check the names beforehand). */
export function fillEnv(template: string, env: Record<string, string>): string {
  return template.replace(ENV, (_m, name: string) => (Object.hasOwn(env, name) ? env[name] : undefined) ?? '');
}
