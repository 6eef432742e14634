import { describe, expect, it } from 'vitest';
import { argsFromFlags, flagNames, parseArgsJson } from '../../src/runtime/args.js';
import { splitRunArgv } from '../../src/runtime/run-argv.js';
import { ToolboxError } from '../../src/errors.js';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    verbose: { type: 'boolean' },
    unit: { type: 'string', enum: ['c', 'f'] },
    level: { enum: [1, 2, 3] },
    tags: { type: 'array', items: { type: 'string' } },
    ports: { type: 'array', items: { type: 'integer' } },
    address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } } },
    note: { type: ['string', 'null'] },
    max_results: { type: 'integer' },
    ref: { $ref: '#/$defs/n' },
  },
  $defs: { n: { type: 'number' } },
};

const ok: [string, string[], Record<string, unknown>][] = [
  ['string as is', ['--city', '北京'], { city: '北京' }],
  ['string that looks numeric stays a string', ['--city', '12'], { city: '12' }],
  ['--name=value', ['--city=Paris'], { city: 'Paris' }],
  ['integer', ['--count', '12'], { count: 12 }],
  ['negative integer', ['--count', '-3'], { count: -3 }],
  ['number', ['--ratio', '0.5'], { ratio: 0.5 }],
  ['number with exponent', ['--ratio', '1e3'], { ratio: 1000 }],
  ['boolean flag alone', ['--verbose'], { verbose: true }],
  ['boolean before another flag', ['--verbose', '--city', 'x'], { verbose: true, city: 'x' }],
  ['--no-flag', ['--no-verbose'], { verbose: false }],
  ['--flag=false', ['--verbose=false'], { verbose: false }],
  ['--flag false', ['--verbose', 'false'], { verbose: false }],
  ['enum', ['--unit', 'f'], { unit: 'f' }],
  ['numeric enum keeps the enum value', ['--level', '2'], { level: 2 }],
  ['array by repetition', ['--tags', 'a', '--tags', 'b'], { tags: ['a', 'b'] }],
  ['array items converted by item type', ['--ports', '80', '--ports', '443'], { ports: [80, 443] }],
  ['array as JSON', ['--ports', '[1,2]'], { ports: [1, 2] }],
  ['nested by dots', ['--address.city', 'Lyon', '--address.zip', '69001'], { address: { city: 'Lyon', zip: 69001 } }],
  [
    'nested as JSON merged with dots',
    ['--address', '{"city":"X"}', '--address.zip', '1'],
    { address: { city: 'X', zip: 1 } },
  ],
  ['null in a union', ['--note', 'null'], { note: null }],
  ['string in a union', ['--note', 'hi'], { note: 'hi' }],
  ['kebab-case finds snake_case', ['--max-results', '5'], { max_results: 5 }],
  ['local $ref type', ['--ref', '2.5'], { ref: 2.5 }],
  ['no flags', [], {}],
];

describe('argsFromFlags: conversion by schema type', () => {
  it.each(ok)('%s', (_name, tokens, want) => {
    expect(argsFromFlags(schema, tokens, 't')).toEqual(want);
  });
});

const bad: [string, string[], string, Record<string, unknown>][] = [
  ['integer never guessed', ['--count', '12abc'], 'invalid_argument', { flag: '--count', given: '12abc' }],
  ['integer rejects decimals', ['--count', '1.5'], 'invalid_argument', { flag: '--count' }],
  ['number rejects words', ['--ratio', 'abc'], 'invalid_argument', { flag: '--ratio' }],
  ['enum lists choices', ['--unit', 'k'], 'invalid_argument', { flag: '--unit', choices: ['c', 'f'] }],
  ['array item converted', ['--ports', 'x'], 'invalid_argument', { flag: '--ports' }],
  ['object must be JSON', ['--address', 'nope'], 'invalid_argument', { flag: '--address' }],
  ['unknown flag suggests', ['--citty', 'x'], 'unknown_argument', { suggestions: ['--city', '--address.city'] }],
  ['unknown nested flag', ['--address.street', 'x'], 'unknown_argument', {}],
  ['missing value', ['--city'], 'missing_value', { flag: '--city' }],
  ['positional', ['Paris'], 'unexpected_argument', {}],
];

