// Chinese ↔ English matching without a model: Chinese text is split into glossary words (longest
// match, 2 characters then 1) and each word is rendered as the stems of its English senses. Used on
// both sides: a tool's Chinese name, description and parameter text gain a `translated` field of
// English stems (so English queries reach Chinese tools), and a Chinese query's words gain English
// stems as derived terms (so Chinese queries reach English tools). Only text with Han characters
// costs anything; the glossary is opened on first need.
import { foldHan } from './han-fold.js';
import { headwords, senses } from './lexicon.js';
import { Kind, tokenize } from './tokenize.js';

const HAN_RUN = /\p{sc=Han}+/gu;
const HAS_HAN = /\p{sc=Han}/u;
/** Senses of a word that count (later ones are rarer meanings). */
const SENSES = 4;

/** Whether `text` has any Han character. */
export const hasHan = (text: string): boolean => HAS_HAN.test(text);

/**
 * A run of Han characters, folded to simplified (han-fold.ts, as the glossary's headwords are), split
 * into glossary words, longest (2 characters) first; unknown characters stay single.
 */
export function segment(run: string): string[] {
  const chars = [...foldHan(run)];
  const out: string[] = [];
  for (let i = 0; i < chars.length;) {
    const two = i + 1 < chars.length ? chars[i]! + chars[i + 1]! : '';
    if (two && senses(two).length) {
      out.push(two);
      i += 2;
    } else out.push(chars[i++]!);
  }
  return out;
}

const glossMemo = new Map<string, string[]>();

/** The English stems of a glossary word's first senses, distinct, in sense order; [] when unknown. */
export function glossStems(word: string): string[] {
  let stems = glossMemo.get(word);
  if (!stems) {
    const set = new Set<string>();
    for (const s of senses(word).slice(0, SENSES))
      for (const t of tokenize(s)) if (t.kind === Kind.Word) set.add(t.term);
    glossMemo.set(word, (stems = [...set]));
  }
  return stems;
}

/**
 * The Chinese words that render the English word `word` (lower case, as written): the glossary
 * headwords that have it as one of their first four senses, the senses that render those headwords
 * in English (file → 卷宗, 文件, 文档, 档案 …; data/cedict-en-zh.tsv). On the code-mixed bench queries
 * the first four beat the first one or two (zh → zh tools: −0.004 against −0.030 / −0.015 below pure
 * Chinese, NDCG@10).
 */
export const zhWords = (word: string): readonly string[] => headwords(word);

/**
 * The English rendering of the Chinese in `text`: stem -> weight, where each glossary word
 * contributes 1/√(its stems) to each of its stems (a word with one clear sense counts fully, a
 * word with many senses spreads over them), times `weight`. Added into `into`.
 */
export function translateZh(text: string, weight = 1, into: Record<string, number> = {}): Record<string, number> {
  for (const m of text.matchAll(HAN_RUN)) {
    for (const word of segment(m[0])) {
      const stems = glossStems(word);
      if (!stems.length) continue;
      const w = weight / Math.sqrt(stems.length);
      for (const s of stems) into[s] = (into[s] ?? 0) + w;
    }
  }
  return into;
}

/**
 * Weight of the `translated` field, as strong as the tool's own description (×1), and query-side
 * weight of a Chinese word's English stems (before 1/√stems; the word itself has 1). The 1/√stems
 * spread already discounts vague words, so no further discount is needed: on the four
 * cross-lingual bench sets ×1 beat ×0.5/×0.7 (field: +0.002 to +0.010 NDCG@10; query: +0.006 to
 * +0.011) and ×0.3 lost up to 0.031; same-language sets do not move (bench/loso.mjs).
 */
export const TRANSLATED_FIELD_WEIGHT = 1;
export const TRANSLATED_QUERY_WEIGHT = 1;
