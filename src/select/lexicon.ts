// The Chinese → English glossary (data/cedict-zh-en.tsv, derived from CC-CEDICT by
// scripts/build-cedict.mjs; licence in LICENSE-CC-CEDICT). One line per headword of 1–2 Han
// characters, `headword<TAB>sense|sense…`, sorted by UTF-8 bytes: a lookup is a binary search
// over the file's bytes, so nothing is parsed up front. The file is read only when some text has
// Han characters (an all-English registry and query never touch it).
import { readFileSync } from 'node:fs';
import { packagePath } from '../util/assets.js';

/** Where the glossary lives: data/ at the package root. */
export const LEXICON_FILE = packagePath('data', 'cedict-zh-en.tsv');

let data: Buffer | null | undefined;
const memo = new Map<string, readonly string[]>();
const NONE: readonly string[] = [];

/** The glossary's bytes, or null when the file is missing (then nothing is translated). */
function bytes(): Buffer | null {
  if (data === undefined) {
    try {
      data = readFileSync(LEXICON_FILE);
    } catch {
      data = null;
    }
  }
  return data;
}

/** The English senses of a 1–2 character simplified headword, most common first; [] when unknown. */
export function senses(word: string): readonly string[] {
  const hit = memo.get(word);
  if (hit) return hit;
  const b = bytes();
  let out = NONE;
  if (b) {
    const key = Buffer.from(word, 'utf8');
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      let s = (lo + hi) >>> 1;
      while (s > lo && b[s - 1] !== 10) s--;
      const tab = b.indexOf(9, s);
      const end = b.indexOf(10, tab);
      if (tab < 0 || end < 0) break;
      const cmp = Buffer.compare(b.subarray(s, tab), key);
      if (cmp === 0) {
        out = b.toString('utf8', tab + 1, end).split('|');
        break;
      }
      if (cmp < 0) lo = end + 1;
      else hi = s;
    }
  }
  memo.set(word, out);
  return out;
}
