// Contract patterns: run in linear time (RE2) with ECMAScript's \u escapes, refused when only a
// backtracking engine can run them, and flagged when they nest quantifiers.
import { describe, expect, it, vi } from 'vitest';
import { hasNestedQuantifier, linearProblem, linearRegExp } from '../../src/contract/regex.js';

describe('linearRegExp', () => {
  it('search semantics like RegExp.test, with the i flag', () => {
    expect(linearRegExp('b+').test('abbc')).toBe(true);
    expect(linearRegExp('^b').test('abc')).toBe(false);
    expect(linearRegExp('ABC', 'i').test('xabcx')).toBe(true);
    expect(linearRegExp('ABC').test('xabcx')).toBe(false);
  });
  it('\\uXXXX and \\u{X…} escapes as in ECMAScript; other escapes kept', () => {
    expect(linearRegExp('^\\u0041$').test('A')).toBe(true);
    expect(linearRegExp('^\\u{1F600}$').test('😀')).toBe(true);
    expect(linearRegExp('^\\u{41}\\d$').test('A7')).toBe(true);
    expect(linearRegExp('^a\\.b$').test('a.b')).toBe(true);
    expect(linearRegExp('^a\\.b$').test('axb')).toBe(false);
    expect(linearRegExp('^\\\\u0041$').test('\\u0041')).toBe(true);
  });
  it('other escapes are left alone, also before a brace', () => {
    expect(linearRegExp('^\\d{2}$').test('12')).toBe(true);
    expect(linearRegExp('^\\u0041x{2}$').test('Axx')).toBe(true);
    expect(String(linearRegExp('b+'))).toBe('/b+/');
  });
  it('a \\u without 4 hex digits right after it is refused, not read from further on', () => {
    // RE2 has no \u escape: only a complete \uXXXX or \u{X…} is rewritten, the rest reaches RE2 as written.
    expect(linearProblem('\\uZ0041')).toBe('invalid escape sequence: `\\u`');
    expect(linearProblem('^\\u004G$')).toBe('invalid escape sequence: `\\u`');
    expect(linearProblem('^\\u0041$')).toBeUndefined();
  });
  it('keeps up to 1,001 compiled patterns, then starts again', async () => {
    vi.resetModules(); // a fresh module: an empty cache
    const { linearRegExp: fresh } = await import('../../src/contract/regex.js');
    const first = fresh('^k0$');
    expect(fresh('^k0$')).toBe(first); // the same object: compiled once
    for (let k = 1; k <= 1000; k++) fresh(`^k${k}$`);
    expect(fresh('^k0$')).toBe(first); // 1,001 patterns kept
    fresh('^k1001$'); // the 1,002nd clears the cache first
    const again = fresh('^k0$');
    expect(again).not.toBe(first);
    expect(again.test('k0')).toBe(true);
  });
  it('a pattern ending in a backslash is a syntax error', () => {
    expect(() => linearRegExp('a\\')).toThrow();
  });
  it('matches in linear time where a backtracking engine would not return', () => {
    expect(linearRegExp('^(a+)+$').test(`${'a'.repeat(5000)}!`)).toBe(false);
  });
  it('prints like a RegExp (ajv caches by it) and is cached per pattern and flags', () => {
    expect(String(linearRegExp('a+', 'i'))).toBe('/a+/i');
    expect(linearRegExp('a+', 'i')).toBe(linearRegExp('a+', 'i'));
    expect(linearRegExp('a+')).not.toBe(linearRegExp('a+', 'i'));
  });
});

describe('linearProblem', () => {
  it('names what RE2 cannot do, without its prefix; nothing for a plain pattern', () => {
    expect(linearProblem('^[a-z]+$')).toBeUndefined();
    expect(linearProblem('(?=a)b')).toMatch(/^invalid or unsupported Perl syntax/);
    expect(linearProblem('(a)\\1')).toMatch(/^invalid escape sequence/);
  });
});

