import { stem } from './stem.js';
import { QUERY_STOP, STOP, STOP_CHARS } from './stopwords.js';

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

const CJK_RUN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+/u;
const SCAN =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}])+/gu;
const DIGITS = /^\d+$/;
const ACRONYM = /\b(?:\p{L}\.){2,}/gu;
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

function cjk(run: string, out: Token[]): void {
  for (let start = 0; start < run.length; start += MAX_SEGMENT) {
    const piece = run.slice(start, start + MAX_SEGMENT);
    const wordAt = new Map<number, string>();
    for (const s of seg().segment(piece)) {
      if (s.isWordLike === false) continue;
      wordAt.set(s.index, s.segment);
      if (!STOP.has(s.segment)) out.push({ term: s.segment, kind: Kind.Word });
    }
    const chars = [...piece];
    let idx = 0;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      const next = chars[i + 1];
      if (next !== undefined && !(STOP_CHARS.has(c) && STOP_CHARS.has(next))) {
        const bi = c + next;
        if (wordAt.get(idx) !== bi) out.push({ term: bi, kind: Kind.Bigram });
      }
      if (!STOP_CHARS.has(c) && wordAt.get(idx) !== c) out.push({ term: c, kind: Kind.Char });
      idx += c.length;
    }
  }
}

/**
 * Analyse text into search terms: NFKC, identifier splitting, lowercase, stop words removed,
 * English words stemmed, pure numbers dropped (they match parameter examples, not topics),
 * Chinese/Japanese runs as words + bigrams + characters. `query` also drops request fillers
 * ("please", "help me").
 */
export function tokenize(text: string, opts: { query?: boolean } = {}): Token[] {
  const out: Token[] = [];
  if (!text) return out;
  // Dotted acronyms ("U.S.", "e.g.") become one word before punctuation splits them into letters.
  // "%" is a word people also spell out ("15 percent", "15%"): index and query it as one.
  const norm = splitIdentifiers(text.normalize('NFKC'))
    .replace(ACRONYM, (a) => a.replace(/\./g, ''))
    .replace(/%/g, ' percent ')
    .toLowerCase();
  for (const m of norm.matchAll(SCAN)) {
    const t = m[0];
    if (CJK_RUN.test(t)) {
      cjk(t, out);
      continue;
    }
    if (STOP.has(t) || DIGITS.test(t) || (opts.query && QUERY_STOP.has(t))) continue;
    out.push({ term: stem(t), kind: Kind.Word });
  }
  return out;
}

/** The terms of `text` as strings (document side). */
export function terms(text: string): string[] {
  return tokenize(text).map((t) => t.term);
}

/**
 * Each English term of `text` mapped to the first word it came from (`titl` → `title`), for
 * messages a person reads; Chinese terms are their own words.
 */
export function surfaceWords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const norm = splitIdentifiers(text.normalize('NFKC')).toLowerCase();
  for (const m of norm.matchAll(SCAN)) {
    if (CJK_RUN.test(m[0])) continue;
    const t = stem(m[0]);
    if (!out.has(t)) out.set(t, m[0]);
  }
  return out;
}
