// Chinese ↔ English matching from the shipped CC-CEDICT glossary (data/cedict-zh-en.tsv).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEXICON_FILE, openLexicon, senses } from '../../src/select/lexicon.js';
import { glossStems, segment, translateZh } from '../../src/select/translate.js';
import { tempProject } from '../helpers.js';

describe('the glossary', () => {
  it('is sorted by UTF-8 bytes with one 1–4 character headword per line, so binary search finds every line', () => {
    const lines = readFileSync(LEXICON_FILE, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(90_000);
    let prev = Buffer.alloc(0);
    const bad: string[] = [];
    for (const [i, line] of lines.entries()) {
      const [head, rest] = line.split('\t') as [string, string];
      const b = Buffer.from(head);
      if (![1, 2, 3, 4].includes([...head].length) || Buffer.compare(prev, b) !== -1) bad.push(`${i + 1}: ${line}`);
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
    expect(senses('下雨')).toEqual(['to rain']); // a verb sense: "to" kept (translate.ts reads it)
    expect(senses('天气预报')).toEqual(['weather forecast']);
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

describe('a glossary file given by path (openLexicon)', () => {
  let dir: ReturnType<typeof tempProject>;
  beforeEach(() => (dir = tempProject()));
  afterEach(() => dir.cleanup());
  const lex = (name: string, text: string) => openLexicon(dir.write(name, text));

  it('finds every headword of 1 to 9 lines, the first and the last, and nothing before, between or after them', () => {
    const heads = ['b', 'd', 'f', 'h', 'j', 'l', 'n', 'p', 'r'];
    for (let n = 1; n <= heads.length; n++) {
      const own = heads.slice(0, n);
      const look = lex(`g${n}.tsv`, own.map((h) => `${h}\t${h.toUpperCase()}|${h}${h}\n`).join(''));
      for (const h of own) expect(look(h), `${n} lines: ${h}`).toEqual([h.toUpperCase(), h + h]);
      // 'a' sorts before the first headword, 'z' after the last; 'c', 'e', … fall between two lines.
      for (const k of ['a', 'c', 'e', 'g', 'i', 'k', 'm', 'o', 'q', 'z', 'bb', 'b\t', '']) {
        expect(look(k), `${n} lines: '${k}'`).toEqual([]);
      }
    }
  });

  it('compares UTF-8 bytes: Chinese headwords of 1 and 2 characters, senses split at |', () => {
    // Sorted by bytes: 下 E4 B8 8B, 下雨 E4 B8 8B E9 9B A8, 天 E5 A4 A9, 天气 E5 A4 A9 E6 B0 94, 明天 E6 98 8E …
    const look = lex('zh.tsv', '下\tdown|below\n下雨\train\n天\tday|sky\n天气\tweather\n明天\ttomorrow\n');
    expect(look('下')).toEqual(['down', 'below']);
    expect(look('下雨')).toEqual(['rain']);
    expect(look('天')).toEqual(['day', 'sky']);
    expect(look('天气')).toEqual(['weather']);
    expect(look('明天')).toEqual(['tomorrow']);
    expect(look('气')).toEqual([]);
    expect(look('天天')).toEqual([]);
  });

  it('translates nothing when the file is missing, and looks for it only once', () => {
    const path = join(dir.dir, 'later.tsv');
    const look = openLexicon(path);
    expect(look('a')).toEqual([]);
    dir.write('later.tsv', 'a\tA\nb\tB\n');
    expect(look('b')).toEqual([]); // still the missing file it found first
    expect(openLexicon(path)('b')).toEqual(['B']);
  });

  it('reads the file on the first lookup, not before, and only once', () => {
    const path = join(dir.dir, 'lazy.tsv');
    const look = openLexicon(path);
    dir.write('lazy.tsv', 'a\tA\nb\tB\nc\tC\n');
    expect(look('a')).toEqual(['A']);
    dir.write('lazy.tsv', 'a\tX\nb\tY\nc\tZ\n');
    expect(look('c')).toEqual(['C']); // the bytes of the first read
    const b = look('b');
    expect(b).toEqual(['B']);
    expect(look('b')).toBe(b); // remembered
  });

  it('ignores a last line without a tab or without its final newline, and finds the lines before it', () => {
    const noTab = lex('no-tab.tsv', 'a\tA\nb\tB\nzz\n');
    expect(noTab('zz')).toEqual([]);
    expect(noTab('a')).toEqual(['A']);
    expect(noTab('b')).toEqual(['B']);
    const noLf = lex('no-lf.tsv', 'a\tA\nb\tB\nc\tC');
    expect(noLf('c')).toEqual([]);
    expect(noLf('a')).toEqual(['A']);
    expect(noLf('b')).toEqual(['B']);
  });

  it('never matches across a line end: each probe starts at the start of a line', () => {
    // After line 'b' the search resumes after its line feed; starting 2 bytes earlier would read 'c\nd' as a headword.
    const look = lex('lf.tsv', 'b\tbc\nd\tD\n');
    expect(look('c\nd')).toEqual([]);
    expect(look('d')).toEqual(['D']);
  });

  it('reads a line that starts with a tab as an empty headword, and goes on past it', () => {
    // The first probe (byte 8 of 16) lands in the first line, whose tab is at byte 0.
    const look = lex('tab-first.tsv', '\tempty head\nb\tB\n');
    expect(look('b')).toEqual(['B']);
    expect(look('')).toEqual(['empty head']);
    expect(look('a')).toEqual([]);
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

describe('English words in a Chinese query (code-mixing)', () => {
  it('has a sorted reverse glossary of one-word English senses', async () => {
    const { BACK_FILE, headwords } = await import('../../src/select/lexicon.js');
    const lines = readFileSync(BACK_FILE, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(10_000);
    const bad = lines.filter((l, i) => {
      const [w, heads] = l.split('\t') as [string, string];
      const sorted = i === 0 || Buffer.compare(Buffer.from(lines[i - 1]!.split('\t')[0]!), Buffer.from(w)) === -1;
      return !/^[a-z]+$/.test(w) || !sorted || !heads.split('|').every((h) => /^\p{sc=Han}{1,2}$/u.test(h));
    });
    expect(bad).toEqual([]);
    expect(headwords('upload')).toEqual(['上传', '上载']);
    expect(headwords('file')).toContain('文件');
    expect(headwords('zzzz')).toEqual([]);
  });

  it("renders an English word of a Chinese query in Chinese, standing in for it; English queries don't", async () => {
    const { parseQuery } = await import('../../src/select/query.js');
    const q = parseQuery('帮我把这个 file 上传到 cloud');
    expect(q.source.get('文件')).toBe('file');
    expect(q.source.get('云')).toBe('cloud');
    expect(q.get('文件')).toBe(1);
    expect(parseQuery('upload this file to the cloud').has('文件')).toBe(false);
    expect(parseQuery('帮我把这个 file 上传到 cloud', 1, undefined, 0).has('文件')).toBe(false);
  });

  it('finds a Chinese tool for a code-mixed query as for the pure Chinese one', async () => {
    const { docStats } = await import('../../src/select/model.js');
    const { buildIndex } = await import('../../src/select/lex-build.js');
    const { parseQuery, scoreAll } = await import('../../src/select/query.js');
    const tool = (id: string, description: string) =>
      ({ id, name: id, description, schema: {}, loader: 'command', loader_config: { argv: ['true'] } }) as Parameters<
        typeof docStats
      >[0];
    const tools = [
      tool('t1', '把本地文件上传到云端存储'),
      tool('t2', '发送电子邮件给联系人'),
      tool('t3', '查询城市天气'),
    ];
    const ix = buildIndex(tools.map(docStats));
    const best = (q: string) => {
      const s = scoreAll(ix, parseQuery(q));
      return [...s.keys()].sort((a, b) => s[b]! - s[a]!)[0];
    };
    expect(best('帮我把这个文件上传到云端')).toBe(0);
    expect(best('帮我把这个 file 上传到 cloud')).toBe(0);
    expect(best('给同事发一封 email')).toBe(1);
  });
});
