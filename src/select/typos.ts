// Typo tolerance (issue 35 item 3). A query word that matches nothing in the registry ("wether",
// "calender", "restuarant") stands in for the registry's words within a small edit distance of it,
// as a translation stands in for a Chinese word: derived terms, weighted below an exact match, that
// make a tool match but never outscore one that has the word as typed.
//
// The registry's vocabulary is the index's own terms (stems of Latin words), kept as a one-deletion
// dictionary (SymSpell: every term and each of its one-letter deletions, built once per index on the
// first unknown word), so a word's candidates are found with one lookup per letter instead of a scan
// of the vocabulary; each candidate is measured with the optimal-string-alignment distance (a swap
// of two neighbouring letters counts one). Measured in `npm run bench -- typos`.
import type { LexicalIndex } from './model.js';
import type { Query } from './query.js';
import { stem } from './stem.js';
import { zhWords } from './translate.js';
import { TYPOS, type TypoParams } from './typo-params.js';

export { TYPOS, type TypoParams };

/** How many glossary entries know the stem as an English word (also with an `e` its stemming took off). */
const senses = (stem: string): number => zhWords(stem).length || zhWords(`${stem}e`).length;

const LATIN = /^[a-z]+$/;

interface Vocabulary {
  /** Every Latin term, and every one-letter deletion of one, -> the terms it comes from. */
  deletes: Map<string, string | string[]>;
}

const vocabularies = new WeakMap<LexicalIndex, Vocabulary>();

const add = (m: Map<string, string | string[]>, key: string, term: string) => {
  const had = m.get(key);
  if (had === undefined) m.set(key, term);
  else if (typeof had === 'string') {
    if (had !== term) m.set(key, [had, term]);
  } else if (!had.includes(term)) had.push(term);
};

const oneDeleted = (w: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) out.push(w.slice(0, i) + w.slice(i + 1));
  return out;
};

/** The index's Latin terms as a one-deletion dictionary (SymSpell), built on the first unknown word. */
function vocabulary(ix: LexicalIndex, min: number): Vocabulary {
  let v = vocabularies.get(ix);
  if (v) return v;
  const deletes = new Map<string, string | string[]>();
  for (const t of ix.terms.keys()) {
    if (t.length < min - 1 || t.length > 40 || !LATIN.test(t)) continue;
    add(deletes, t, t);
    for (const d of oneDeleted(t)) add(deletes, d, t);
  }
  v = { deletes };
  vocabularies.set(ix, v);
  return v;
}

// Two reusable rows of the distance table, plus the one before (for swaps).
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/**
 * The optimal-string-alignment distance of `a` and `b` when it is at most `max`, else max + 1.
 * Each row stops the comparison once its smallest entry exceeds `max`.
 */
export function distanceWithin(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (m + 1 > rowA.length) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
    rowC = new Int32Array(m + 1);
  }
  let prev2 = rowC; // row i-2
  let prev = rowA; // row i-1
  let cur = rowB;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      const swapped = i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj;
      if (swapped) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[m]!, max + 1);
}

/**
 * The registry's terms closest to `term` (within its allowed distance), most common first; [] when
 * none. Candidates come from the one-deletion dictionary: a term with a letter more or less than the
 * word, or one whose deletion equals one of the word's (a letter replaced, two swapped), so one edit
 * is always found and two only in those shapes; each is then measured.
 */
export function corrections(ix: LexicalIndex, term: string, p: TypoParams = TYPOS): string[] {
  const max = term.length >= p.min2 ? 2 : term.length >= p.min1 ? 1 : 0;
  if (!max) return [];
  const { deletes } = vocabulary(ix, p.min1);
  const seen = new Set<string>();
  const take = (k: string) => {
    const hit = deletes.get(k);
    if (hit === undefined) return;
    if (typeof hit === 'string') seen.add(hit);
    else for (const t of hit) seen.add(t);
  };
  take(term);
  for (const d of oneDeleted(term)) take(d);
  seen.delete(term);
  let bestD = max + 1;
  let found: string[] = [];
  for (const t of seen) {
    const d = distanceWithin(term, t, max);
    if (d > max || d > bestD) continue;
    if (d < bestD) {
      bestD = d;
      found = [];
    }
    found.push(t);
  }
  if (found.length > p.max) {
    const df = (t: string) => ix.terms.get(t)?.n ?? 0;
    found.sort((x, y) => df(y) - df(x) || (x < y ? -1 : 1));
    found = found.slice(0, p.max);
  }
  return found;
}

/**
 * The stems of words written with a capital inside the query ("email Zhang San", "flights to
 * Lyon"): names, which a registry rarely has and which are not typos of its words.
 */
function properNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<=[\p{L}\p{N},;:'")\]]\s+)\p{Lu}\p{Ll}+/gu)) out.add(stem(m[0].toLowerCase()));
  return out;
}

/**
 * Add, to `q`, the registry's terms near each of the query's own Latin words that the registry does
 * not have, as derived terms standing in for the word. Context terms and translations are left alone.
 * `has`: which words the registry has (default: its index; validate's routing check leaves out
 * the words only the example under test brings). Returns the corrections made (word -> terms), for
 * `why` and `--explain`.
 */
export function correctTypos(
  q: Query,
  ix: LexicalIndex,
  p: TypoParams = TYPOS,
  text = '',
  has: (term: string) => boolean = (t) => ix.terms.has(t),
): Map<string, string[]> {
  const made = new Map<string, string[]>();
  if (p.weight <= 0) return made;
  const names = properNames(text);
  for (const [term, w] of [...q]) {
    if (q.context.has(term) || q.source.has(term) || has(term) || !LATIN.test(term)) continue;
    if (names.has(term)) continue;
    const known = p.common > 0 ? senses(term) : 0;
    if (known > 1) continue;
    let near = corrections(ix, term, p);
    if (known === 1) near = near.filter((t) => senses(t) >= p.common);
    if (!near.length) continue;
    const each = (w * p.weight) / Math.sqrt(near.length);
    for (const t of near) q.derive(t, each, term);
    made.set(term, near);
  }
  return made;
}
