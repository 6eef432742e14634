// The quick look every text gets: one pass over its characters, no allocation, that finds the
// gate words (classes.ts GATE_BITS) in a trie as the words go by. It reads words the way the word
// views will: upper case as lower, leetspeak inside a word as letters ("1gn0re"), letters spelled
// out one by one as a word ("i g n o r e"), and a word split for a reviewer as one word when the
// parts continue a gate word ("ign-ore", "instruc tions"). validate reads every text of registries
// of 50,000 tools, and nearly every text ends here.
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

// The trie: node n's child for letter c is CHILD[n * 26 + c] (0: none; node 0 is the root).
let CHILD = new Int32Array(0);
let BITS0 = new Int32Array(0);
let BITS1 = new Int32Array(0);
let BITS2 = new Int32Array(0);
let built = 0;

/** Built on first use, after every module has registered its gate words. */
function trie(): void {
  if (built === GATE_BITS.size) return;
  const child: number[] = new Array<number>(26).fill(0);
  const b0: number[] = [0];
  const b1: number[] = [0];
  const b2: number[] = [0];
  for (const [word, [x, y, z]] of GATE_BITS) {
    let n = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i) - 97;
      if (c < 0 || c > 25) {
        n = -1;
        break;
      }
      let next = child[n * 26 + c]!;
      if (next === 0) {
        next = b0.length;
        b0.push(0);
        b1.push(0);
        b2.push(0);
        for (let k = 0; k < 26; k++) child.push(0);
        child[n * 26 + c] = next;
      }
      n = next;
    }
    if (n > 0) {
      b0[n]! |= x;
      b1[n]! |= y;
      b2[n]! |= z;
    }
  }
  CHILD = Int32Array.from(child);
  BITS0 = Int32Array.from(b0);
  BITS1 = Int32Array.from(b1);
  BITS2 = Int32Array.from(b2);
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
  trie();
  const child = CHILD;
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let obfuscated = false;
  let latin = false;
  let coded = false;
  let digits = 0;
  // The current word: its trie node, length, leetspeak count, whether leetspeak stood between letters.
  let node = 0;
  let len = 0;
  let leet = 0;
  let leetInside = false;
  let leetAfterLetter = false;
  let lastWasLetter = false;
  let lastLetter = -1;
  // A word continued across one separator ("ign-ore"): the node reached; separators since the last word.
  let joined = -1;
  let sep = 0;
  let prevEnd = -1;
  // Letters spelled out one by one: the run's trie node and length.
  let spelled = -1;
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
        const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        coded = next < 128 && (KIND[next] === 2 || KIND[next] === 3);
      }
    }
    prevKind = kind;
    let c = kind === 1 ? code - 97 : kind === 2 ? code - 65 : -1;
    if (c < 0 && code < 128) {
      const l = LEET[code]!;
      // A leetspeak character is a letter beside a letter (or before one): "1gn0re", "u53r".
      if (l >= 0) {
        const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        if (len > 0 || (next < 128 && (KIND[next] === 1 || KIND[next] === 2))) {
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
        // A new word: it may continue the previous one across a single separator.
        joined = sep === 1 && prevEnd > 0 ? prevEnd : -1;
        node = 0;
      }
      node = node < 0 ? -1 : child[node * 26 + c]! || -1;
      joined = joined < 0 ? -1 : child[joined * 26 + c]! || -1;
      lastLetter = c;
      len++;
      continue;
    }
    if (len === 0) {
      sep++;
      continue;
    }
    // The word ended.
    if (len > 1) latin = true;
    if (leet >= 2 || (leet === 1 && leetInside)) obfuscated = true;
    if (node > 0) {
      b0 |= BITS0[node]!;
      b1 |= BITS1[node]!;
      b2 |= BITS2[node]!;
    }
    if (joined > 0) {
      b0 |= BITS0[joined]!;
      b1 |= BITS1[joined]!;
      b2 |= BITS2[joined]!;
    }
    if (len === 1) {
      // A single letter extends a spelled-out run: one separator continues it ("i g n o r e"), two
      // end a word ("d o  n o t").
      const from = spelledLen > 0 && sep === 1 ? spelled : 0;
      spelled = from < 0 ? -1 : child[from * 26 + lastLetter]! || -1;
      spelledLen = spelledLen > 0 && sep === 1 ? spelledLen + 1 : 1;
      if (spelledLen >= 3) obfuscated = true;
      if (spelled > 0) {
        b0 |= BITS0[spelled]!;
        b1 |= BITS1[spelled]!;
        b2 |= BITS2[spelled]!;
      }
    } else spelledLen = 0;
    // What the next word may continue: this word's node (or the joined one).
    prevEnd = joined > 0 ? joined : node;
    len = 0;
    leet = 0;
    leetInside = false;
    leetAfterLetter = false;
    lastWasLetter = false;
    sep = 1;
  }
  return { bits: [b0, b1, b2], obfuscated, latin, coded };
}
