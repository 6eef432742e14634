import type { Diagnostic } from './diagnostic.js';
import type { ToolContract } from './types.js';
import { decodeUtf8, readYamlSource, type PathSeg, type Pos, type YamlSource } from './yaml-source.js';
import { codeFrame, findIndentSlip } from './yaml-indent.js';
import { ajvFor, pointerToPath, remoteRefs, type AjvError } from './ajv.js';
import { linearProblem } from './regex.js';
import { contractValidator } from './contract-validator.js';
import { MAX_SCHEMA_DEPTH, pathDeeperThan } from '../util/json-depth.js';

/** Contract files larger than this are refused without parsing. */
export const MAX_CONTRACT_BYTES = 1024 * 1024;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The result of reading one contract file. `contract` is set only when it has no errors. */
export interface ParsedContract {
  file: string;
  contract?: ToolContract;
  /** The raw parsed document (even when it has errors), for lint rules. */
  data?: unknown;
  diagnostics: Diagnostic[];
  locate: (path: readonly PathSeg[]) => Pos;
}

const at1 = () => ({ line: 1, column: 1 });

/**
 * Parse and structurally check one contract file's bytes: encoding, YAML, the contract schema,
 * the loader's config schema, and that `schema` / `output_schema` are valid JSON Schemas with no
 * remote $ref. Never throws for bad input; every problem is a located diagnostic.
 */
export function parseContract(file: string, bytes: Uint8Array): ParsedContract {
  const diags: Diagnostic[] = [];
  const err = (rule: string, message: string, pos: Pos, path?: readonly PathSeg[], hint?: string) =>
    diags.push({
      file,
      line: pos.line,
      column: pos.column,
      severity: 'error',
      rule,
      message,
      ...(path ? { path: path.join('.') } : {}),
      ...(hint ? { hint } : {}),
    });
  const done = (data?: unknown, locate: ParsedContract['locate'] = at1): ParsedContract => ({
    file,
    data,
    diagnostics: diags,
    locate,
  });

  if (bytes.length > MAX_CONTRACT_BYTES) {
    err(
      'file-too-large',
      `contract file is ${bytes.length} bytes; the limit is ${MAX_CONTRACT_BYTES} (1 MiB)`,
      at1(),
      undefined,
      'A contract describes one tool; move data out of it.',
    );
    return done();
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    err(
      'binary-file',
      `file contains a NUL byte at offset ${nul}: not a text YAML file`,
      at1(),
      undefined,
      'Remove it from the registry folder or rename it so it does not end in .yaml/.yml.',
    );
    return done();
  }
  const decoded = decodeUtf8(bytes);
  if ('error' in decoded) {
    err(
      'encoding',
      `${decoded.error}: contract files must be UTF-8`,
      decoded.pos,
      undefined,
      'Re-save the file as UTF-8.',
    );
    return done();
  }
  if (decoded.text.trim() === '' || /^(\s*#.*\n?)*\s*$/.test(decoded.text)) {
    err(
      'empty-file',
      'contract file is empty',
      at1(),
      undefined,
      'Fill it in (`toolbox new <id>` scaffolds one) or delete it.',
    );
    return done();
  }
  const src = readYamlSource(decoded.text);
  if (src.errors.length) {
    yamlErrors(decoded.text, src.errors, diags, file);
    return done(undefined, src.locate);
  }
  const data = src.value;
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    err(
      'contract-schema',
      `a contract must be a YAML mapping, found ${Array.isArray(data) ? 'a list' : typeof data}`,
      at1(),
    );
    return done(data, src.locate);
  }

  // Before anything walks it recursively (the unsafe-key scan, ajv, lint rules, serve's definitions).
  const deep = pathDeeperThan(data, MAX_SCHEMA_DEPTH + 1);
  if (deep) {
    const top = deep.slice(0, 1);
    err(
      'schema-too-deep',
      `${top.length ? `'${String(top[0])}'` : 'the contract'} is nested more than ${MAX_SCHEMA_DEPTH} levels deep (at ${deep.slice(0, 6).join('.')}…)`,
      src.locate(top),
      top,
      'Flatten it, or name a repeated shape once under $defs and refer to it with $ref.',
    );
    return done(undefined, src.locate);
  }
  const unsafe = findUnsafeKeys(data);
  for (const p of unsafe)
    err(
      'unsafe-key',
      `key '${p[p.length - 1]}' is not allowed (prototype pollution guard)`,
      src.locate(p),
      p,
      'Rename or remove this key.',
    );
  if (unsafe.length) return done(data, src.locate);

  const validate = contractValidator();
  if (!validate(data)) {
    for (const e of filterAjvErrors(validate.errors ?? [])) {
      const path = pointerToPath(e.instancePath);
      err('contract-schema', describeAjvError(e, path), src.locate(path), path);
    }
  }
  const c = data as Record<string, unknown>;
  for (const key of ['schema', 'output_schema'] as const) {
    const s = c[key];
    if (!s || typeof s !== 'object' || Array.isArray(s)) continue;
    checkJsonSchema(s as Record<string, unknown>, [key], src.locate, err);
  }
  if (diags.length) return done(data, src.locate);
  return { file, data, contract: data as ToolContract, diagnostics: diags, locate: src.locate };
}

/**
 * The parser's errors as diagnostics with a code frame. An indentation slip at or before the first
 * error is one diagnostic that says so (the parser's own messages name the grammar, often twice).
 */
