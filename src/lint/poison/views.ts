// The views of a folded text that the poisoning patterns read. Each is built in one pass:
//   cased   letters spelled out one by one joined ("G I T H U B" -> "GITHUB"), case kept: environment names
//   lower   the same, lower case, identifiers kept whole (id_rsa, send_email, .git-credentials): paths, tool names
//   plain   words for prose patterns: leetspeak decoded inside words ("1gn0re"), '_' as a space, words
//           split for a reviewer joined again when the parts make a word the patterns use ("ign-ore")
//   compact letters, digits and CJK only ("ignoreallpreviousinstructions"), for whole phrases spelled in
//           any spacing; its patterns accept leetspeak digits themselves (see compact.ts)

const CJK_CLASS = '\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff';
const CJK = new RegExp(`[${CJK_CLASS}]`, 'u');
/** Separators inside a Chinese phrase ("不 要", "忽·略", "告*诉") are dropped. */
const CJK_GAP = new RegExp(`([${CJK_CLASS}])[\\s·•*.\\-_|/~+・、]+(?=[${CJK_CLASS}])`, 'gu');
/**
 * Single letters (digits, '_') separated by one and the same character: "i g n o r e", "i.g.n.o.r.e",
 * "G-I-T-H-U-B-_-T-O-K-E-N". (Text is folded first: look-alike letters are ASCII by now.) A run
 * separated by anything but a space needs three letters: "e.g." stays as it is.
 */
const SPELLED = /(?<![A-Za-z0-9_])[A-Za-z0-9_]([ .\-*|/+~,'])[A-Za-z0-9_](?:\1[A-Za-z0-9_])*(?![A-Za-z0-9_])/g;
const SPELLED_SEP = /[ .\-*|/+~,']/g;

/** Join letters spelled out one by one, and Chinese characters spread apart. */
export function joinSpelled(text: string): string {
  const joined = text.replace(SPELLED, (m, sep: string) =>
    sep !== ' ' && m.length < 5 ? m : m.replace(SPELLED_SEP, ''),
  );
  return CJK.test(joined) ? joined.replace(CJK_GAP, '$1') : joined;
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
/** A word mixing letters with leetspeak digits or symbols: "1gn0re", "pr3v10u5", "p@ssword". */
const LEET_WORD = /[a-z0-9@$]*[a-z][a-z0-9@$]*/g;
const HAS_LEET = /[a-z][0-9@$]|[0-9@$][a-z]/;

/**
 * Words the patterns are built from: two or three fragments separated by one character ("ign-ore",
 * "instruc tions", "pass word") are joined when together they make one of these.
 */
const JOINABLE = new Set(
  `ignore ignoring disregard forget override bypass previous prior above earlier preceding instruction instructions
  prompt prompts system guidelines directives directive rules restrictions developer original initial tell telling
  inform informing mention mentioning reveal revealing disclose disclosing notify notifying user users human secret
  secretly silently quietly covertly discreetly hidden conceal confidential conversation conversations history
  transcript messages message password passwords passphrase credential credentials token tokens private
  environment variable variables include including send forward upload attach append paste contents content
  verbatim everything never always before other another tools tool instead replace replaces deprecated important
  assistant context chat dialogue precedence priority persona unrestricted jailbreak administrator without
  knowing noticing aware confirmation permission obey follow comply`.split(/\s+/),
);
/** Every proper prefix of a joinable word: a fragment that is none of these cannot start a join. */
const PREFIXES = new Set(
  [...JOINABLE].flatMap((w) => Array.from({ length: w.length - 1 }, (_, i) => w.slice(0, i + 1))),
);

const FUNCTION_WORDS = new Set('a an and as at by for in is it of on or the to'.split(' '));
const WORDS = /[a-z]+/g;

/** Fragments of a joinable word, separated by single characters, joined: "ign-ore prev ious" -> "ignore previous". */
function joinFragments(text: string): string {
  let out = '';
  let at = 0;
  WORDS.lastIndex = 0;
  const words: { w: string; start: number; end: number }[] = [];
  for (let m = WORDS.exec(text); m; m = WORDS.exec(text))
    words.push({ w: m[0], start: m.index, end: m.index + m[0].length });
  for (let i = 0; i < words.length; i++) {
    const first = words[i]!;
    if (!PREFIXES.has(first.w) || FUNCTION_WORDS.has(first.w) || JOINABLE.has(first.w)) continue;
    let cand = first.w;
    for (let j = i + 1; j < words.length && j <= i + 2; j++) {
      if (words[j]!.start - words[j - 1]!.end !== 1) break;
      cand += words[j]!.w;
      if (JOINABLE.has(cand)) {
        out += text.slice(at, first.start) + cand;
        at = words[j]!.end;
        i = j;
        break;
      }
      if (!PREFIXES.has(cand)) break;
    }
  }
  return at === 0 ? text : out + text.slice(at);
}

/** The three word views of one sentence of folded text. */
export interface SentenceViews {
  cased: string;
  lower: string;
  plain: string;
}

export function sentenceViews(folded: string): SentenceViews {
  const cased = joinSpelled(folded);
  const lower = cased.toLowerCase();
  const leet = HAS_LEET.test(lower)
    ? lower.replace(LEET_WORD, (w) => (/[013457@$]/.test(w) ? w.replace(/[013457@$]/g, (c) => LEET[c]!) : w))
    : lower;
  // '_' is a space for prose ("ignore_previous_instructions"), which may spell out letters again ("i_g_n_o_r_e").
  const spaced = leet.includes('_') ? joinSpelled(leet.replace(/_/g, ' ')) : leet;
  const plain = joinFragments(spaced).replace(/\s+/g, ' ');
  return { cased, lower, plain };
}

/** Letters, digits and CJK only: a phrase's spelling without any of its spacing. */
const NOT_COMPACT = new RegExp(`[^a-z0-9${CJK_CLASS}]+`, 'gu');
export function compactOf(plain: string): string {
  return plain.replace(NOT_COMPACT, '');
}

/**
 * Sentences: split after . ! ? followed by white space, at Chinese end punctuation and ';', at blank
 * lines and before list items. A '.' inside a word, a path or a number does not end a sentence, nor
 * does a single line break (a YAML block scalar wraps sentences).
 */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|[。！？；;]+|\n\s*\n|\n(?=[ \t]*(?:[-*•>#]|\d+[.)])\s)/)
    .filter((s) => s.trim().length > 0);
}

/** True when the text has Chinese characters. */
export const hasCjk = (s: string) => CJK.test(s);
/** True when the text has at least one Latin word of two letters or more. */
export const hasLatin = (s: string) => /[A-Za-z]{2}/.test(s);
