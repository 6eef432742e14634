// The quick look every text gets: one pass over its characters, no allocation, that finds the
// gate words (classes.ts GATE_BITS) by a rolling hash of each word looked up in a small table (one
// probe per word: a per-character trie took ten times the memory, out of cache in validate). It
// reads words the way the word views will: upper case as lower, leetspeak inside a word as letters
// ("1gn0re"), letters spelled out one by one as a word ("i g n o r e"), and a word split for a
// reviewer as one word ("ign-ore", "instruc tions"). validate reads every text of registries of
// 50,000 tools, and nearly every text ends here.
import { GATE_BITS } from './classes.js';

/** What one pass over a text finds for the gates. */
export interface GateScan {
  /** The gate bits of its words (classes.ts GATE_BITS). */
  bits: [number, number, number];
  /** Letters spelled out one by one, or leetspeak inside words: reasons to read it in full. */
  obfuscated: boolean;
  /** It has a Latin word of two letters or more. */
  latin: boolean;
  /**
   * Characters only encodings, variables or code bring: a lower-case letter before an upper-case one
   * (base64, camelCase), `X_Y` in capitals (a variable), a digit beside a letter or many digits.
   */
  coded: boolean;
}

// The gate words by hash: open addressing, SLOTS entries of (hash + 1, bits0, bits1, bits2). A
// collision only ever adds bits, and bits only open gates: the patterns behind them decide.
const SLOTS = 4096;
const KEYS = new Int32Array(SLOTS);
const BITS = new Int32Array(SLOTS * 3);
let built = 0;

/** The hash of a word, one letter (0-25) at a time: start with HASH0, then hash = next(hash, letter). */
const HASH0 = 0x811c9dc5 | 0;
const next = (h: number, c: number) => Math.imul(h ^ (c + 1), 0x01000193);

function slotOf(h: number): number {
  let i = (h ^ (h >>> 15)) & (SLOTS - 1);
  while (KEYS[i] !== 0 && KEYS[i] !== (h | 1)) i = (i + 1) & (SLOTS - 1);
  return i;
}

/** Built on first use, after every module has registered its gate words. */
function table(): void {
  if (built === GATE_BITS.size) return;
  if (GATE_BITS.size > SLOTS / 2) throw new Error('poison gates: too many gate words for the table');
  KEYS.fill(0);
  BITS.fill(0);
  for (const [word, [x, y, z]] of GATE_BITS) {
    let h = HASH0;
    for (let i = 0; i < word.length; i++) h = next(h, word.charCodeAt(i) - 97);
    const i = slotOf(h);
    KEYS[i] = h | 1;
    BITS[i * 3] |= x;
    BITS[i * 3 + 1] |= y;
    BITS[i * 3 + 2] |= z;
  }
  built = GATE_BITS.size;
}

// A leetspeak digit or symbol as the letter it stands for (0-25), else -1: indexed by char code.
const LEET = new Int8Array(128).fill(-1);
for (const [ch, letter] of [
  ['0', 'o'],
  ['1', 'i'],
  ['3', 'e'],
  ['4', 'a'],
  ['@', 'a'],
  ['5', 's'],
  ['$', 's'],
  ['7', 't'],
])
  LEET[ch!.charCodeAt(0)] = letter!.charCodeAt(0) - 97;
// What each ASCII character is: 1 lower-case letter, 2 upper-case letter, 3 digit, 4 '_', 0 anything else.
const KIND = new Uint8Array(128);
for (let c = 97; c <= 122; c++) KIND[c] = 1;
for (let c = 65; c <= 90; c++) KIND[c] = 2;
for (let c = 48; c <= 57; c++) KIND[c] = 3;
KIND[95] = 4;

/**
 * One pass over a text's words for the gates. Written as one flat loop over char codes with table
 * look-ups (no closures, no allocation but the result): it runs on every text of a registry.
 */
