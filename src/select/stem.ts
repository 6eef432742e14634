// English stemming (Porter's 1980 algorithm, written from its published description) so that
// "forecasts", "forecasting" and "forecast" meet, and "emails"/"email", "sending"/"send".
// Only lowercase ASCII words are stemmed; anything else is returned unchanged.

const cache = new Map<string, string>();

const isCons = (w: string, i: number): boolean => {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 ? true : !isCons(w, i - 1);
  return true;
};

/** Porter's m: the number of VC sequences in the stem `w[0..end)`. */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isCons(w, i)) i++;
  while (i < end) {
    while (i < end && !isCons(w, i)) i++;
    if (i >= end) break;
    while (i < end && isCons(w, i)) i++;
    m++;
  }
  return m;
}

const hasVowel = (w: string, end: number): boolean => {
  for (let i = 0; i < end; i++) if (!isCons(w, i)) return true;
  return false;
};
const doubleCons = (w: string, end: number): boolean => end >= 2 && w[end - 1] === w[end - 2] && isCons(w, end - 1);
/** cvc, where the last c is not w, x or y ("hop" -> "hope" restoration). */
const cvc = (w: string, end: number): boolean =>
  end >= 3 && isCons(w, end - 1) && !isCons(w, end - 2) && isCons(w, end - 3) && !'wxy'.includes(w[end - 1]!);

/** Replace suffix `s` by `r` when the remaining stem has measure > `m`. Returns undefined when `s` does not end `w`. */
function swap(w: string, s: string, r: string, m: number): string | undefined {
  if (!w.endsWith(s)) return undefined;
  const stem = w.length - s.length;
  return measure(w, stem) > m ? w.slice(0, stem) + r : w;
}

const STEP2: [string, string][] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: [string, string][] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

function step1(w: string): string {
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);

  let trimmed = false;
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2);
    trimmed = true;
  } else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3);
    trimmed = true;
  }
  if (trimmed) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else if (doubleCons(w, w.length) && !'lsz'.includes(w[w.length - 1]!)) w = w.slice(0, -1);
    else if (measure(w, w.length) === 1 && cvc(w, w.length)) w += 'e';
  }
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + 'i';
  return w;
}

function step4(w: string): string {
  for (const s of STEP4) {
    if (!w.endsWith(s)) continue;
    const stem = w.length - s.length;
    if (measure(w, stem) <= 1) return w;
    if (s === 'ion' && !(w[stem - 1] === 's' || w[stem - 1] === 't')) return w;
    return w.slice(0, stem);
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !cvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

function firstSwap(w: string, table: [string, string][]): string {
  for (const [s, r] of table) {
    const out = swap(w, s, r, 0);
    if (out !== undefined) return out;
  }
  return w;
}

/** The Porter stem of a lowercase English word (words of 1-2 letters and non-ASCII are kept). */
export function stem(word: string): string {
  // The cache holds only words that pass the test below: ask it first (most words repeat).
  let out = cache.get(word);
  if (out !== undefined) return out;
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  out = step5(step4(firstSwap(firstSwap(step1(word), STEP2), STEP3)));
  if (cache.size > 200_000) cache.clear();
  cache.set(word, out);
  return out;
}
