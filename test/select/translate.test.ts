// Chinese ↔ English matching from the shipped CC-CEDICT glossary (data/cedict-zh-en.tsv).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEXICON_FILE, senses } from '../../src/select/lexicon.js';
import { glossStems, segment, translateZh } from '../../src/select/translate.js';

describe('the glossary', () => {
  it('is sorted by UTF-8 bytes with one 1–2 character headword per line, so binary search finds every line', () => {
    const lines = readFileSync(LEXICON_FILE, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(50_000);
    let prev = Buffer.alloc(0);
    const bad: string[] = [];
    for (const [i, line] of lines.entries()) {
      const [head, rest] = line.split('\t') as [string, string];
      const b = Buffer.from(head);
      if (![1, 2].includes([...head].length) || Buffer.compare(prev, b) !== -1) bad.push(`${i + 1}: ${line}`);
      prev = b;
      // Every 97th line is looked up through the binary search.
      if (i % 97 === 0 && senses(head).join('|') !== rest) bad.push(`lookup ${i + 1}: ${line}`);
    }
    expect(bad).toEqual([]);
  });

  it('finds the first and the last headword, and nothing before or after them', () => {
    const lines = readFileSync(LEXICON_FILE, 'utf8').trimEnd().split('\n');
    for (const line of [lines[0]!, lines[1]!, lines.at(-2)!, lines.at(-1)!]) {
      const [head, rest] = line.split('\t') as [string, string];
      expect(senses(head).join('|'), head).toBe(rest);
    }
    expect(senses('\u0001')).toEqual([]); // sorts before every headword
    expect(senses('\u{10FFFF}')).toEqual([]); // after every headword
  });

  it('looks up common words, and nothing for unknown ones', () => {
    expect(senses('天气')).toEqual(['weather']);
    expect(senses('明天')).toEqual(['tomorrow']);
    expect(senses('下雨')).toEqual(['rain']);
    expect(senses('北京')[0]).toBe('beijing municipality');
    expect(senses('汇率')).toEqual(['exchange rate']);
    expect(senses('zz')).toEqual([]);
    expect(senses('')).toEqual([]);
  });

  it('answers a repeated word from memory: the same array, not a second search', () => {
    const first = senses('气温');
    expect(first).toEqual(['air temperature']);
    expect(senses('气温')).toBe(first);
    expect(senses('丂丂')).toBe(senses('丂丂'));
  });

  it('drops surnames, classifiers and particles', () => {
    expect(senses('张').join('|')).not.toMatch(/surname|classifier/);
    expect(senses('的').join('|')).not.toMatch(/particle/);
  });
});

describe('translation', () => {
  it('splits Chinese by longest match and renders it as English stems', () => {
    expect(segment('北京明天下雨')).toEqual(['北京', '明天', '下雨']);
    expect(glossStems('气温')).toEqual(['air', 'temperatur']);
    const t = translateZh('查询北京天气');
    expect(t.weather).toBe(1); // one sense, one stem: counts fully
    expect(t.beij).toBeCloseTo(1 / Math.sqrt(2)); // beijing municipality
    expect(translateZh('no chinese here')).toEqual({});
  });

  it('takes the stems of a word’s first four senses, and sums each word’s share times the weight', () => {
    // 开: open | start | turn on | put in operation | operate | run …: "operate" and "run" are rarer senses
    expect(glossStems('开')).toEqual(['open', 'start', 'turn', 'put', 'oper']);
    expect(glossStems('我们')).toEqual(['us']); // we, ourselves, our: stop words
    expect(glossStems('zz')).toEqual([]);
    expect(translateZh('天气天气', 0.5)).toEqual({ weather: 1 });
    expect(translateZh('天气', 1, { weather: 1 })).toEqual({ weather: 2 });
    expect(translateZh('丂')).toEqual({}); // not in the glossary
  });

  it('segments by characters, not UTF-16 units, and never reads past the end', () => {
    expect(segment('𠀀天气')).toEqual(['𠀀', '天气']);
    expect(segment('天')).toEqual(['天']);
    expect(segment('气温天')).toEqual(['气温', '天']);
    expect(segment('')).toEqual([]);
  });
});

describe('translation in ranking', () => {
  it('adds English stems of Chinese query words as derived terms that stand in for the word', async () => {
    const { parseQuery } = await import('../../src/select/query.js');
    const q = parseQuery('天气');
    expect(q.get('weather')).toBe(1); // one stem: 1 / √1, derived weight 1
    expect(q.source.get('weather')).toBe('天气');
    expect(parseQuery('天气', 1, undefined, 0).has('weather')).toBe(false);
  });

  it('matches Chinese queries to English tools and English queries to Chinese tools', async () => {
    const { docStats } = await import('../../src/select/model.js');
    const { buildIndex } = await import('../../src/select/lex-build.js');
    const { parseQuery, scoreAll } = await import('../../src/select/query.js');
    const tool = (id: string, description: string) =>
      ({ id, name: id, description, schema: {}, loader: 'command', loader_config: { argv: ['true'] } }) as Parameters<
        typeof docStats
      >[0];
    const tools = [
      tool('rain_gauge', 'Reports rain in a city'),
      tool('qi_wen', '查询城市气温'),
      tool('other', 'Send mail'),
    ];
    const ix = buildIndex(tools.map(docStats));
    const s1 = scoreAll(ix, parseQuery('明天会下雨吗'));
    expect(s1[0]).toBeGreaterThan(0);
    expect(s1[2]).toBe(0);
    const s2 = scoreAll(ix, parseQuery('air temperature'));
    expect(s2[1]).toBeGreaterThan(0);
    expect([s2[0], s2[2]]).toEqual([0, 0]);
  });
});
