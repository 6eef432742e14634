// Chinese ↔ English matching without a model: Chinese text is split into glossary words (the fewest,
// of up to 4 characters: 短视频 is one word, not 短视 + 频) and each word is rendered as the stems
// of its English senses. Used on both sides: a tool's Chinese name, description and parameter text
// gain a `translated` field of English stems (so English queries reach Chinese tools), and a Chinese
// query's words gain English stems as derived terms (so Chinese queries reach English tools). Only
// text with Han characters costs anything; the glossary is opened on first need.
//
// Senses (issue 35 item 4): a word renders as the stems of its first four senses (CC-CEDICT lists a
// reading's common senses first; SENSE_DECAY weighs later ones, 1 as measured), and a word in verb
// position (the first word of a run of Chinese text, after request words such as 请, 帮我, 我想) takes
// its verb senses ("to …" in the glossary) first: 关窗户 is close/shut, not "mountain pass".
// Particles and degree words say nothing about a task: a single-character particle (的, 了, 地 …) is
// never glossed, and a degree word (好, 很, 太, 真, 好好, 非常 …) is not glossed when it modifies
// what follows it in the same run (好好笑: only 笑).
import { foldHan } from './han-fold.js';
import { headwords, senses } from './lexicon.js';
import { Kind, tokenize } from './tokenize.js';

const HAN_RUN = /\p{sc=Han}+/gu;
const HAS_HAN = /\p{sc=Han}/u;
/** Senses of a word that count (later ones are rarer meanings). */
const SENSES = 4;
/** The longest glossary headword, in characters (scripts/build-cedict.mjs MAX_CHARS). */
export const MAX_WORD = 4;
/**
 * Weight of a word's k-th sense relative to its first: SENSE_DECAY^k. Chosen leave-one-set-out over
 * ../shared/bench among 1, 0.85, 0.7 and 0.5: 1 (the first four senses alike) in six of eight folds;
 * 0.85 ties, and 0.7 and 0.5 lose 0.01–0.04 NDCG@10 on the opaque cross-lingual sets, whose queries
 * need the later synonyms (docs/select.md, "Glossary senses"). The order still counts: only the
 * first four senses are read, and a verb's verb senses come first.
 */
export const SENSE_DECAY = 1;

/**
 * Particles: single characters that mark grammar, not content (的 's/taxi/cab, 地 -ly/earth, 了
 * finish): never glossed alone. Only particles: the pronouns, conjunctions and coverbs among the stop
 * characters (我, 和, 把, 还 …) keep their glosses: dropping them too lost 0.003–0.007 NDCG@10 on the en→zh sets
 * (against these particles alone).
 */
const PARTICLES = new Set([...'的了吗呢吧啊呀嘛么着啦哦嗯喔地得']);
/** Degree words: not glossed when something follows them in the same run (好好笑, 很好用, 非常快). */
const DEGREE = new Set(
  '好 很 太 真 挺 蛮 超 最 更 极 颇 较 稍 怪 好好 非常 特别 十分 有点 有些 比较 相当 极其 超级 格外 尤其 真是 太过'.split(
    ' ',
  ),
);
/** Request words that may come before a verb at the start of a run (请帮我查…, 我想看…). */
const LEAD = new Set(
  '请 帮 帮我 给 给我 替 我 你 您 我们 想 要 我要 我想 想要 需要 能 能否 可以 麻烦 请帮我 请问 帮忙 去 来'.split(' '),
);

/** Whether `text` has any Han character. */
export const hasHan = (text: string): boolean => HAS_HAN.test(text);

/**
 * A run of Han characters, folded to simplified (han-fold.ts, as the glossary's headwords are), split
 * into the fewest glossary words (up to MAX_WORD characters each; of equal splits, the one whose
 * earlier words are longer): 发电子邮件 is 发 + 电子邮件, not 发电 "generate electricity" + 子 + 邮件,
 * which a greedy longest match would give. Unknown characters stay single.
 */
export function segment(run: string): string[] {
  const chars = [...foldHan(run)];
  const n = chars.length;
  // words[i]: fewest words for chars[i..]; step[i]: length of the first of them.
  const words = new Int32Array(n + 1);
  const step = new Int8Array(n + 1);
  for (let i = n - 1; i >= 0; i--) {
    let best = n + 1;
    for (let k = Math.min(MAX_WORD, n - i); k >= 1; k--) {
      if (words[i + k]! + 1 < best && (k === 1 || senses(chars.slice(i, i + k).join('')).length)) {
        best = words[i + k]! + 1;
        step[i] = k;
      }
    }
    words[i] = best;
  }
  const out: string[] = [];
  for (let i = 0; i < n; i += step[i]!) out.push(chars.slice(i, i + step[i]!).join(''));
  return out;
}

