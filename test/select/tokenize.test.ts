import { describe, expect, it } from 'vitest';
import {
  expressions,
  Kind,
  MATH_TERM,
  splitIdentifiers,
  surfaceWords,
  terms,
  tokenize,
} from '../../src/select/tokenize.js';
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

  it('makes an arithmetic expression one typed term, on both sides, and leaves dates, ranges and ids alone', () => {
    for (const [text, expr] of [
      ['what is 17*23', '17*23'],
      ['work out 17*23', '17*23'],
      ['(3+4)*2^10', '(3+4)*2^10'],
      ["what's 144 / 12 + 7?", '144 / 12 + 7'],
      ['3×(4+5)÷2', '3×(4+5)÷2'],
      ['2^16 - 1', '2^16 - 1'],
      ['帮我算一下 (15+27)/6', '(15+27)/6'],
      ['sqrt(144) + log(100, 10)', '(144) + log(100'],
      // Spelled operators, between spaces or in Chinese.
      ['what is 345 times 12?', '345 times 12'],
      ['100 divided by 7', '100 divided by 7'],
      ['128乘64等于多少', '128乘64'],
      ['10減3', '10減3'],
    ])
      expect(expressions(text.toLowerCase()), text).toEqual([expr]);
    for (const text of [
      '2024-05-01',
      '1/2/2024 + 3',
      'x86-64',
      '17-5',
      'node 18+',
      '15:00 today',
      '15% of 80',
      'take 2 pills 3 times a day',
      '10加仑',
    ])
      expect(expressions(text.toLowerCase()), text).toEqual([]);
    expect(tokenize('work out 17*23', { query: true }).map((t) => t.term)).toEqual([MATH_TERM, 'work']);
    // A spelled operator belongs to the expression, not to the words ("times" would meet time zones).
    expect(tokenize("what's 345 times 12", { query: true }).map((t) => t.term)).toEqual([MATH_TERM]);
    expect(terms('3 times a day')).toEqual(['time', 'dai']);
    expect(terms('e.g. "(3 + 4) * 2^10" or 5 * 6')).toEqual([MATH_TERM, MATH_TERM]);
    // The why column shows the expression the user wrote.
    expect(surfaceWords('what is 17*23').get(MATH_TERM)).toBe('17*23');
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

  it('gives each Chinese/Japanese run its words, the bigrams that are not words, and the characters', () => {
    const kinds = (text: string) => tokenize(text).map((t) => `${t.term}:${t.kind}`);
    // 的天 is a bigram, 天气 a word; single characters only where no one-character word is
    expect(kinds('我的天气')).toEqual(['我的:0', '天气:0', '的天:1', '天:2', '气:2']);
    // 我们 and 的 are stop words, 们的 stays a bigram; a bigram of two stop characters (的了, 和你) is dropped
    expect(kinds('我们的')).toEqual(['们的:1', '们:2']);
    expect(kinds('天的了')).toEqual(['天:0', '天的:1']);
    expect(kinds('书和你')).toEqual(['书:0', '书和:1']);
    expect(kinds('カタカナ天気').slice(0, 4)).toEqual(['カタカナ:0', '天気:0', 'カタ:1', 'カ:2']);
    // runs are segmented in pieces of 400 characters: no bigram across a piece boundary
    const count = (text: string) => tokenize(text).filter((t) => t.term === '天气').length;
    expect(count('天'.repeat(399) + '气')).toBe(1);
    expect(count('天'.repeat(400) + '气')).toBe(0);
  });

  it('reads % as "percent", keeps words with digits, joins dotted acronyms, folds full-width letters', () => {
    expect(terms('15% discount')).toEqual(['percent', 'discount']);
    expect(terms('a1 b22 2024 x')).toEqual(['a1', 'b22', 'x']);
    // Only a word of digits alone is a number: one that starts or ends with digits is a word.
    expect(terms('3d 5g 3d4 2fa 7 42 x7')).toEqual(['3d', '5g', '3d4', '2fa', 'x7']);
    expect(terms('e.g. U.S.A. and i.e.')).toEqual(['usa']);
    expect(terms('ＡＢＣ')).toEqual(['abc']);
    expect(terms('getHTTPResponse')).toEqual(['get', 'http', 'respons']);
    expect(splitIdentifiers('ab2Cd ABCdef')).toBe('ab2 Cd AB Cdef');
    expect(tokenize('')).toEqual([]);
  });

  it('maps each English term to the first word it came from, for messages', () => {
    expect([...surfaceWords('Titles and TITLE titled 北京 getWeather')]).toEqual([
      ['titl', 'titles'],
      ['and', 'and'],
      ['get', 'get'],
      ['weather', 'weather'],
    ]);
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
