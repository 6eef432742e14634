import { describe, expect, it } from 'vitest';
import {
  closest,
  editDistance,
  ExitCode,
  ExitError,
  exitCodeTable,
  EXIT_MEANINGS,
  InternalError,
  ToolboxError,
  usageError,
} from '../src/errors.js';

const ids = [
  'query_weather',
  'send_email',
  'calculator',
  'convert_units',
  'convert_timezone',
  'date_calculator',
  'json_query',
  'hash_text',
];

describe('did-you-mean suggestions', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(editDistance('emial', 'email')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
  it.each([
    ['wether', 'query_weather'],
    ['query_wether', 'query_weather'],
    ['emial', 'send_email'],
    ['sendemail', 'send_email'],
    ['calc', 'calculator'],
    ['timezone', 'convert_timezone'],
  ])('%s → %s', (typo, want) => {
    expect(closest(typo, ids)[0]).toBe(want);
  });
  it('suggests nothing for unrelated or tiny inputs', () => {
    expect(closest('foo', ids)).toEqual([]);
    expect(closest('x', ids)).toEqual([]);
  });
  it('works for flags', () => {
    expect(closest('--expresion', ['--expression', '--json'])).toEqual(['--expression']);
    expect(closest('--tmeout', ['--timeout', '--user'])).toEqual(['--timeout']);
  });
});

describe('edit distance (optimal string alignment)', () => {
  it.each([
    ['', 'abc', 3],
    ['abc', '', 3],
    ['a', 'b', 1],
    ['ab', 'cd', 2],
    ['ab', 'ba', 1],
    ['abcd', 'badc', 2],
    ['ca', 'abc', 3],
    ['abc', 'abc', 0],
  ] as const)('%s → %s = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closest: order, limits and cut-offs', () => {
  it('nearer first, then alphabetical; at most `max`', () => {
    expect(closest('emial', ['send_email', 'email'])).toEqual(['email', 'send_email']);
    expect(closest('calc', ['date_calculator', 'calculator'])).toEqual(['calculator', 'date_calculator']);
    const many = ['a_xyz1', 'a_xyz2', 'a_xyz3', 'a_xyz4'];
    expect(closest('xyz', many)).toHaveLength(3);
    expect(closest('xyz', many, 2)).toEqual(['a_xyz1', 'a_xyz2']);
  });
  it('a substring of three letters counts; a two-letter word of an id does not', () => {
    expect(closest('cal', ['calculator'])).toEqual(['calculator']);
    expect(closest('do', ['to_do'])).toEqual([]);
    expect(closest('---', ['--json'])).toEqual([]);
    expect(closest('', ['a'])).toEqual([]);
  });
  it('strips leading dashes, all of them and only those, from both sides', () => {
    expect(closest('--jsn', ['--json'])).toEqual(['--json']);
    expect(closest('date-range', ['daterange', 'date-range'])).toEqual(['date-range', 'daterange']);
  });
  it('the cut-off scales with the longer of the two words', () => {
    expect(closest('wethr', ['weather'])).toEqual(['weather']);
  });
});

describe('error types', () => {
  it('ToolboxError: code, message, usage exit by default, hint, location, details, cause only when given', () => {
    const plain = new ToolboxError('bad_thing', 'it broke');
    expect([plain.name, plain.code, plain.message, plain.exitCode]).toEqual([
      'ToolboxError',
      'bad_thing',
      'it broke',
      2,
    ]);
    expect('cause' in plain).toBe(false);
    const cause = new Error('under');
    const full = new ToolboxError('x', 'y', {
      exitCode: ExitCode.toolFailed,
      hint: 'do this',
      location: { file: 'a.yaml', line: 3, column: 4 },
      details: { k: 1 },
      cause,
    });
    expect(full).toMatchObject({
      exitCode: 4,
      hint: 'do this',
      location: { file: 'a.yaml', line: 3 },
      details: { k: 1 },
    });
    expect(full.cause).toBe(cause);
  });
  it('ExitError carries only its code; InternalError is named and keeps its cause', () => {
    const e = new ExitError(3);
    expect([e.name, e.exitCode, e.message]).toEqual(['ExitError', 3, 'exit 3']);
    const cause = new Error('under');
    const i = new InternalError('boom', { cause });
    expect([i.name, i.message, i.cause]).toEqual(['InternalError', 'boom', cause]);
  });
  it('usageError is exit 2 with code, hint and details', () => {
    const e = usageError('bad_flag', 'no such flag', 'try --help', { flag: '--x' });
    expect(e).toMatchObject({ code: 'bad_flag', exitCode: 2, hint: 'try --help', details: { flag: '--x' } });
  });
  it('the exit-code table lists every code once, in order, with its meaning', () => {
    const lines = exitCodeTable().trim().split('\n');
    expect(lines[0]).toBe('Exit codes:');
    const codes = Object.keys(EXIT_MEANINGS);
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(codes);
    for (const [i, c] of codes.entries())
      expect(lines[i + 1]!.trim().slice(c.length).trim()).toBe(EXIT_MEANINGS[Number(c) as 0]);
  });
});
