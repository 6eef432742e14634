// The ajv set-up every contract schema and every call's arguments go through (src/contract/ajv.ts).
import { describe, expect, it } from 'vitest';
import { ajvFor, pointerToPath, remoteRefs } from '../../src/contract/ajv.js';

const draft07 = ajvFor(undefined);
const check = (schema: object) => draft07.compile(schema);

describe('ajvFor', () => {
  it('draft 2020-12 (and 2019-09) when $schema says so, else draft-07; one instance each', () => {
    const d2020 = ajvFor({ $schema: 'https://json-schema.org/draft/2020-12/schema' });
    expect(ajvFor({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe(d2020);
    expect(d2020).not.toBe(draft07);
    expect(ajvFor({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe(draft07);
    expect(ajvFor({ $schema: 5 } as object)).toBe(draft07);
    expect(ajvFor({})).toBe(draft07);
    // prefixItems is a 2020-12 keyword; draft-07 does not know it (and is not strict about it).
    const tuple = { prefixItems: [{ type: 'string' }] };
    expect(d2020.compile(tuple)([1])).toBe(false);
    expect(draft07.compile(tuple)([1])).toBe(true);
  });

  it('reports every error, requires own properties, tolerates unknown keywords', () => {
    const v = check({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['toString'],
      'x-extension': true,
    });
    expect(v({ a: 1, b: 1 })).toBe(false);
    expect(v.errors!.map((e) => [e.keyword, e.instancePath])).toEqual([
      ['required', ''],
      ['type', '/a'],
      ['type', '/b'],
    ]);
    expect(v({ toString: 'x' })).toBe(true);
  });

  it('patterns run on the linear-time engine: lookaround and backreferences do not compile', () => {
    expect(() => check({ type: 'string', pattern: '(?=a)a' })).toThrow();
    expect(() => check({ type: 'string', pattern: '(a)\\1' })).toThrow();
    const v = check({ type: 'string', pattern: '^(a+)+$' });
    expect([v('aaaa'), v('a'.repeat(5000) + 'b')]).toEqual([true, false]);
  });
});

describe('formats', () => {
  const fmt = (format: string, extra: object = {}) => check({ type: 'string', format, ...extra });
  it('are validated: regex formats on the linear engine, without a length cap', () => {
    const email = fmt('email');
    expect([email('a@b.co'), email('nope'), email('x'.repeat(9000) + '@b.co')]).toEqual([true, false, true]);
    const uuid = fmt('uuid');
    expect([uuid('123e4567-e89b-12d3-a456-426614174000'), uuid('123e4567')]).toEqual([true, false]);
  });

  it('a regex RE2 cannot run (duration: lookahead) sees at most 8192 characters', () => {
    const duration = fmt('duration');
    const of = (digits: number) => 'PT' + '1'.repeat(digits) + 'S';
    expect(of(8189)).toHaveLength(8192);
    expect([duration('P1D'), duration('P'), duration(of(8189)), duration(of(8190))]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    const hostname = fmt('hostname');
    expect([hostname('a.example'), hostname('a'.repeat(8193))]).toEqual([true, false]);
  });

  it('function and object formats see at most 8192 characters too', () => {
    const uri = fmt('uri');
    const base = 'https://example.com/';
    expect([
      uri(base),
      uri('nope'),
      uri(base + 'a'.repeat(8192 - base.length)),
      uri(base + 'a'.repeat(8193 - base.length)),
    ]).toEqual([true, false, true, false]);
    // time's own check has no length limit (a fraction of any length is valid): the cap is ours.
    const time = fmt('time');
    const of = (digits: number) => '12:00:00.' + '1'.repeat(digits) + 'Z';
    expect(of(8182)).toHaveLength(8192);
    expect([time('12:00:00Z'), time('25:00:00Z'), time(of(8182)), time(of(8183))]).toEqual([true, false, true, false]);
    const date = fmt('date');
    expect([date('2020-01-31'), date('2020-02-30'), date('2020-01-3')]).toEqual([true, false, false]);
    const regex = fmt('regex');
    expect([regex('a+'), regex('(')]).toEqual([true, false]);
  });

  it('keep their compare function (formatMinimum) and their type (number formats stay number formats)', () => {
    const after = fmt('date', { formatMinimum: '2020-01-01' });
    expect([after('2019-12-31'), after('2020-01-01'), after('2021-06-01')]).toEqual([false, true, true]);
    const int32 = check({ format: 'int32' });
    expect([int32(5), int32(2 ** 31), int32(-(2 ** 31)), int32('not a number')]).toEqual([true, false, true, true]);
    expect(check({ type: 'string', format: 'password' })('anything')).toBe(true);
  });
});

describe('remoteRefs', () => {
  it('finds every $ref and $dynamicRef that leaves the document, with its path', () => {
    const schema = {
      $ref: 'https://example.com/a.json',
      properties: {
        local: { $ref: '#/$defs/x' },
        remote: { $dynamicRef: 'other.json#meta' },
        notString: { $ref: 5 },
      },
      anyOf: [{ type: 'string' }, { items: [{ $ref: 'b.json' }] }],
      $defs: { x: { $dynamicRef: '#meta' } },
      const: null,
    };
    expect(remoteRefs(schema)).toEqual([
      { path: ['$ref'], ref: 'https://example.com/a.json' },
      { path: ['properties', 'remote', '$dynamicRef'], ref: 'other.json#meta' },
      { path: ['anyOf', 1, 'items', 0, '$ref'], ref: 'b.json' },
    ]);
    expect(remoteRefs({ $ref: '#' })).toEqual([]);
    expect(remoteRefs('$ref')).toEqual([]);
  });
});

describe('pointerToPath', () => {
  it('splits a JSON pointer and unescapes ~1 before ~0', () => {
    expect(pointerToPath('')).toEqual([]);
    expect(pointerToPath('/')).toEqual(['']);
    expect(pointerToPath('/schema/properties/a~1b/c~0d/0')).toEqual(['schema', 'properties', 'a/b', 'c~d', '0']);
    expect(pointerToPath('/~01/~1~1/~0~0')).toEqual(['~1', '//', '~~']);
  });
});