describe('hasNestedQuantifier', () => {
  it.each([
    ['^(a+)+$', true],
    ['(\\w*,?)*', true],
    ['(a*){2,}', true],
    ['(a+){1,5}', true],
    ['(?:x(a+))*', true],
    ['((a+)b)+', true],
    ['^a+$', false],
    ['(a+)?', false],
    ['(a+){3}', false],
    ['(a+){3,3}', false],
    ['(ab)+', false],
    ['(a)+b+', false],
    ['([+*])+', false],
    ['(\\+)+', false],
    ['(a{2})+', false],
    ['[(]a+[)]+', false],
    ['(a+)b(c)+', false],
    ['a)+', false],
    ['x))+', false],
    ['(a+(b))+', true],
    ['([a-z]+)+', true],
    ['([\\]+])+', false],
    ['([a+)+', false],
    ['(a+)x{2,}', false],
    ['(a+){10,}', true],
    ['(a+){2,}x{3,3}', true],
    ['(a+){10,10}', false],
    // A literal that starts each repetition and that nothing else in the group matches splits the input
    // one way only: not flagged. Any doubt (the literal optional or repeated, matched by a class, `.`, an
    // alternative, a nested group, a lookaround, a class as the lead) keeps the finding.
    ['^[a-z]+(-[a-z]+)*$', false],
    ['(?:-[a-z]+)*', false],
    ['(\\.\\w+)+', false],
    ['(-\\w+)*', false],
    ['(a-b+)*', false],
    ['(-a{2,})*', false],
    ['(-a+){2,}', false],
    ['(-a\\d+)*', false],
    ['(-*a+)*', true],
    ['(-[\\-a]+)*', true],
    ['(-[a-z-]+)*', true],
    ['(-[\\]-]+)*', true],
    ['(-[^a]+)*', true],
    ['(-\\W+)*', true],
    ['(-.+)*', true],
    ['(-?[a-z]+)*', true],
    ['(-+a+)*', true],
    ['(-{1,2}a+)*', true],
    ['(-a+-)*', true],
    ['(-\\-+)*', true],
    ['(-a+|b)*', true],
    ['((-a+)*)+', true],
    ['(-(a+))*', true],
    ['(?=-a+)*', true],
    ['(\\d+-)+', true],
    ['(^a+)*', true],
    ['(.a+)*', true],
    // Escapes that name a character atomsOf would cut apart, or that mean something else under the u flag
    // (ajv's default), are a doubt: (-\x2d+)* backtracks as (-\-+)* does.
    ['^(-\\x2d+)*$', true],
    ['^(-\\u002d+)*$', true],
    ['^(-\\u{2d}+)*$', true],
    ['^(-\\55+)*$', true],
    ['^(-\\P{L}+)*$', true],
    ['^(-[\\p{P}a]+)*$', true],
    ['^(-[\\x2d]+)*$', true],
    ['^(-\\cMa+)*$', true],
    ['(-[\\w.]+)*', false],
    ['(-[\\d.]+)*', false],
    ['(\\.[\\w\\-]+)*', false],
    // Without the u flag JavaScript reads {,5} and {} literally (no quantifier); {2,} is unbounded.
    ['(a+){,5}', false],
    ['(a{,5})+', false],
    ['(a+){}', false],
    ['(a{2,})+', true],
    ['(a+){2,}', true],
    ['(-a{,3})*', false],
    // A bound inside the group is skipped whole ({2,}, {12,}, {2}, {2,3}), never read as the atoms { 2 , }: a
    // lead ',' or '2' is then matched by nothing else in the group. What follows a bound is read again.
    ['^(,a{2,}b+)*$', false],
    ['^(,a{12,}b+)*$', false],
    ['^(2a{2}b+)*$', false],
    ['^(,a{2,3}b+)*$', false],
    ['^(,a{2},b+)*$', true],
    // A class inside the group is one atom, up to its own ']' (an escaped \] does not end it); then the next atom.
    ['^(-[a-z][0-9]+)*$', false],
    ['^(-[a-z]-b+)*$', true],
    ['^(-[abc]-d+)*$', true],
    ['^(-[\\]a]b+)*$', false],
    // (?: is not part of the body; a class or \d first is no lead.
    ['^(?:-a+:)*$', false],
    ['^([a-z]b+)*$', true],
    ['^(\\d-b+)*$', true],
    // {x} is no quantifier, even with a {2,} later; escaped parentheses are no group; adjacent classes.
    ['^(a{x})+b{2,}$', false],
    ['^\\(a+\\)+$', false],
    ['^[a][b]+$', false],
    // A bound is read where the brace is, not further on: {,x} is the atoms { , x }, and its ',' is matched.
    ['^(,a{,x}b{2}c+)*$', true],
    // A stray ')' closes no group: the quantified text before it is still a finding (the pattern is broken anyway).
    ['-a+)+', true],
  ])('%s → %s', (p, want) => {
    expect(hasNestedQuantifier(p)).toBe(want);
  });
});
