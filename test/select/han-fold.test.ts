// Traditional and simplified Chinese as one language: the CC-CEDICT character table (data/cedict-t2s.tsv)
// and where the selector applies it (analysis, glossary segmentation, follow-up markers, why).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FOLD_FILE, foldHan, openFold } from '../../src/select/han-fold.js';
import { senses } from '../../src/select/lexicon.js';
import { glossStems, segment, translateZh } from '../../src/select/translate.js';
import { surfaceWords, terms, tokenize } from '../../src/select/tokenize.js';
import { isFollowUp } from '../../src/select/context.js';
import { parseQuery } from '../../src/select/query.js';
import { tempProject } from '../helpers.js';

describe('the traditional → simplified table', () => {
  it('has one UTF-16 unit on each side, no character mapped to itself, sorted by code point', () => {
    const lines = readFileSync(FOLD_FILE, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(3000);
    const bad = lines.filter((l, i) => {
      const ok =
        l.length === 3 && l[1] === '\t' && l[0] !== l[2] && /\p{sc=Han}/u.test(l[0]!) && /\p{sc=Han}/u.test(l[2]!);
      return !ok || (i > 0 && lines[i - 1]!.charCodeAt(0) >= l.charCodeAt(0));
    });
    expect(bad).toEqual([]);
  });

  it('folds traditional and Hong Kong/Taiwan characters, keeping every position', () => {
    expect(foldHan('查詢臺北明天的天氣')).toBe('查询台北明天的天气');
    expect(foldHan('幫我把這個檔案上傳到雲端')).toBe('帮我把这个档案上传到云端');
    expect(foldHan('發送電郵給經理')).toBe('发送电邮给经理');
    const t = '請問香港今日會唔會落雨？abc 123';
    expect(foldHan(t).length).toBe(t.length);
  });

  it('leaves simplified Chinese, other scripts and text without Han as they are (the same string)', () => {
    const plain = 'send an email';
    expect(foldHan(plain)).toBe(plain);
    expect(foldHan('查询北京今天天气，宁波的安宁，什么')).toBe('查询北京今天天气，宁波的安宁，什么');
  });

  it('folds a character that is both a traditional form and a simplified character the same way on both sides', () => {
    // 著 is the traditional form of 着 and a simplified character (著名): both scripts fold alike,
    // and the glossary keeps its headwords folded, so the word is still found.
    expect(segment('著名')).toEqual(['着名']);
    expect(senses('着名')).toContain('famous');
    expect(glossStems(segment('著名')[0]!)).toContain('famou');
    // Ordinary simplified characters that a few rare entries list as traditional forms stay.
    expect(foldHan('宁波的安宁，什么')).toBe('宁波的安宁，什么');
  });
});

describe('a table file given by path (openFold)', () => {
  let dir: ReturnType<typeof tempProject>;
  beforeEach(() => (dir = tempProject()));
  afterEach(() => dir.cleanup());

  it('folds nothing when the file is missing, and skips malformed lines', () => {
    expect(openFold(join(dir.dir, 'missing.tsv'))('查詢')).toBe('查詢');
    const fold = openFold(dir.write('t.tsv', '詢\t询\nbad line\n查詢\t查询\n\n氣\t气'));
    expect(fold('查詢天氣')).toBe('查询天气'); // the last line needs no final newline
  });

  it('reads the file on the first text with Han characters, not before', () => {
    const path = join(dir.dir, 'lazy.tsv');
    const fold = openFold(path);
    expect(fold('no han here')).toBe('no han here');
    dir.write('lazy.tsv', '詢\t询\n');
    expect(fold('查詢')).toBe('查询');
  });
});

describe('analysis folds both scripts to one', () => {
  const pairs = [
    ['查詢臺北明天的天氣', '查询台北明天的天气'],
    ['幫我發一封郵件給經理', '帮我发一封邮件给经理'],
    ['把這個文檔翻譯成英文', '把这个文档翻译成英文'],
    ['計算兩個日期之間相差幾天', '计算两个日期之间相差几天'],
  ];

  it('gives the same terms, glossary words and translations for the same text in either script', () => {
    for (const [trad, simp] of pairs) {
      expect(terms(trad!)).toEqual(terms(simp!));
      expect(tokenize(trad!, { query: true })).toEqual(tokenize(simp!, { query: true }));
      expect(segment(trad!)).toEqual(segment(simp!));
      expect(translateZh(trad!)).toEqual(translateZh(simp!));
      expect([...parseQuery(trad!)]).toEqual([...parseQuery(simp!)]);
    }
  });

  it('drops traditional particles and pronouns as the simplified stop words', () => {
    expect(tokenize('這個嗎', { query: true }).filter((t) => t.kind === 0)).toEqual([]);
  });

  it('reads traditional follow-up markers', () => {
    expect(isFollowUp('那麼上海呢')).toBe(true);
    expect(isFollowUp('還有廣州')).toBe(true);
  });

  it("maps each folded term back to the user's own characters for why", () => {
    const words = surfaceWords('查詢臺北天氣 forecasts');
    expect(words.get('查询')).toBe('查詢');
    expect(words.get('天气')).toBe('天氣');
    expect(words.get('台北')).toBe('臺北');
    expect(words.get('气')).toBe('氣');
    expect(words.get('forecast')).toBe('forecasts');
    // Simplified text needs no mapping: its terms are its own words.
    expect(surfaceWords('查询天气').size).toBe(0);
  });
});