/** A glossary word of a run, and whether it stands in verb position. */
export interface RunWord {
  word: string;
  verb: boolean;
}

/**
 * The words of a run (segment) that are glossed, in order: particles and degree words in context
 * left out, each marked whether it is in verb position (the first word after any request words).
 */
export function glossedWords(run: string): RunWord[] {
  const words = segment(run);
  const out: RunWord[] = [];
  let lead = true;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const atLead = lead;
    if (lead && !LEAD.has(word)) lead = false;
    if (word.length === 1 && PARTICLES.has(word)) continue;
    if (DEGREE.has(word) && i + 1 < words.length) continue;
    out.push({ word, verb: atLead && !LEAD.has(word) });
  }
  return out;
}

/** Stem -> weight of a glossary word: the weights of its stems, normalised (see glossWeights). */
export type StemWeights = readonly (readonly [string, number])[];
const glossMemo = new Map<string, StemWeights>();
const isVerbSense = (s: string) => s.startsWith('to ');

/**
 * The English stems of a glossary word's first four senses with their weights: the k-th sense weighs
 * SENSE_DECAY^k (a stem of several senses keeps its best), in verb position the verb senses go
 * first; the weights d are then divided by √(Σ d), so a word with one clear sense counts fully and
 * a word of many senses spreads over them (with SENSE_DECAY 1, each of n stems 1/√n). [] when unknown.
 */
export function glossWeights(word: string, verb = false): StemWeights {
  const key = verb ? `${word}\u0001` : word;
  let out = glossMemo.get(key);
  if (!out) {
    let list = senses(word);
    if (verb && list.some(isVerbSense)) list = [...list.filter(isVerbSense), ...list.filter((s) => !isVerbSense(s))];
    const best = new Map<string, number>();
    list.slice(0, SENSES).forEach((s, k) => {
      const d = SENSE_DECAY ** k;
      for (const t of tokenize(s)) if (t.kind === Kind.Word && !best.has(t.term)) best.set(t.term, d);
    });
    let sum = 0;
    for (const d of best.values()) sum += d;
    const norm = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    glossMemo.set(key, (out = [...best].map(([t, d]) => [t, d * norm] as const)));
  }
  return out;
}

/** The English stems of a glossary word's first senses, distinct, in sense order; [] when unknown. */
export const glossStems = (word: string, verb = false): string[] => glossWeights(word, verb).map(([t]) => t);

/**
 * The Chinese words that render the English word `word` (lower case, as written): the glossary
 * headwords that have it as one of their first four senses, the senses that render those headwords
 * in English (file → 卷宗, 文件, 文档, 档案 …; data/cedict-en-zh.tsv). On the code-mixed bench queries
 * the first four beat the first one or two (zh → zh tools: −0.004 against −0.030 / −0.015 below pure
 * Chinese, NDCG@10).
 */
export const zhWords = (word: string): readonly string[] => headwords(word);

/**
 * The English rendering of the Chinese in `text`: stem -> weight, each glossed word (glossedWords)
 * adding its stem weights (glossWeights) times `weight`. Added into `into`.
 */
export function translateZh(text: string, weight = 1, into: Record<string, number> = {}): Record<string, number> {
  for (const m of text.matchAll(HAN_RUN)) {
    for (const { word, verb } of glossedWords(m[0])) {
      for (const [s, w] of glossWeights(word, verb)) into[s] = (into[s] ?? 0) + weight * w;
    }
  }
  return into;
}

/**
 * Weight of the `translated` field, as strong as the tool's own description (×1), and query-side
 * weight of a Chinese word's English stems (before the spread over stems; the word itself has 1).
 * The spread already discounts vague words, so no further discount is needed: on the four
 * cross-lingual bench sets ×1 beat ×0.5/×0.7 (field: +0.002 to +0.010 NDCG@10; query: +0.006 to
 * +0.011) and ×0.3 lost up to 0.031; same-language sets do not move (bench/loso.mjs).
 */
export const TRANSLATED_FIELD_WEIGHT = 1;
export const TRANSLATED_QUERY_WEIGHT = 1;
