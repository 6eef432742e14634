import { describe, expect, it } from 'vitest';
import { validateArgs } from '../../src/runtime/validate.js';
import type { ToolContract } from '../../src/contract/types.js';
import type { ToolboxError } from '../../src/errors.js';

const c: ToolContract = {
  id: 't',
  name: 't',
  description: 'd',
  loader: 'command',
  loader_config: { argv: ['true'] },
  schema: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      email: { type: 'string', format: 'email' },
      unit: { enum: ['c', 'f'] },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      address: { type: 'object', properties: { zip: { type: 'integer' } }, required: ['zip'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['city'],
    additionalProperties: false,
  },
};

const fail = (args: unknown, style?: 'flags' | 'params') => {
  try {
    validateArgs(c, args, style);
  } catch (e) {
    return e as ToolboxError;
  }
  throw new Error('expected a validation error');
};

describe('validateArgs', () => {
  it('accepts valid arguments (fast path and ajv path)', () => {
    expect(() => validateArgs(c, { city: 'x', days: 3, tags: ['a'] })).not.toThrow();
    expect(() => validateArgs(c, { city: 'x', email: 'a@b.co' })).not.toThrow();
  });

  it.each([
    [{}, 'flags', /missing required argument --city \(string\): City name/, 'city'],
    [{}, 'params', /missing required argument 'city'/, 'city'],
    [{ city: 5 }, 'flags', /--city: expected string, got 5 \(integer\)/, 'city'],
    [{ city: 'x', unit: 'k' }, 'flags', /--unit: expected one of c, f, got 'k'/, 'unit'],
    [{ city: 'x', days: 9 }, 'flags', /--days: expected <= 7, got 9/, 'days'],
    [{ city: 'x', email: 'nope' }, 'flags', /--email: expected a valid email, got 'nope'/, 'email'],
    [{ city: 'x', address: {} }, 'flags', /missing required argument --address\.zip/, 'address.zip'],
    [{ city: 'x', tags: ['a', 3] }, 'flags', /--tags\[1\]: expected string, got 3/, 'tags.1'],
    [{ city: 'x', cty: 1 }, 'flags', /unknown argument --cty/, 'cty'],
  ] as const)('%j (%s) → exit 2', (args, style, msg, param) => {
    const e = fail(args, style);
    expect(e.code).toBe('invalid_arguments');
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(msg);
    expect((e.details?.problems as { param: string }[]).map((p) => p.param)).toContain(param);
  });
});

describe('arguments the schema does not declare', () => {
  const withSchema = (schema: Record<string, unknown>): ToolContract => ({ ...c, schema });
  const base = { type: 'object', properties: { city: { type: 'string' } } };
  const outcome = (schema: Record<string, unknown>, args: Record<string, unknown>) => {
    try {
      validateArgs(withSchema(schema), args);
      return 'ok';
    } catch (e) {
      const err = e as ToolboxError;
      return `${err.code}:${String(err.details?.unknown)}`;
    }
  };

  it.each([
    ['no additionalProperties: refused', base, { city: 'x', zzz: 1 }, 'invalid_arguments:zzz'],
    ['no properties at all: refused', { type: 'object' }, { zzz: 1 }, 'invalid_arguments:zzz'],
    ['declared only: ok', base, { city: 'x' }, 'ok'],
    ['an undefined value is no argument', base, { city: 'x', zzz: undefined }, 'ok'],
    ['additionalProperties: true', { ...base, additionalProperties: true }, { zzz: 1 }, 'ok'],
    ['additionalProperties: a schema', { ...base, additionalProperties: { type: 'integer' } }, { zzz: 1 }, 'ok'],
    ['unevaluatedProperties: true', { ...base, unevaluatedProperties: true }, { zzz: 1 }, 'ok'],
    ['patternProperties match', { ...base, patternProperties: { '^x-': {} } }, { 'x-a': 1 }, 'ok'],
    ['patternProperties miss', { ...base, patternProperties: { '^x-': {} } }, { y: 1 }, 'invalid_arguments:y'],
    ['declared in an allOf branch', { allOf: [base, { properties: { n: {} } }] }, { n: 1 }, 'ok'],
    ['opened in an anyOf branch', { anyOf: [base, { additionalProperties: true }] }, { q: 1 }, 'ok'],
    ['through a $ref', { $ref: '#/$defs/a', $defs: { a: base } }, { city: 'x', q: 1 }, 'invalid_arguments:q'],
    ['a prototype name is not declared', base, { toString: 1 }, 'invalid_arguments:toString'],
  ] as const)('%s', (_what, schema, args, want) => {
    expect(outcome(schema, args)).toBe(want);
  });

  it('names every unknown argument and what the tool takes', () => {
    const e = (() => {
      try {
        validateArgs(withSchema(base), { zzz: 1, city: 'x', yyy: 2 });
      } catch (err) {
        return err as ToolboxError;
      }
      throw new Error('accepted');
    })();
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/unknown argument 'zzz'; unknown argument 'yyy'/);
    expect(e.hint).toMatch(/It takes: city\./);
  });
});
