import { describe, expect, it } from 'vitest';
import { decodeUtf8, parseYamlSource, readYamlSource } from '../../src/contract/yaml-source.js';

const DOC = [
  '# a comment', // 1
  'name: a', // 2
  'params:', // 3
  '  type: object', // 4
  '  list:', // 5
  '    - x', // 6
  '    - {k: 1}', // 7
  '  "q k": 2', // 8
  '',
].join('\n');

describe('locate (parseYamlSource and the fast reader agree)', () => {
  const readers = { parse: parseYamlSource, read: readYamlSource };
  it.each(Object.entries(readers))('%s: keys, items, and the deepest existing ancestor', (_, reader) => {
    const src = reader(DOC);
    expect(src.errors).toEqual([]);
    const at = (...path: (string | number)[]) => src.locate(path);
    expect(at()).toEqual({ line: 2, column: 1 });
    expect(at('name')).toEqual({ line: 2, column: 1 });
    expect(at('params')).toEqual({ line: 3, column: 1 });
    expect(at('missing')).toEqual({ line: 2, column: 1 });
    expect(at('params', 'type')).toEqual({ line: 4, column: 3 });
    expect(at('params', 'q k')).toEqual({ line: 8, column: 3 });
    // A sequence item by number, or by a string of digits (a JSON pointer segment).
    expect(at('params', 'list', 0)).toEqual({ line: 6, column: 7 });
    expect(at('params', 'list', 1)).toEqual({ line: 7, column: 7 });
    expect(at('params', 'list', '1')).toEqual({ line: 7, column: 7 });
    expect(at('params', 'list', 1, 'k')).toEqual({ line: 7, column: 8 });
    // Not an index: the sequence's own key is the answer.
    for (const seg of ['0x1', ' 1', '1 ', '1e0', 'x', -1, 1.5])
      expect(at('params', 'list', seg)).toEqual({ line: 5, column: 3 });
    // Past the end of the sequence, below a scalar, a missing key under a map.
    expect(at('params', 'list', 5)).toEqual({ line: 5, column: 3 });
    expect(at('params', 'type', 'x')).toEqual({ line: 4, column: 3 });
    expect(at('name', 0)).toEqual({ line: 2, column: 1 });
    expect(at('name', '0')).toEqual({ line: 2, column: 1 });
    expect(at('params', 'nope', 'deeper')).toEqual({ line: 3, column: 1 });
  });

  it('an index of two digits in a root sequence', () => {
    const src = parseYamlSource(Array.from({ length: 12 }, (_, i) => `- v${i}`).join('\n') + '\n');
    expect(src.locate(['10'])).toEqual({ line: 11, column: 3 });
    expect(src.locate([11])).toEqual({ line: 12, column: 3 });
    expect(src.locate(['12'])).toEqual({ line: 1, column: 1 });
  });

  it('an empty document locates everything at 1:1', () => {
    for (const reader of [parseYamlSource, readYamlSource]) {
      expect(reader('').locate([])).toEqual({ line: 1, column: 1 });
      expect(reader('').locate(['a', 0])).toEqual({ line: 1, column: 1 });
      expect(reader('# only a comment\n').locate(['a'])).toEqual({ line: 1, column: 1 });
    }
  });

  it('a key that is not a scalar never matches a path segment', () => {
    // `*x` as a key is an alias node: it has no `.value`, so it must not match 'undefined'.
    const src = parseYamlSource('b: &x 2\n*x : 1\n');
    expect(src.value).toEqual({ b: 2, 2: 1 });
    expect(src.locate(['b'])).toEqual({ line: 1, column: 1 });
    expect(src.locate(['undefined'])).toEqual({ line: 1, column: 1 });
    expect(src.locate(['2'])).toEqual({ line: 1, column: 1 });
  });
});

