// The Chinese → English glossary (data/cedict-zh-en.tsv, derived from CC-CEDICT by
// scripts/build-cedict.mjs; licence in LICENSE-CC-CEDICT). One line per headword of 1–4 Han
// characters, `headword<TAB>sense|sense…`, sorted by UTF-8 bytes: a lookup is a binary search
// over the file's bytes, so nothing is parsed up front. The file is read only when some text has
// Han characters (an all-English registry and query never touch it).
import { readFileSync } from 'node:fs';
import { packagePath } from '../util/assets.js';

/** Where the glossary lives: data/ at the package root. */
export const LEXICON_FILE = packagePath('data', 'cedict-zh-en.tsv');

/** A glossary lookup: the English senses of a headword, most common first; [] when unknown. */
export type Senses = (word: string) => readonly string[];

const NONE: readonly string[] = [];

/**
 * A lookup over the glossary file `file` (in the format above). The file is read once, on the first
 * lookup; a missing or unreadable file gives [] rather than an error (then that text is simply not
 * translated). A malformed file is not an error either: a last line without a tab or without its final
 * newline is never found, and a line without a tab elsewhere is read together with the next line.
 * Answers are remembered per word (a miss only for words of at most 2 UTF-16 units).
 */
export function openLexicon(file: string): Senses {
  let data: Buffer | null | undefined;
  const memo = new Map<string, readonly string[]>();
  const bytes = (): Buffer | null => {
    if (data === undefined) {
      try {
        data = readFileSync(file);
      } catch {
        data = null;
      }
    }
    return data;
  };
  return (word) => {
    const hit = memo.get(word);
    if (hit) return hit;
    const b = bytes();
    const out = b ? search(b, Buffer.from(word)) : NONE;
    // Misses of longer words are not remembered: segmentation asks for every 3 and 4 characters of
    // a text, and remembering each would grow with the text (a search is ~17 comparisons).
    if (out !== NONE || word.length <= 2) memo.set(word, out);
    return out;
  };
}

/** Binary search of `key` among the sorted lines of `b` (each `headword<TAB>senses<LF>`). */
function search(b: Buffer, key: Buffer): readonly string[] {
  let lo = 0;
  let hi = b.length;
  while (lo < hi) {
    let s = (lo + hi) >>> 1;
    while (s > lo && b[s - 1] !== 10) s--;
    const tab = b.indexOf(9, s);
    const end = b.indexOf(10, tab);
    if (tab < 0 || end < 0) break;
    const cmp = Buffer.compare(b.subarray(s, tab), key);
    if (cmp === 0) return b.toString('utf8', tab + 1, end).split('|');
    if (cmp < 0) lo = end + 1;
    else hi = s;
  }
  return NONE;
}

/** English senses of a 1–4 character simplified headword of the shipped glossary ("to …": a verb); [] when unknown. */
export const senses: Senses = openLexicon(LEXICON_FILE);

/**
 * The reverse glossary (data/cedict-en-zh.tsv, same format and build): the headwords that have a
 * one-word English sense among their first four. Read only for a Chinese query with English words in it.
 */
export const BACK_FILE = packagePath('data', 'cedict-en-zh.tsv');

/** The Chinese headwords whose first four senses include the English word `word` (lower case); [] when none. */
export const headwords: Senses = openLexicon(BACK_FILE);
