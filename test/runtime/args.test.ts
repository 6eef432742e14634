import { describe, expect, it } from 'vitest';
import { argsFromFlags, parseArgsJson } from '../../src/runtime/args.js';
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