describe('argsFromFlags: usage errors (exit 2)', () => {
  it.each(bad)('%s', (_name, tokens, code, details) => {
    let err: unknown;
    try {
      argsFromFlags(schema, tokens, 't');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ToolboxError);
    const e = err as ToolboxError;
    expect(e.code).toBe(code);
    expect(e.exitCode).toBe(2);
    expect(e.details).toMatchObject(details);
  });

  it('names the flag, the expected type and the given value in the message', () => {
    expect(() => argsFromFlags(schema, ['--count', '12abc'], 't')).toThrow(/--count.*integer.*12abc/);
    expect(() => argsFromFlags(schema, ['--citty', 'x'], 't')).toThrow(/Did you mean --city/);
  });

  it('accepts undeclared keys only where additionalProperties says so', () => {
    const open = { type: 'object', properties: {}, additionalProperties: { type: 'integer' } };
    expect(argsFromFlags(open, ['--anything', '3'], 't')).toEqual({ anything: 3 });
    expect(() => argsFromFlags({ type: 'object', properties: { a: { type: 'string' } } }, ['--b', 'x'], 't')).toThrow(
      ToolboxError,
    );
  });
});

describe('parseArgsJson', () => {
  it('parses an object, treats empty input as {}', () => {
    expect(parseArgsJson('{"a":1}', 'x')).toEqual({ a: 1 });
    expect(parseArgsJson('  \n', 'x')).toEqual({});
  });
  it.each(['[1]', '"s"', '{bad'])('rejects %s with exit 2', (text) => {
    expect(() => parseArgsJson(text, 'stdin')).toThrow(
      expect.objectContaining({ code: 'invalid_args_json', exitCode: 2 }),
    );
  });
});

describe('splitRunArgv', () => {
  it('separates run options and globals from the tool flags, anywhere', () => {
    const o = splitRunArgv([
      '--city',
      'x',
      '--timeout',
      '2s',
      '--json',
      '--role=admin',
      '-v',
      '--count',
      '3',
      '--args-file',
      'a.json',
      '--help',
    ]);
    expect(o).toMatchObject({
      timeout: '2s',
      json: true,
      role: 'admin',
      verbose: true,
      argsFile: 'a.json',
      help: true,
      toolFlags: ['--city', 'x', '--count', '3'],
    });
  });
  it('requires values for valued options', () => {
    expect(() => splitRunArgv(['--timeout'])).toThrow(expect.objectContaining({ code: 'missing_value', exitCode: 2 }));
  });
});

const err = (s: unknown, tokens: string[]): ToolboxError => {
  try {
    argsFromFlags(s as never, tokens, 't');
  } catch (e) {
    if (e instanceof ToolboxError) return e;
    throw e;
  }
  throw new Error(`no error for ${tokens.join(' ')}`);
};