export function gateScan(text: string): GateScan {
  table();
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let obfuscated = false;
  let latin = false;
  let coded = false;
  let digits = 0;
  // The current word: its hash, length, leetspeak count, whether leetspeak stood between letters.
  let h = HASH0;
  let len = 0;
  let leet = 0;
  let leetInside = false;
  let leetAfterLetter = false;
  let lastWasLetter = false;
  let lastLetter = -1;
  // Words split for a reviewer: the hash of the previous word (and of the two before) carried on into
  // this one, when one separator came between ("ign-ore", "instruc tions").
  let h2 = 0;
  let h3 = 0;
  let prev = 0;
  let prevPrev = 0;
  let sep = 0;
  let prevSep = 99;
  // Letters spelled out one by one: the run's hash and length.
  let spelled = HASH0;
  let spelledLen = 0;
  let prevKind = 0;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const code = i < n ? text.charCodeAt(i) : 32;
    const kind = code < 128 ? KIND[code]! : 0;
    if (!coded && kind !== 0) {
      // A lower-case letter before an upper-case one or a digit, a digit beside a letter, X_Y in capitals, 8 digits.
      if (kind === 3) coded = ++digits >= 8 || prevKind === 1 || prevKind === 2;
      else if (kind === 2) coded = prevKind === 1 || prevKind === 3;
      else if (kind === 1) coded = prevKind === 3;
      else if (prevKind === 2 || prevKind === 3) {
        const nx = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        coded = nx < 128 && (KIND[nx] === 2 || KIND[nx] === 3);
      }
    }
    prevKind = kind;
    let c = kind === 1 ? code - 97 : kind === 2 ? code - 65 : -1;
    if (c < 0 && code < 128) {
      const l = LEET[code]!;
      // A leetspeak character is a letter beside a letter (or before one): "1gn0re", "u53r".
      if (l >= 0) {
        const nx = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        if (len > 0 || (nx < 128 && (KIND[nx] === 1 || KIND[nx] === 2))) {
          c = l;
          if (lastWasLetter) leetAfterLetter = true;
          leet++;
          lastWasLetter = false;
        }
      }
    } else if (c >= 0) {
      // A letter after a leetspeak character that itself followed a letter: "1gn0re" (not "md5").
      if (leetAfterLetter && !lastWasLetter) leetInside = true;
      lastWasLetter = true;
    }
    if (c >= 0) {
      if (len === 0) {
        // A new word: it may continue the previous one (and the one before) across one separator.
        h = HASH0;
        h2 = sep === 1 && prev !== 0 ? prev : 0;
        h3 = sep === 1 && prevSep === 1 && prevPrev !== 0 ? prevPrev : 0;
      }
      h = next(h, c);
      if (h2 !== 0) h2 = next(h2, c);
      if (h3 !== 0) h3 = next(h3, c);
      lastLetter = c;
      len++;
      continue;
    }
    if (len === 0) {
      sep++;
      continue;
    }
    // The word ended: look it up, joined with the words before it too.
    if (len > 1) latin = true;
    if (leet >= 2 || (leet === 1 && leetInside)) obfuscated = true;
    for (let k = 0; k < 3; k++) {
      const key = k === 0 ? h : k === 1 ? h2 : h3;
      if (key === 0) continue;
      const at = slotOf(key);
      if (KEYS[at] === 0) continue;
      b0 |= BITS[at * 3]!;
      b1 |= BITS[at * 3 + 1]!;
      b2 |= BITS[at * 3 + 2]!;
    }
    if (len === 1) {
      // A single letter extends a spelled-out run: one separator continues it ("i g n o r e"), two
      // end a word ("d o  n o t").
      const cont = spelledLen > 0 && sep === 1;
      spelled = next(cont ? spelled : HASH0, lastLetter);
      spelledLen = cont ? spelledLen + 1 : 1;
      if (spelledLen >= 3) obfuscated = true;
      if (spelledLen >= 2) {
        const at = slotOf(spelled);
        if (KEYS[at] !== 0) {
          b0 |= BITS[at * 3]!;
          b1 |= BITS[at * 3 + 1]!;
          b2 |= BITS[at * 3 + 2]!;
        }
      }
    } else spelledLen = 0;
    // What the next word may continue: this word, and this word joined to the one before.
    prevPrev = h2;
    prev = h;
    prevSep = sep;
    len = 0;
    leet = 0;
    leetInside = false;
    leetAfterLetter = false;
    lastWasLetter = false;
    sep = 1;
  }
  return { bits: [b0, b1, b2], obfuscated, latin, coded };
}
