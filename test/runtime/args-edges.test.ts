// argsFromFlags at its edges: what a user reads in each usage error (the flag, the choices, the
// suggestion, an example flag), and the merge rules when a flag is given twice with values of
// different kinds. Each case here was a mutant that the other tests let through.
import { describe, expect, it } from 'vitest';
import { argsFromFlags, parseArgsJson } from '../../src/runtime/args.js';
import { ToolboxError } from '../../src/errors.js';

const err = (s: unknown, tokens: string[]): ToolboxError => {
  try {
    argsFromFlags(s as never, tokens, 'fx');
  } catch (e) {
    if (e instanceof ToolboxError) return e;
    throw e;
  }
  throw new Error(`no error for ${tokens.join(' ')}`);
};
const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('usage errors say what the user needs to fix the call', () => {
  const s = obj({
    unit: { type: 'string', enum: ['c', 'f'] },
    count: { type: 'integer' },
    n: { type: ['integer', 'null'] },
    city: { type: 'string' },
    any: {},
    address: obj({ zip: { type: 'integer' } }),
  });

  it('an enum miss lists the choices, and suggests the near one only when there is one', () => {
    expect(err(s, ['--unit', 'ff']).message).toBe("--unit: expected one of c, f; got 'ff'. Did you mean 'f'?");
    expect(err(s, ['--unit', 'kelvin']).message).toBe("--unit: expected one of c, f; got 'kelvin'.");
  });

  it('a string enum matches the value as written, not its JSON form', () => {
    expect(err(s, ['--unit', '"c"']).code).toBe('invalid_argument');
  });

  it('a type miss names the flag, the expected kind(s) and the value given', () => {
    expect(err(s, ['--count', 'x']).message).toBe("--count: expected an integer, got 'x'.");
    const e = err(s, ['--n', 'x']);
    expect(e.message).toBe("--n: expected an integer or null, got 'x'.");
    expect(e.details).toMatchObject({ flag: '--n', param: 'n', expected: 'integer|null', given: 'x' });
  });

  it('a missing value says what kind of value, for nested flags too', () => {
    expect(err(s, ['--city']).message).toBe('--city needs a value (a string).');
    expect(err(s, ['--any']).message).toBe('--any needs a value (any value).');
    const u = err(s, ['--n']);
    expect([u.message, u.details?.expected]).toEqual(['--n needs a value (an integer or null).', 'integer|null']);
    const nested = err(s, ['--address.zip']);
    expect(nested.details).toEqual({ flag: '--address.zip', param: 'address.zip', expected: 'integer' });
  });

  it('an unknown flag is named as typed, with every suggestion', () => {
    const e = err(s, ['--citty', 'x']);
    expect(e.code).toBe('unknown_argument');
    expect(e.details?.flag).toBe('--citty');
    expect(e.message).toBe("unknown argument --citty for tool 'fx'. Did you mean --city?");
    const two = err(obj({ city: { type: 'string' }, address: obj({ city: { type: 'string' } }) }), ['--citty', 'x']);
    expect(two.message).toMatch(/Did you mean --city or --address\.city\?$/);
    expect(err(s, ['--=x']).details?.flag).toBe('--');
    expect(err(s, ['--zzzzzz', 'x']).message).toBe("unknown argument --zzzzzz for tool 'fx'.");
  });

  it('a positional value gets an example flag from the schema (or a generic one)', () => {
    expect(err(s, ['Paris']).message).toBe(
      "unexpected argument 'Paris': tool arguments are flags, e.g. --unit <value>.",
    );
    expect(err(obj({}), ['Paris']).message).toBe(
      "unexpected argument 'Paris': tool arguments are flags, e.g. --name <value>.",
    );
  });

  it('the run --help hint names the tool', () => {
    expect(err(s, ['--count', 'x']).hint).toBe("Run `toolbox run fx --help` for the tool's parameters.");
  });
});

describe('flag names', () => {
  it('kebab, snake and run-together spellings find the same property; other spellings do not', () => {
    const s = obj({ max_results: { type: 'integer' } });
    expect(argsFromFlags(s, ['--maxresults', '5'], 'fx')).toEqual({ max_results: 5 });
    expect(argsFromFlags(s, ['--MAX-RESULTS', '5'], 'fx')).toEqual({ max_results: 5 });
    expect(err(s, ['--max.results', '5']).code).toBe('unknown_argument');
  });

  it('--no-x is a negation only when no property is called no-x, and only with the no- prefix', () => {
    const s = obj({ 'no-cache': { type: 'string' }, cache: { type: 'boolean' }, verbose: { type: 'boolean' } });
    expect(argsFromFlags(s, ['--no-cache', 'x'], 'fx')).toEqual({ 'no-cache': 'x' });
    expect(argsFromFlags(s, ['--no-verbose'], 'fx')).toEqual({ verbose: false });
    expect(err(s, ['--abcverbose']).code).toBe('unknown_argument');
  });

  it('a $ref that resolves nowhere, or a boolean schema, offers no nested flags (a usage error, not a crash)', () => {
    const s = { ...obj({ a: { $ref: '#/$defs/missing' } }), $defs: {} };
    expect(err(s, ['--a.b', 'x']).code).toBe('unknown_argument');
    expect(err(obj({ a: true }), ['--a.b', 'x']).code).toBe('unknown_argument');
  });
});

describe('values given twice, or of several kinds', () => {
  it('null then a nested object under it', () => {
    const s = obj({ a: { type: ['null', 'object'], properties: { b: { type: 'object' } } } });
    expect(argsFromFlags(s, ['--a', 'null', '--a.b', '{"c":1}'], 'fx')).toEqual({ a: { b: { c: 1 } } });
  });

  it('objects merge only with objects; any other value replaces', () => {
    const s = obj({ x: { type: ['object', 'integer', 'string'] } });
    expect(argsFromFlags(s, ['--x', '{"a":1}', '--x', '5'], 'fx')).toEqual({ x: 5 });
    expect(argsFromFlags(s, ['--x', 'abc', '--x', '{"a":1}'], 'fx')).toEqual({ x: { a: 1 } });
    expect(argsFromFlags(s, ['--x', '{"g":"s"}', '--x', '{"g":{"lat":1}}'], 'fx')).toEqual({ x: { g: { lat: 1 } } });
    expect(argsFromFlags(s, ['--x', '{"g":{"lat":1}}', '--x', '{"g":5}'], 'fx')).toEqual({ x: { g: 5 } });
  });

  it('"null" converts to null only as written; with spaces it stays a string', () => {
    const s = obj({ n: { type: ['null', 'string'] } });
    expect(argsFromFlags(s, ['--n', 'null'], 'fx')).toEqual({ n: null });
    expect(argsFromFlags(s, ['--n', ' null'], 'fx')).toEqual({ n: ' null' });
  });
});

describe('parseArgsJson errors name the source and say what to pass', () => {
  const hint = 'Pass a JSON object, e.g. --args \'{"city": "Paris"}\'.';
  it.each([
    ['{bad', /^stdin: not valid JSON \(.+\)\.$/],
    ['[1]', /^stdin: expected a JSON object of arguments, got array\.$/],
  ])('%s', (text, message) => {
    let e: unknown;
    try {
      parseArgsJson(text, 'stdin');
    } catch (x) {
      e = x;
    }
    expect(e).toMatchObject({ code: 'invalid_args_json', exitCode: 2, hint });
    expect((e as Error).message).toMatch(message);
  });
});
