import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../src/errors.js';

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