describe('parseYamlSource errors', () => {
  it('syntax errors carry yaml’s code and the position of the offending token', () => {
    const dup = parseYamlSource('a: 1\na: 2\n');
    expect(dup.value).toBeUndefined();
    expect(dup.errors.map((e) => [e.code, e.pos])).toEqual([['DUPLICATE_KEY', { line: 2, column: 1 }]]);
    const bad = parseYamlSource('a: [1\n');
    expect(bad.errors.map((e) => e.code)).toContain('BAD_INDENT');
  });

  it('is strict: a comment glued to a token and an implicit key over 1024 characters are errors', () => {
    const glued = parseYamlSource('a: "x"#c\n');
    expect(glued.errors.map((e) => [e.code, e.pos])).toEqual([['MISSING_CHAR', { line: 1, column: 7 }]]);
    expect(glued.value).toBeUndefined();
    const long = parseYamlSource('k'.repeat(1100) + ': 1\n');
    expect(long.errors.map((e) => [e.code, e.pos])).toEqual([['KEY_OVER_1024_CHARS', { line: 1, column: 1 }]]);
    // The fast reader hands such text to the same parser.
    expect(readYamlSource('a: |#c\n  x\n').errors.map((e) => e.code)).toEqual(['MISSING_CHAR']);
  });

  it('an alias bomb is a YAML_DATA error at 1:1, with no value', () => {
    let bomb = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 0; i < 8; i++)
      bomb += `b${i}: &b${i} [${Array(10)
        .fill(i ? `*b${i - 1}` : '*a')
        .join(', ')}]\n`;
    const src = parseYamlSource(bomb);
    expect(src.value).toBeUndefined();
    expect(src.errors.map((e) => [e.code, e.pos])).toEqual([['YAML_DATA', { line: 1, column: 1 }]]);
  });

  it('aliases below the limit expand', () => {
    const src = parseYamlSource('a: &a [1, 2]\nb: *a\n');
    expect(src.errors).toEqual([]);
    expect(src.value).toEqual({ a: [1, 2], b: [1, 2] });
  });
});

describe('decodeUtf8', () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  const fail = (b: Uint8Array) => {
    const r = decodeUtf8(b);
    if (!('error' in r)) throw new Error(`decoded: ${JSON.stringify(r)}`);
    return [r.error.slice(-4), r.pos.line, r.pos.column];
  };
  const A = 0x61;
  const NL = 0x0a;
  const E_ACUTE = [0xc3, 0xa9]; // é, 2 bytes
  const COPYRIGHT = [0xc2, 0xa9]; // ©, the lowest 2-byte lead
  const U0800 = [0xe0, 0xa0, 0x80]; // the lowest 3-byte character
  const EURO = [0xe2, 0x82, 0xac]; // €
  const EMOJI = [0xf0, 0x9f, 0x98, 0x80]; // 😀, 4 bytes, 2 UTF-16 units
  const MAX = [0xf4, 0x8f, 0xbf, 0xbf]; // U+10FFFF

  it('valid text, with its byte-order mark removed', () => {
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, A, ...E_ACUTE))).toEqual({ text: 'aé' });
    expect(decodeUtf8(bytes(A, 0xef, 0xbb, 0xbf))).toEqual({ text: 'a\ufeff' });
    expect(decodeUtf8(bytes(...COPYRIGHT, ...U0800, ...EURO, ...EMOJI, ...MAX))).toEqual({
      text: '©\u0800€😀\u{10ffff}',
    });
  });

  it('the first bad byte: its value, its line, and its column in UTF-16 units after valid characters', () => {
    const valid = [A, ...E_ACUTE, ...COPYRIGHT, ...U0800, ...EURO, ...EMOJI, ...MAX];
    // a é © ࠀ € (1 each) + 😀 (2) + U+10FFFF (2) = 9 units before the bad byte.
    expect(fail(bytes(NL, ...valid, 0xff))).toEqual(['0xff', 2, 10]);
    expect(fail(bytes(A, NL, A, 0x80))).toEqual(['0x80', 2, 2]); // a lone continuation byte
    expect(fail(bytes(A, A, 0xc3))).toEqual(['0xc3', 1, 3]); // truncated at the end
    expect(fail(bytes(A, 0xe2, 0x82))).toEqual(['0xe2', 1, 2]);
    expect(fail(bytes(A, 0xc3, 0x41))).toEqual(['0xc3', 1, 2]); // no continuation byte
    expect(fail(bytes(A, 0xc0, 0x80))).toEqual(['0xc0', 1, 2]); // overlong 2-byte form
    expect(fail(bytes(A, 0xe0, 0x80, 0x80))).toEqual(['0xe0', 1, 2]); // overlong 3-byte form
    expect(fail(bytes(A, A, A, A, 0xe0, 0x80, 0x80))).toEqual(['0xe0', 1, 5]); // … after the first len bytes
    expect(fail(bytes(A, 0xed, 0xa0, 0x80))).toEqual(['0xed', 1, 2]); // a UTF-16 surrogate
    expect(fail(bytes(A, 0xf4, 0x90, 0x80, 0x80))).toEqual(['0xf4', 1, 2]); // above U+10FFFF
    expect(fail(bytes(A, 0xf5, 0x80, 0x80, 0x80))).toEqual(['0xf5', 1, 2]);
    expect(fail(bytes(NL, NL, A, A, A, 0xfe))).toEqual(['0xfe', 3, 4]);
  });
});
