import { foldHan } from './han-fold.js';
import { stem } from './stem.js';
import { isSocial, QUERY_STOP, QUERY_STOP_ZH, SOCIAL_ZH, STOP, STOP_CHARS } from './stopwords.js';

/**
 * How a term was produced. Chinese text has no spaces, so it is indexed three ways: the words
 * Intl.Segmenter finds, every character bigram (robust when the segmenter splits a query and a
 * description differently) and single characters (降雨 / 下雨 still share 雨).
 */
export const enum Kind {
  Word = 0,
  Bigram = 1,
  Char = 2,
}

/** One term of analysed text. */
export interface Token {
  term: string;
  kind: Kind;
}

export const CJK_RUN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+/u;
export const SCAN =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}])+/gu;
export const DIGITS = /^\d+$/;
const ACRONYM = /\b(?:\p{L}\.){2,}/gu;
// An arithmetic expression: numbers joined by operators, with parentheses and function calls
// ("17*23", "(3+4)*2^10", "144 / 12 + 7", "3×(4+5)÷2", "sqrt(144) + log(100, 10)"). A minus counts
// only with a space after it ("17 - 5"): unspaced it is as often a range or an identifier (5-10,
// x86-64). Operators may be spelled, between spaces ("345 times 12", "7 plus 8", "100 divided by
// 7") or in Chinese ("128乘64", "3加5", "100除以7"). Dates are taken out first (2024-05-01, 1/2/2024).
// Powers are spelled too (issue 35): "2 to the power of 20", "3 raised to 4", "2的10次方".
const SPELLED_OPS =
  '(?<=\\s)(?:times|plus|minus|(?:divided|multiplied) by|to the power of|raised to(?: the power of)?)(?=\\s)';
const OPERATOR = `\\*\\*|[+*/×÷^]|-(?=\\s)|${SPELLED_OPS}|乘以|乘|加上|加|減去|减去|減|减|除以|的(?=\\s*\\d[\\d.,]*\\s*次[方幂冪])`;
const EXPR = new RegExp(
  `(?:\\(\\s*)*\\d[\\d.,]*\\)*(?:\\s*(?:${OPERATOR})\\s*(?:\\p{L}+\\()?\\(*\\s*\\d[\\d.,]*\\)*)+`,
  'gu',
);
const MAY_MATH = /[\d)]\s*(?:[+*/×÷^]|-\s|times\s|plus\s|minus\s|divided\s|multiplied\s|to\s|raised\s|[乘加減减除的])/;
const DATE = /\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}/g;

/**
 * The term an arithmetic expression stands for, on both sides: numbers are not terms, but a query
 * that is (or holds) an expression ("what is 17*23", "work out 17*23") asks for whatever tool shows
 * expressions in its contract (a calculator's examples and parameter description), and names a task.
 * Not a word anyone types: `#` never survives the scan.
 */
export const MATH_TERM = '#math';

/** The arithmetic expressions of lower-cased, normalised text (trimmed), in order. */
export function expressions(norm: string): string[] {
  if (!MAY_MATH.test(norm)) return [];
  return [...norm.replace(DATE, ' ').matchAll(EXPR)].map((m) => m[0].replace(/[\s.,]+$/, ''));
}

const SPELLED = new RegExp(`${SPELLED_OPS}|乘以|乘|加上|加|減去|减去|減|减|除以|的`, 'g');

/**
 * `norm` with the spelled operators of its expressions `exprs` blanked: in "345 times 12" and
 * "128乘64" the operator is part of the #math term, not a word ("times" would meet time zones).
 */
export function blankOperators(norm: string, exprs: readonly string[]): string {
  for (const e of exprs) {
    const b = e.replace(SPELLED, ' ');
    if (b !== e) norm = norm.replace(e, b);
  }
  return norm;
}

// The segmenter is superlinear on long input: feed it bounded pieces (runs are already cut at
// punctuation; this only guards against pathological unpunctuated text).
const MAX_SEGMENT = 400;

let segmenter: Intl.Segmenter | undefined;
const seg = () => (segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' }));

/**
 * Split identifiers so that their words are searchable: camelCase → camel Case, HTTPServer →
 * HTTP Server; snake_case, kebab-case and dotted.names split on their punctuation in `tokenize`.
 */
export function splitIdentifiers(text: string): string {
  return text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2');
}

// Particles a segmenter glues to a word: the stop characters and the structural 得 (聊得很开心).
const particle = (c: string) => STOP_CHARS.has(c) || c === '得';

/** A word with the particles at its ends (呀, 啦, 吗 …) taken off: 好呀 → 好, 你在 → 在, 得很 → ''. */
export function core(word: string): string {
  let a = 0;
  let b = word.length;
  while (a < b && particle(word[a]!)) a++;
  while (b > a && particle(word[b - 1]!)) b--;
  return word.slice(a, b);
}

/** Whether a query's segmented word is small talk or a filler, also with particles glued on (好呀, 谢谢啦). */
const noTask = (word: string): boolean => QUERY_STOP_ZH.has(word) || QUERY_STOP_ZH.has(core(word));
/** Whether it is small talk proper (谢谢, 你好), which makes a query conversation; fillers (知道, 麻烦) do not. */
const chatty = (word: string): boolean => SOCIAL_ZH.has(word) || SOCIAL_ZH.has(core(word));

/**
 * Whether a segmented word is a stop word with particles glued on (你在, 了吗): the ranking keeps it
 * as the document side does, but it names no task.
 */
export const glued = (word: string): boolean => {
  const c = core(word);
  return c !== word && (c === '' || STOP.has(c));
};

/**
 * A run of CJK text as words, bigrams and characters. In a `query`, small-talk words (你好, 谢谢,
 * 辛苦 …) are dropped with every bigram and character they touch, so that 谢谢你辛苦了 leaves nothing.
 */
export function cjk(text: string, emit: Emit, query = false, onSmallTalk?: () => void): void {
  const run = foldHan(text);
  for (let start = 0; start < run.length; start += MAX_SEGMENT) {
    const piece = run.slice(start, start + MAX_SEGMENT);
    const wordAt = new Map<number, string>();
    let social: Uint8Array | undefined;
    for (const s of seg().segment(piece)) {
      if (s.isWordLike === false) continue;
      wordAt.set(s.index, s.segment);
      if (query && noTask(s.segment)) {
        (social ??= new Uint8Array(piece.length + 1)).fill(1, s.index, s.index + s.segment.length);
        if (chatty(s.segment)) onSmallTalk?.();
        continue;
      }
      if (!STOP.has(s.segment)) emit(s.segment, Kind.Word);
    }
    const chars = [...piece];
    let idx = 0;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      const next = chars[i + 1];
      const off = social?.[idx] === 1;
      if (
        next !== undefined &&
        !off &&
        social?.[idx + c.length] !== 1 &&
        !(STOP_CHARS.has(c) && STOP_CHARS.has(next))
      ) {
        const bi = c + next;
        if (wordAt.get(idx) !== bi) emit(bi, Kind.Bigram);
      }
      if (!off && !STOP_CHARS.has(c) && wordAt.get(idx) !== c) emit(c, Kind.Char);
      idx += c.length;
    }
  }
}

