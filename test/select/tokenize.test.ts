import { describe, expect, it } from 'vitest';
import { Kind, splitIdentifiers, terms, tokenize } from '../../src/select/tokenize.js';
import { stem } from '../../src/select/stem.js';

describe('tokenize', () => {
  it('splits snake_case, camelCase, kebab-case, dotted ids and acronyms', () => {
    expect(terms('getWeatherByCity')).toEqual(['get', 'weather', 'citi']);
    expect(terms('query_weather search-flights stock.price')).toEqual([
      'queri',
      'weather',
      'search',
      'flight',
      'stock',
      'price',
    ]);
    expect(splitIdentifiers('HTTPServerError')).toBe('HTTP Server Error');
    expect(terms('the U.S. president')).toEqual(['us', 'presid']);
  });

  it('folds case, drops stop words and numbers, stems plurals and suffixes', () => {
    expect(terms('The Forecasts for the Cities')).toEqual(['forecast', 'citi']);
    expect(terms('sending emails')).toEqual(terms('send email'));
    expect(terms('top 10 results in 2024')).toEqual(['top', 'result']);
  });

  it('drops request fillers only from queries', () => {
    expect(tokenize('please help me find flights', { query: true }).map((t) => t.term)).toEqual(['find', 'flight']);
    expect(terms('please help me find flights')).toEqual(['pleas', 'help', 'find', 'flight']);
  });

  it('indexes Chinese as words, bigrams and characters without particles', () => {
    const toks = tokenize('查询北京今天天气');
    const words = toks.filter((t) => t.kind === Kind.Word).map((t) => t.term);
    expect(words).toEqual(['查询', '北京', '今天', '天气']);
    const bigrams = toks.filter((t) => t.kind === Kind.Bigram).map((t) => t.term);
    expect(bigrams).toContain('询北');
    expect(bigrams).not.toContain('北京'); // already a word at that position
    expect(toks.filter((t) => t.kind === Kind.Char).map((t) => t.term)).toContain('天');
    expect(terms('北京明天会下雨吗')).not.toContain('吗');
    expect(terms('北京明天会下雨吗')).toContain('下雨');
  });

  it('handles mixed Chinese and English text and full-width characters', () => {
    const t = terms('用Python读取ＣＳＶ文件');
    expect(t).toEqual(expect.arrayContaining(['python', 'csv', '读取', '文件']));
  });

  it('stays linear on long unpunctuated Chinese text', () => {
    const long = '北京天气查询服务'.repeat(5000); // 40k characters, no punctuation
    const toks = tokenize(long);
    expect(toks.length).toBeGreaterThan(40_000);
  });

  it('stems like Porter', () => {
    const cases: [string, string][] = [
      ['caresses', 'caress'],
      ['ponies', 'poni'],
      ['agreed', 'agre'],
      ['hopping', 'hop'],
      ['relational', 'relat'],
      ['generalization', 'gener'],
      ['forecasting', 'forecast'],
      ['weather', 'weather'],
    ];
    for (const [w, s] of cases) expect(stem(w), w).toBe(s);
  });
});
