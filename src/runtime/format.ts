import type { ToolContract } from '../contract/types.js';
import { displayWidth } from '../util/width.js';
import { validatorFor } from './validate.js';
import { fastValidate } from './fast-validate.js';
import { pointerToPath } from '../contract/ajv.js';

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

function lookup(value: unknown, path: string): unknown {
  if (path === '.' || path === '') return value;
  let cur = value;
  for (const k of path.replace(/^\./, '').split('.')) {
    if (cur === null || cur === undefined) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

function inline(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(inline).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Fill a contract's `format` template: `{{field}}`, `{{a.b}}`, `{{items.0.name}}`, `{{.}}` (the
 * whole result). Arrays are joined with ", ", objects inlined as JSON, missing values are empty.
 */
export function fillTemplate(template: string, result: unknown): string {
  return template.replace(TEMPLATE, (_m, path: string) => inline(lookup(result, path)));
}

const scalar = (v: unknown) => v === null || v === undefined || typeof v !== 'object';
const plain = (v: unknown) => (v === undefined ? '' : v === null ? 'null' : typeof v === 'string' ? v : String(v));

function renderLines(v: unknown, indent: string): string[] {
  // Every line of a multi-line string gets the indent: its own layout (an outline, a diff, a
  // table) keeps its shape instead of having its first line pushed right of the rest.
  if (scalar(v))
    return plain(v)
      .split('\n')
      .map((l) => indent + l);
  if (Array.isArray(v)) {
    if (v.length === 0) return [indent + '(none)'];
    return v.flatMap((item) => {
      const lines = renderLines(item, indent + '  ');
      return [`${indent}- ${lines[0]!.slice(indent.length + 2)}`, ...lines.slice(1)];
    });
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return [indent + '(empty)'];
  const inlineable = (x: unknown) => scalar(x) && !plain(x).includes('\n');
  const w = Math.max(...entries.filter(([, x]) => inlineable(x)).map(([k]) => displayWidth(k)), 0);
  return entries.flatMap(([k, x]) => {
    if (inlineable(x)) return [`${indent}${k}:${' '.repeat(w - displayWidth(k))} ${plain(x)}`];
    return [`${indent}${k}:`, ...renderLines(x, indent + '  ')];
  });
}

/**
 * A readable rendering of any result: strings as they are; objects as aligned `key: value`
 * lines, nested values indented; arrays as `- item` lists.
 */
export function renderReadable(result: unknown): string {
  if (typeof result === 'string') return result;
  return renderLines(result, '').join('\n');
}

/** The text of a result: the contract's `format` template when it has one, else a readable rendering. */
export function formatResult(contract: ToolContract, result: unknown): string {
  return contract.format ? fillTemplate(contract.format, result) : renderReadable(result);
}

/** Warnings when the result does not match the contract's `output_schema` (a warning, not a failure). */
export function checkOutput(contract: ToolContract, result: unknown): string[] {
  if (!contract.output_schema) return [];
  if (fastValidate(contract.output_schema, result) === true) return [];
  let validate;
  try {
    validate = validatorFor(contract.output_schema);
  } catch (e) {
    return [`output_schema of '${contract.id}' could not be compiled: ${(e as Error).message}`];
  }
  if (validate(result)) return [];
  const errs = (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${pointerToPath(e.instancePath).join('.') || '(result)'} ${e.message ?? e.keyword}`);
  return [`result of '${contract.id}' does not match its output_schema: ${errs.join('; ')}`];
}
