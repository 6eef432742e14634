import type { JsonSchema, ToolContract } from '../contract/types.js';
import { ajvFor, pointerToPath, type AjvError } from '../contract/ajv.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { deref, jsonType, propertiesOf } from './schema-walk.js';
import { fastValidate } from './fast-validate.js';
import { undeclaredArgs } from './undeclared.js';

type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

// One compiled validator per schema object: the runtime keeps contracts alive while it runs,
// so a long-running process compiles each tool's schema once.
const compiled = new WeakMap<object, Validator>();

/** The compiled ajv validator of a schema (cached per schema object). */
export function validatorFor(schema: JsonSchema): Validator {
  let v = compiled.get(schema);
  if (!v) {
    // validate checks schemas against the meta-schema and compiles nothing; what only a compile
    // finds (rare) is reported here, on the tool's first run, as a contract problem.
    try {
      v = ajvFor(schema).compile(schema) as Validator;
    } catch (e) {
      throw new ToolboxError(
        'tool_contract_invalid',
        `the tool's JSON Schema does not compile: ${e instanceof Error ? e.message : String(e)}`,
        { exitCode: ExitCode.registry, hint: 'Fix `schema` in the contract; run `toolbox validate`.' },
      );
    }
    compiled.set(schema, v);
  }
  return v;
}

/** How arguments are named in messages: CLI flags (--a.b) or parameter names (a.b). */
export type ArgStyle = 'flags' | 'params';

/** One argument problem, machine-readable. */
export interface ArgProblem {
  param: string;
  keyword: string;
  expected: string;
  given?: string;
  message: string;
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? `'${v}'` : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

function valueAt(data: unknown, path: string[]): unknown {
  let cur = data;
  for (const k of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

function schemaAt(root: JsonSchema, path: string[]): JsonSchema | undefined {
  let cur: JsonSchema | undefined = root;
  for (const k of path) {
    if (!cur) return undefined;
    const s = deref(cur, root);
    cur = /^\d+$/.test(k) && s?.items ? deref(s.items, root) : propertiesOf(cur, root)[k];
  }
  return cur;
}

function name(path: string[], style: ArgStyle): string {
  const dotted = path.map((p, i) => (/^\d+$/.test(p) && i > 0 ? `[${p}]` : (i ? '.' : '') + p)).join('');
  return style === 'flags' ? `--${dotted || '(arguments)'}` : `'${dotted || '(arguments)'}'`;
}

function unknownArg(full: string[], style: ArgStyle): ArgProblem {
  return {
    param: full.join('.'),
    keyword: 'additionalProperties',
    expected: 'no such argument',
    message: `unknown argument ${name(full, style)}`,
  };
}

function describe(e: AjvError, data: unknown, root: JsonSchema, style: ArgStyle): ArgProblem {
  const path = pointerToPath(e.instancePath);
  const p = e.params;
  if (e.keyword === 'required') {
    const full = [...path, String(p.missingProperty)];
    const s = schemaAt(root, full);
    const type = s?.type ? ` (${[s.type].flat().join(' or ')})` : '';
    const desc = typeof s?.description === 'string' ? `: ${s.description}` : '';
    return {
      param: full.join('.'),
      keyword: 'required',
      expected: String(s?.type ?? 'a value'),
      message: `missing required argument ${name(full, style)}${type}${desc}`,
    };
  }
  if (e.keyword === 'additionalProperties') return unknownArg([...path, String(p.additionalProperty)], style);
  const given = valueAt(data, path);
  const givenText = `${show(given)} (${jsonType(given)})`;
  let expected: string;
  switch (e.keyword) {
    case 'type':
      expected = String(p.type).replace(/,/g, ' or ');
      break;
    case 'enum':
      expected = `one of ${(p.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
      break;
    case 'const':
      expected = `exactly ${show(p.allowedValue)}`;
      break;
    case 'format':
      expected = `a valid ${String(p.format)}`;
      break;
    case 'pattern':
      expected = `text matching /${String(p.pattern)}/`;
      break;
    // ajv says 'must be <= 7' / 'must NOT have fewer than 2 items': keep the condition only.
    default:
      expected = (e.message ?? e.keyword)
        .replace(/^must be /, '')
        .replace(/^must NOT /, 'to not ')
        .replace(/^must /, 'to ');
  }
  return {
    param: path.join('.'),
    keyword: e.keyword,
    expected,
    given: show(given),
    message: `${name(path, style)}: expected ${expected}, got ${givenText}`,
  };
}

function takes(schema: JsonSchema): string {
  const names = Object.keys(propertiesOf(schema, schema));
  return names.length ? `It takes: ${names.slice(0, 20).join(', ')}.` : 'It takes no arguments.';
}

// Wrapper keywords only repeat what their branches already said.
const NOISE = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'not']);

/**
 * Validate arguments against the tool's schema. Throws `invalid_arguments` (exit 2) naming each
 * parameter (or flag), what was expected and what was given. A top-level argument the schema does
 * not declare is refused unless the schema explicitly allows more (undeclared.ts), as for flags.
 */
export function validateArgs(contract: ToolContract, args: unknown, style: ArgStyle = 'params'): void {
  const extra =
    args && typeof args === 'object' && !Array.isArray(args)
      ? undeclaredArgs(contract.schema, args as Record<string, unknown>)
      : [];
  if (!extra.length && fastValidate(contract.schema, args) === true) return;
  const validate = validatorFor(contract.schema);
  if (validate(args) && !extra.length) return;
  const errors = validate.errors ?? [];
  const specific = errors.filter((e) => !NOISE.has(e.keyword));
  const problems = [
    ...extra.map((k) => unknownArg([k], style)),
    ...(specific.length ? specific : errors).map((e) => describe(e, args, contract.schema, style)),
  ];
  const seen = new Set<string>();
  const unique = problems.filter((pr) => !seen.has(pr.message) && seen.add(pr.message));
  const head = unique.slice(0, 5).map((pr) => pr.message);
  const more = unique.length > 5 ? ` (and ${unique.length - 5} more)` : '';
  throw new ToolboxError(
    'invalid_arguments',
    `invalid arguments for tool '${contract.id}': ${head.join('; ')}${more}`,
    {
      exitCode: ExitCode.usage,
      hint: [
        extra.length ? takes(contract.schema) : '',
        style === 'flags'
          ? `Run \`toolbox run ${contract.id} --help\` for the tool's parameters.`
          : `See the tool's input schema (\`toolbox show ${contract.id}\`).`,
      ]
        .filter(Boolean)
        .join(' '),
      details: { problems: unique, ...(extra.length ? { unknown: extra.slice(0, 20) } : {}) },
    },
  );
}