describe('argsFromFlags: the exact conversion rules', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['yes', true],
    ['on', true],
    ['1', true],
    ['false', false],
    ['no', false],
    ['off', false],
    ['0', false],
  ])('boolean word %s → %s (as the next token and after =)', (word, want) => {
    expect(argsFromFlags(schema, ['--verbose', word], 't')).toEqual({ verbose: want });
    expect(argsFromFlags(schema, [`--verbose=${word}`], 't')).toEqual({ verbose: want });
  });

  it.each([
    ['integer', ' 7 ', 7],
    ['integer', '+3', 3],
    ['number', '.5', 0.5],
    ['number', '5.', 5],
    ['number', '-1.5e-3', -0.0015],
    ['number', ' 2.5 ', 2.5],
    ['number', '1E+2', 100],
  ])('%s accepts %j', (type, raw, want) => {
    expect(argsFromFlags({ type: 'object', properties: { x: { type } } }, ['--x', raw], 't')).toEqual({ x: want });
  });

  it.each([
    ['integer', '1e3'],
    ['integer', '9007199254740993'],
    ['integer', 'abc12'],
    ['number', '0x10'],
    ['number', '1e'],
    ['number', 'e5'],
    ['number', '1.5abc'],
    ['number', 'abc1.5'],
    ['number', '1.2.3'],
    ['number', '.'],
    ['number', '1e+'],
    ['boolean', 'maybe'],
    ['object', '[1]'],
    ['null', 'nil'],
    ['no-such-type', '1'],
  ])('%s rejects %j with invalid_argument naming the parameter and type', (type, raw) => {
    const s = { type: 'object', properties: { x: { type } } };
    const tokens = type === 'boolean' ? [`--x=${raw}`] : ['--x', raw];
    const e = err(s, tokens);
    expect([e.code, e.exitCode]).toEqual(['invalid_argument', 2]);
    expect(e.details).toMatchObject({ flag: '--x', param: 'x', expected: type, given: raw });
    expect(e.hint).toBeTruthy();
  });

  it('null in a union with integer; no declared type keeps the raw string; enums of any JSON value', () => {
    const s = {
      type: 'object',
      properties: {
        n: { type: ['integer', 'null'] },
        any: {},
        e: { enum: [2, null, { a: 1 }] },
        u: { type: 'string', enum: ['c', 'f'] },
      },
    };
    expect(argsFromFlags(s, ['--n', 'null', '--any', '5'], 't')).toEqual({ n: null, any: '5' });
    expect(argsFromFlags(s, ['--n', '3'], 't')).toEqual({ n: 3 });
    expect(argsFromFlags(s, ['--e', '2'], 't')).toEqual({ e: 2 });
    expect(argsFromFlags(s, ['--e', 'null'], 't')).toEqual({ e: null });
    expect(argsFromFlags(s, ['--e', '{"a":1}'], 't')).toEqual({ e: { a: 1 } });
    expect(err(s, ['--u', 'k']).details).toMatchObject({ param: 'u', expected: 'one of: c, f', given: 'k' });
    expect(err(s, ['--e', 'x']).details).toMatchObject({ expected: 'one of: 2, null, {"a":1}' });
  });

  it('a lone -- is not a flag; -- as a value is; a flag-looking next token is a missing value', () => {
    expect(err(schema, ['--']).code).toBe('unexpected_argument');
    expect(err(schema, ['Paris']).details).toEqual({ given: 'Paris' });
    expect(argsFromFlags(schema, ['--city', '--'], 't')).toEqual({ city: '--' });
    const e = err(schema, ['--city', '--count', '3']);
    expect([e.code, e.details]).toEqual(['missing_value', { flag: '--city', param: 'city', expected: 'string' }]);
  });

  it('--no-<x> only for booleans, and never with a value', () => {
    expect(err(schema, ['--no-city']).code).toBe('unknown_argument');
    expect(err(schema, ['--no-nothing']).code).toBe('unknown_argument');
    expect(err(schema, ['--no-verbose=true']).code).toBe('unknown_argument');
    const e = err(schema, ['--citty', 'x']);
    expect(e.details?.valid).toEqual(expect.arrayContaining(['--city', '--address.city', '--address.zip']));
  });

  it('an exact property name wins over a normalised one', () => {
    const s = { type: 'object', properties: { maxResults: { type: 'string' }, max_results: { type: 'integer' } } };
    expect(argsFromFlags(s, ['--max_results', '2'], 't')).toEqual({ max_results: 2 });
    expect(argsFromFlags(s, ['--maxResults', '2'], 't')).toEqual({ maxResults: '2' });
  });

  it('undeclared keys under additionalProperties: true, also below a value that was not an object', () => {
    const open = { type: 'object', properties: { a: { type: ['integer', 'object'], additionalProperties: true } } };
    expect(argsFromFlags(open, ['--a', '5', '--a.b', '1'], 't')).toEqual({ a: { b: '1' } });
  });

  it('arrays: a JSON array with leading spaces; objects merged deeply in either order; arrays replace', () => {
    expect(argsFromFlags(schema, ['--ports', '  [1,2]', '--ports', '3'], 't')).toEqual({ ports: [1, 2, 3] });
    expect(argsFromFlags(schema, ['--address.zip', '1', '--address', '{"city":"X"}'], 't')).toEqual({
      address: { zip: 1, city: 'X' },
    });
    expect(
      argsFromFlags(schema, ['--address', '{"geo":{"lat":1},"city":"A"}', '--address', '{"geo":{"lon":2}}'], 't'),
    ).toEqual({ address: { city: 'A', geo: { lat: 1, lon: 2 } } });
    const mixed = { type: 'object', properties: { x: { type: ['array', 'object'] } } };
    expect(argsFromFlags(mixed, ['--x', '{"a":1}', '--x', '[1]'], 't')).toEqual({ x: [1] });
    expect(argsFromFlags(mixed, ['--x', '[1]', '--x', '{"a":1}'], 't')).toEqual({ x: { a: 1 } });
    expect(argsFromFlags(schema, ['--city', 'a', '--city', 'b'], 't')).toEqual({ city: 'b' });
  });
});

describe('flagNames', () => {
  it('lists nested object properties as a.b, three levels deep at most', () => {
    const deep = {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: {
            b: {
              type: 'object',
              properties: { c: { type: 'object', properties: { d: { type: 'object', properties: { e: {} } } } } },
            },
          },
        },
        z: { type: 'string' },
      },
    };
    expect(flagNames(deep)).toEqual(['a', 'a.b', 'a.b.c', 'a.b.c.d', 'z']);
  });
});