function yamlErrors(text: string, errors: YamlSource['errors'], diags: Diagnostic[], file: string): void {
  // The parser often notices a slip on the line above it (a plain scalar that would continue).
  const first = Math.min(...errors.map((e) => e.pos.line));
  const slip = findIndentSlip(text, first + 2);
  const list = slip
    ? [{ message: slip.message, pos: slip.pos, hint: slip.hint, data: false }]
    : errors.map((e) => ({
        message: e.message,
        pos: e.pos,
        data: e.code === 'YAML_DATA',
        hint:
          e.code === 'YAML_DATA'
            ? 'Fix the YAML syntax at this position.'
            : 'Fix the YAML syntax at this position (often a quote or bracket left open, or a key indented unlike its neighbours).',
      }));
  for (const e of list)
    diags.push({
      file,
      line: e.pos.line,
      column: e.pos.column,
      severity: 'error',
      rule: 'yaml-syntax',
      message: e.message,
      hint: e.hint,
      // An alias bomb is about the data, not a place in the text.
      ...(e.data ? {} : { frame: codeFrame(text, e.pos) }),
    });
}

function checkJsonSchema(
  schema: Record<string, unknown>,
  base: PathSeg[],
  locate: ParsedContract['locate'],
  err: (r: string, m: string, p: Pos, path?: readonly PathSeg[], h?: string) => void,
) {
  const refs = remoteRefs(schema);
  for (const r of refs) {
    const path = [...base, ...r.path];
    err(
      'remote-ref',
      `$ref '${r.ref}' points outside the contract; toolbox never fetches remote schemas`,
      locate(path),
      path,
      'Inline the referenced schema under $defs and use "#/$defs/…".',
    );
  }
  if (refs.length) return;
  const ajv = ajvFor(schema);
  if (!ajv.validateSchema(schema)) {
    for (const e of filterAjvErrors(ajv.errors ?? [])) {
      const path = [...base, ...pointerToPath(e.instancePath)];
      err('invalid-json-schema', `invalid JSON Schema: ${describeAjvError(e, path)}`, locate(path), path);
    }
    return;
  }
  // No ajv.compile here (it cost a third of a cold build): the meta-schema check above plus the
  // two things a compile would still refuse, local $refs that lead nowhere and regexes that do
  // not parse. The runtime compiles each schema on its first call.
  for (const p of compileProblems(schema)) {
    const path = [...base, ...p.path];
    err('invalid-json-schema', `JSON Schema does not compile: ${p.message}`, locate(path), path);
  }
}

/** Local `$ref`s that resolve to nothing, and `pattern`/`patternProperties` regexes that do not parse or backtrack. */
export function compileProblems(root: unknown): { path: PathSeg[]; message: string }[] {
  const out: { path: PathSeg[]; message: string }[] = [];
  // The path of the node being walked, as a stack: copied only for a problem (this runs on every schema).
  const path: PathSeg[] = [];
  const regex = (p: string, key?: string) => {
    const at = () => (key === undefined ? path.slice() : [...path, key]);
    try {
      new RegExp(p, 'u');
    } catch (e) {
      out.push({
        path: at(),
        message: `pattern ${JSON.stringify(p)} is not a valid regular expression: ${(e as Error).message}`,
      });
      return;
    }
    const why = linearProblem(p);
    if (why)
      out.push({
        path: at(),
        message: `pattern ${JSON.stringify(p)} needs a backtracking engine (${why}); arguments are matched in linear time, so lookaround and backreferences are not supported`,
      });
  };
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i]);
        path.pop();
      }
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const x = o[k];
      path.push(k);
      if (
        k === '$ref' &&
        typeof x === 'string' &&
        (x === '#' || x.startsWith('#/')) &&
        resolvePointer(root, x) === undefined
      )
        out.push({ path: path.slice(), message: `can't resolve reference ${x}` });
      else if (k === 'pattern' && typeof x === 'string') regex(x);
      else if (k === 'patternProperties' && x && typeof x === 'object' && !Array.isArray(x))
        for (const key of Object.keys(x)) regex(key, key);
      if (k !== 'enum' && k !== 'const' && k !== 'examples' && k !== 'default') walk(x);
      path.pop();
    }
  };
  walk(root);
  return out;
}

function resolvePointer(root: unknown, ref: string): unknown {
  let node = root;
  for (const raw of ref
    .slice(2)
    .split('/')
    .filter((s, i, a) => s !== '' || i < a.length - 1)) {
    const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, seg)) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

function findUnsafeKeys(v: unknown, path: PathSeg[] = [], out: PathSeg[][] = []): PathSeg[][] {
  // `path` is a stack, copied only for a finding.
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      findUnsafeKeys(v[i], path, out);
      path.pop();
    }
  } else if (v && typeof v === 'object') {
    for (const k of Object.getOwnPropertyNames(v)) {
      if (UNSAFE_KEYS.has(k)) out.push([...path, k]);
      else {
        path.push(k);
        findUnsafeKeys((v as Record<string, unknown>)[k], path, out);
        path.pop();
      }
    }
  }
  return out;
}

/** Drop ajv's structural noise (if/then, anyOf wrappers) when a more specific error exists. */
function filterAjvErrors(errors: AjvError[]): AjvError[] {
  const specific = errors.filter((e) => !['if', 'anyOf', 'oneOf', 'allOf'].includes(e.keyword));
  const seen = new Set<string>();
  return (specific.length ? specific : errors).filter((e) => {
    const k = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function describeAjvError(e: AjvError, path: readonly PathSeg[]): string {
  const where = path.length ? `'${path.join('.')}'` : 'contract';
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return `${where} is missing required property '${String(p.missingProperty)}'`;
    case 'additionalProperty':
    case 'additionalProperties':
      return `${where} has unknown property '${String(p.additionalProperty)}'`;
    case 'enum':
      return `${where} must be one of: ${(p.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`;
    case 'type':
      return `${where} must be ${String(p.type)}`;
    case 'pattern':
      return `${where} does not match the pattern ${String(p.pattern)}`;
    default:
      return `${where} ${e.message ?? 'is invalid'}`;
  }
}
