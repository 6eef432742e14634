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