/** Receives each term of analysed text, in order. */
export type Emit = (term: string, kind: Kind) => void;

// Cheap pre-checks that let most text skip a regex replace: identifier splitting needs a lowercase
// letter or digit before an uppercase one, or two uppercase letters in a row.
const MAY_SPLIT = /[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}/u;
const MAY_ACRONYM = /\p{L}\./u;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Analyse text into search terms, handed to `emit` in order: NFKC, identifier splitting, lowercase,
 * traditional Chinese folded to simplified (han-fold.ts), stop words removed, English words
 * stemmed, pure numbers dropped (they match parameter examples, not topics), Chinese/Japanese runs
 * as words + bigrams + characters. `query` also drops request
 * fillers ("please", "help me"). The document side calls this for every field of every tool, so it
 * builds no token objects and skips the replaces that cannot change the text.
 */
export function analyse(text: string, query: boolean, emit: Emit): void {
  if (!text) return;
  // Dotted acronyms ("U.S.", "e.g.") become one word before punctuation splits them into letters.
  // "%" is a word people also spell out ("15 percent", "15%"): index and query it as one.
  let norm = NON_ASCII.test(text) ? text.normalize('NFKC') : text; // NFKC leaves ASCII as it is
  if (MAY_SPLIT.test(norm)) norm = splitIdentifiers(norm);
  if (MAY_ACRONYM.test(norm)) norm = norm.replace(ACRONYM, (a) => a.replace(/\./g, ''));
  if (norm.includes('%')) norm = norm.replace(/%/g, ' percent ');
  norm = norm.toLowerCase();
  const exprs = expressions(norm);
  for (let n = exprs.length; n > 0; n--) emit(MATH_TERM, Kind.Word);
  if (exprs.length) norm = blankOperators(norm, exprs);
  for (const m of norm.matchAll(SCAN)) {
    const t = m[0];
    const c0 = t.charCodeAt(0);
    // Han, Hiragana and Katakana are all at U+2E80 or above, and 'ー' (script Common) can end up in
    // a run of other letters: any other run is no CJK run, without asking the regex.
    if ((c0 >= 0x2e80 || t.includes('ー')) && CJK_RUN.test(t)) {
      cjk(t, emit, query);
      continue;
    }
    if (STOP.has(t) || (c0 >= 0x30 && c0 <= 0x39 && DIGITS.test(t))) continue;
    if (query && (QUERY_STOP.has(t) || isSocial(t))) continue;
    emit(stem(t), Kind.Word);
  }
}

/**
 * Analyse text into search terms (see `analyse`). `query` also drops request fillers ("please", "help me").
 */
export function tokenize(text: string, opts: { query?: boolean } = {}): Token[] {
  const out: Token[] = [];
  analyse(text, !!opts.query, (term, kind) => out.push({ term, kind }));
  return out;
}

/** The terms of `text` as strings (document side). */
export function terms(text: string): string[] {
  const out: string[] = [];
  analyse(text, false, (term) => out.push(term));
  return out;
}

/**
 * Each term of `text` mapped to the first word it came from, for messages a person reads: English
 * stems to their word (`titl` → `title`), Chinese terms folded from traditional characters to the
 * characters the text has (查询 → 查詢). Chinese terms the text wrote in simplified are their own words.
 */
export function surfaceWords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const norm = splitIdentifiers(text.normalize('NFKC')).toLowerCase();
  const math = expressions(norm)[0];
  if (math) out.set(MATH_TERM, math);
  for (const m of norm.matchAll(SCAN)) {
    const run = m[0];
    if (CJK_RUN.test(run)) {
      // Folding keeps positions: a term of the folded run is the same stretch of the original.
      const folded = foldHan(run);
      if (folded === run) continue;
      cjk(run, (term) => {
        const at = folded.indexOf(term);
        if (at >= 0 && !out.has(term)) out.set(term, run.slice(at, at + term.length));
      });
      continue;
    }
    const t = stem(run);
    if (!out.has(t)) out.set(t, run);
  }
  return out;
}
