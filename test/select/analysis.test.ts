// The document analysis made faster (tokenize's pre-checks and term callback, the name field's terms
// reused from the id/name comparison) gives exactly what it gave before: the same terms in the same
// order, so the same statistics (key order included) and the same index bytes. The oracle is the
// old code, kept verbatim in analysis-oracle.ts.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { fieldsOf, fieldTexts } from '../../src/select/fields.js';
import { docStats, docStatsOf } from '../../src/select/model.js';
import { analyse, terms, tokenize } from '../../src/select/tokenize.js';
import { oldDocStatsOf, oldFieldTexts, oldTokenize } from './analysis-oracle.js';
import { genContracts, rng } from './build-oracle.js';

// Pieces chosen for the pre-checks and the concatenation of id and name: identifier case, acronyms,
// "%", digits, the prolonged sound mark 'ー' inside Latin letters, CJK and kana, combining marks,
// final sigma, Turkish dotted I, fullwidth forms (NFKC), U+2E80 radicals, Hangul.
const PIECES = [
  'getHTTPServer',
  'cityName',
  'XMLHttpRequest',
  'ABC',
  'aB',
  '9Lives',
  'U.S.',
  'e.g.',
  'a.b',
  'Ü.S.',
  '15%',
  '%',
  '2024',
  '42nd',
  'aーb',
  'ーa',
  'カード',
  'データ',
  '天气预报',
  '北京的天气',
  '\u0301e',
  'e\u0301',
  'ΣΑΣ',
  'όσος',
  'İstanbul',
  'ＡＢＣ１２３',
  'ｶｰﾄﾞ',
  '⺀',
  '한국어',
  'snake_case_name',
  'kebab-case',
  'dotted.name',
  'the',
  'please',
  'forecasts',
  ' ',
  '\n',
  '.',
  '-',
  '',
];

function fuzzText(r: () => number, k: number): string {
  let s = '';
  for (let i = 0; i < k; i++) s += PIECES[Math.floor(r() * PIECES.length)]! + (r() < 0.6 ? ' ' : '');
  return s;
}

const statsJson = (texts: string[], nameTerms?: string[]) => JSON.stringify(docStatsOf(texts, nameTerms));

describe('the document analysis against the old code', () => {
  it('tokenizes fuzzed text exactly as before, on both sides (document and query)', () => {
    const r = rng(11);
    for (let i = 0; i < 3000; i++) {
      const text = fuzzText(r, 1 + Math.floor(r() * 8));
      expect(tokenize(text), text).toEqual(oldTokenize(text));
      expect(tokenize(text, { query: true }), text).toEqual(oldTokenize(text, { query: true }));
    }
  });

  it('each pre-check has a case that needs its replace (so skipping one would show)', () => {
    for (const text of ['cityName', 'HTTPServer', 'U.S. weather', '15% off', 'aーb', '42 items'])
      expect(terms(text)).toEqual(oldTokenize(text).map((t) => t.term));
    expect(terms('cityName')).toEqual(['citi', 'name']);
    expect(terms('HTTPServer')).toEqual(['http', 'server']);
    expect(terms('U.S.')).toEqual(['us']);
    expect(terms('15%')).toEqual(['percent']);
    // 'ー' in a run of Latin letters makes that run a CJK run.
    expect(oldTokenize('aーb').map((t) => t.kind)).toEqual(tokenize('aーb').map((t) => t.kind));
  });

  it('analyse hands over the terms and kinds of tokenize, in order', () => {
    const got: [string, number][] = [];
    analyse('Weather forecast 天气预报 for getCityName', false, (t, k) => got.push([t, k]));
    expect(got).toEqual(tokenize('Weather forecast 天气预报 for getCityName').map((t) => [t.term, t.kind]));
  });

  it('gives every generated contract the same field texts and the same statistics, key order included', () => {
    const contracts = genContracts(600, 23);
    for (const c of contracts) {
      const { texts, nameTerms } = fieldsOf(c);
      const old = oldFieldTexts(c);
      expect(texts).toEqual(old);
      expect(fieldTexts(c)).toEqual(old);
      expect(statsJson(texts, nameTerms)).toBe(JSON.stringify(oldDocStatsOf(old)));
      expect(JSON.stringify(docStats(c))).toBe(JSON.stringify(oldDocStatsOf(old)));
    }
  });

  it('reuses the name terms only where they are the terms of the name field', () => {
    const r = rng(5);
    const base = { loader: 'command', loader_config: { argv: ['echo'] }, schema: { type: 'object' } };
    for (let i = 0; i < 2000; i++) {
      const id = `t${i}_${['get', 'weather', 'u_s', 'city_name', 'x'][i % 5]}`;
      const roll = r();
      const name = roll < 0.15 ? undefined : roll < 0.3 ? id.replace(/_/g, ' ') : fuzzText(r, 1 + (i % 4));
      const c = { ...base, id, description: fuzzText(r, 3), ...(name === undefined ? {} : { name }) };
      const { texts, nameTerms } = fieldsOf(c as unknown as ToolContract);
      expect(nameTerms, `${id} / ${name}`).toEqual(oldTokenize(texts[0]!).map((t) => t.term));
      expect(statsJson(texts, nameTerms)).toBe(JSON.stringify(oldDocStatsOf(oldFieldTexts(c as never))));
    }
  });

  it('skips the top-level schema description and title, not deeper ones; a list as schema has no text', () => {
    const base = { id: 'x_tool', description: 'd', loader: 'command', loader_config: { argv: ['echo'] } };
    const schemas = [
      {
        type: 'object',
        description: 'top words',
        title: 'Top Title',
        properties: { a: { description: 'deep words', title: 'Deep' } },
      },
      { description: 'only top' },
      [{ description: 'in a list' }, { properties: { b: { title: 'listed' } } }],
      'a string',
      null,
    ];
    for (const schema of schemas) {
      const c = { ...base, schema } as unknown as ToolContract;
      expect(fieldTexts(c), JSON.stringify(schema)).toEqual(oldFieldTexts(c));
    }
    expect(fieldTexts({ ...base, schema: schemas[0] } as unknown as ToolContract)[2]).toBe('a \n deep words \n Deep');
  });

  it('counts given name terms, not the name text, for the name field', () => {
    // Not what fieldsOf hands over: shows that the given terms are the ones counted.
    const s = docStatsOf(['weather', 'x'], ['rain', 'rain']);
    expect(s.tf[0]).toEqual({ rain: 2 });
    expect(s.len[0]).toBe(2);
  });
});
