// Poisoning detection for one text and for a whole contract. A text is folded (fold.ts), read
// sentence by sentence in English and Chinese (en.ts, en-secrets.ts, zh.ts), as a whole for prompt
// markers and compact phrases (compact.ts), and what it hides in encodings (decode.ts) is decoded
// and read the same way, two levels deep. Linear in the text: each step is one pass or a bounded
// regex per sentence.
import { cleanText, foldText } from './fold.js';
import { POISON_CLASSES, has, wordSet, type Matcher, type PoisonClass, type Pre, type Sentence } from './classes.js';
import { compactPatterns, compactVariants } from './compact.js';
import { decodeInline } from './decode.js';
import { EN_BEHAVIOUR, usedMarker } from './en.js';
import { ENV_REF, EN_SECRETS, SECRET_PATH } from './en-secrets.js';
import { cut } from './rx.js';
import { gateScan } from './scan.js';
import { compactOf, hasCjk, joinSpelled, sentences, sentenceViews } from './views.js';
import { ZH } from './zh.js';

/** One finding: the class, what was matched (folded and decoded, so a reviewer can read it), how it was hidden. */
export interface Finding {
  cls: PoisonClass;
  evidence: string;
  /** "base64", "Unicode tag characters", "reversed text" …; absent when the text says it openly. */
  via?: string;
}

/** A text to check and where it sits. */
export interface TextInput {
  text: string;
  /** 'value': enum/default/const/examples; 'key': a property name; 'prose': everything else. */
  kind: 'prose' | 'value' | 'key';
  /** The text belongs to a parameter (its description, title, a value): it asks for that parameter. */
  inParam: boolean;
  /** For values: the parameter names a path or key, so a secret path as its value is a default, not a request. */
  pathParam?: () => boolean;
}
const NO_PARAMS: ReadonlySet<string> = new Set();

const MAX_TEXT = 65_536;
const NONE: Finding[] = [];
const MAX_DEPTH = 2;
const EN: Record<PoisonClass, Matcher[]> = { ...EN_BEHAVIOUR, ...EN_SECRETS };
/** A value that is nothing but a reference to a credential variable: "${OPENAI_API_KEY}", "os.environ['X']". */
const ENV_ONLY = new RegExp(`^\\s*(?:${ENV_REF.source})\\s*[\\])]?\\s*$`);
const SECRETISH = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIAL|COOKIE|PRIVATE|DSN|DATABASE_URL/i;

// The compact view catches spellings the word views miss; plain text needs it only when it shows
// signs of them: letters spelled out, leetspeak, or anything folding changed (non-ASCII letters,
// invisible characters). Its reversed and ROT13 readings are tried when they contain a key word.
/** Key words reversed or in ROT13 ("erongi", "vtaber"): only then are those readings tried. */
const TURNED_BIT =
  wordSet(`erongi dragersid snoitcurtsni noitcurtsni tpmorp resu noitasrevnoc asr crten slaitnederc nekot terces
  drowssap loot sloot vtaber qvfertneq vafgehpgvbaf vafgehpgvba cebzcg hfre hfref pbairefngvba pertragvnyf gbxra frperg
  cnffjbeq gbby gbbyf`);
const COMPACT_WORTH =
  /ignor|disregard|instruct|tell|user|prompt|conversation|idrsa|netrc|credential|tool|token|apikey|environ|secret|password|mode/;

/** The Latin letters of a text: folding that changes them (look-alikes, fullwidth, math letters) opens every gate. */
const LATIN_ONLY = (s: string) => s.replace(/[^A-Za-z]+/g, '');

/** Characters only markers, variables, paths, encodings or Chinese text bring: such a text is always read. */
const SPECIAL_CHAR = /[<[#$%~&\\`\u0080-\uffff]/;
const SPECIAL =
  /[<[#$%~&\\`]|\d[a-f]\d|[a-f]\d[a-f]|[01]{8}|\d{2,5}[ ,;]+\d{2,5}[ ,;]+\d{2,5}[ ,;]+\d{2,5}|\b[0-9a-f]{2}[ :,-][0-9a-f]{2}[ :,-][0-9a-f]{2}\b|[A-Z0-9]_[A-Z0-9]|[a-z][A-Z]|[^\x00-\x7f]/;
const ALL_MATCHERS = POISON_CLASSES.flatMap((c) => EN[c]);
/**
 * The union of every English gate's need (a set of which a sentence must have a word for that gate to
 * pass): a text with none of those words passes no gate, which one AND of two numbers tells.
 */
const NEED: [number, number, number] = [0, 0, 0];
NEED[TURNED_BIT.word] |= TURNED_BIT.bit;
for (const m of ALL_MATCHERS) {
  if (!m.gate.need?.length) throw new Error('poison: an English gate without a need (classes.ts withNeed)');
  for (const s of m.gate.need) NEED[s.word] |= s.bit;
}
const anyGate = (p: Pre) =>
  ((p.bits[0] & NEED[0]) | (p.bits[1] & NEED[1]) | (p.bits[2] & NEED[2])) !== 0 &&
  (has(p, TURNED_BIT) || ALL_MATCHERS.some((m) => m.gate(p)));

/** The poisoning classes a text shows, each once, with its evidence. */
export function detectText(input: TextInput, depth = 0, paramNames?: () => ReadonlySet<string>): Finding[] {
  const raw = input.text.length > MAX_TEXT ? input.text.slice(0, MAX_TEXT) : input.text;
  // Nothing shorter than "env dump" or a key of fewer than three words can say anything the classes look for.
  if (raw.length < 6 || (input.kind === 'key' && !/[\s_-].*[\s_-]|[a-z][A-Z].*[a-z][A-Z]/.test(raw))) return NONE;
  // The quick look first, on the text as written: one pass over its words for the gates, one for
  // special characters. Most texts of a registry end here (validate reads 50,000-tool registries).
  if (depth === 0 && !SPECIAL_CHAR.test(raw) && (input.kind !== 'value' || !/[/.]/.test(raw))) {
    const scan = gateScan(raw);
    if (
      !scan.obfuscated &&
      !(scan.coded && SPECIAL.test(raw)) &&
      // (English gates read only the bits and the text as written; Chinese text never takes this path.)
      !anyGate({ cased: raw, lower: raw, bits: scan.bits, open: false, inParam: input.inParam })
    )
      return NONE;
  }
  const found = new Map<PoisonClass, Finding>();
  const add = (cls: PoisonClass, evidence: string, via?: string) => {
    if (!found.has(cls)) found.set(cls, { cls, evidence, ...(via ? { via } : {}) });
  };
  const folded = maskMentions(foldText(raw));
  const parts = sentences(folded).map((text) => {
    const lower = text.toLowerCase();
    return { text, lower, scan: gateScan(lower) };
  });
  // Signs of obfuscation open every gate (the gates read words as written) and the compact view.
  const open =
    depth > 0 || parts.some((p) => p.scan.obfuscated) || (folded !== raw && LATIN_ONLY(folded) !== LATIN_ONLY(raw));
  const lowerAll = folded.toLowerCase();
  const bitsAll: [number, number, number] = [0, 0, 0];
  for (const p of parts) {
    bitsAll[0] |= p.scan.bits[0];
    bitsAll[1] |= p.scan.bits[1];
    bitsAll[2] |= p.scan.bits[2];
  }
  const special = SPECIAL.test(raw) || (folded !== raw && SPECIAL.test(folded));
  // Most texts have no word any gate needs and no character a decoder, a marker or a value check needs: done.
  if (
    !open &&
    !special &&
    (input.kind !== 'value' || !/[/.]/.test(folded)) &&
    !anyGate({ cased: folded, lower: lowerAll, bits: bitsAll, open, inParam: input.inParam })
  )
    return [];

  for (const { text, lower, scan } of parts) {
    const cjk = special && hasCjk(text);
    const pre: Pre = {
      cased: text,
      lower: cjk ? joinSpelled(lower) : lower,
      bits: scan.bits,
      open,
      inParam: input.inParam,
    };
    let s: Sentence | undefined;
    for (const cls of POISON_CLASSES) {
      if (found.has(cls)) continue;
      for (const m of scan.latin ? EN[cls] : []) {
        if (!m.gate(pre)) continue;
        s ??= { ...sentenceViews(text), inParam: input.inParam, params: paramNames?.() ?? NO_PARAMS };
        const ev = m.run(s);
        if (ev) {
          add(cls, ev);
          break;
        }
      }
      if (found.has(cls) || !cjk) continue;
      for (const m of ZH[cls]) {
        if (!m.gate(pre)) continue;
        s ??= { ...sentenceViews(text), inParam: input.inParam, params: paramNames?.() ?? NO_PARAMS };
        const ev = m.run(s);
        if (ev) {
          add(cls, ev);
          break;
        }
      }
    }
  }

  const marker = /[<[#]/.test(folded) ? usedMarker(folded) : undefined;
  if (marker) add('override', marker);

  const turned = (bitsAll[TURNED_BIT.word] & TURNED_BIT.bit) !== 0;
  const compact = open || turned ? compactOf(lowerAll) : '';
  const variants = turned ? compactVariants(compact).filter((v) => COMPACT_WORTH.test(v.text)) : [];
  if (open) variants.unshift({ via: '', text: compact });
  for (const { via, text } of variants) {
    for (const cls of POISON_CLASSES) {
      if (found.has(cls)) continue;
      for (const re of compactPatterns()[cls]) {
        const m = re.exec(text);
        if (m) {
          add(cls, cut(m[0]), via || undefined);
          break;
        }
      }
    }
  }

  if (input.kind === 'value') valueFindings(folded, input, add);

  // Only characters an encoding brings make a decoder worth running (gateScan's `coded`, or a special one).
  if (depth < MAX_DEPTH && (special || parts.some((p) => p.scan.coded))) {
    const decoded = decodeInline(raw, cleanText(raw));
    if (decoded) {
      const via = decoded.via.join(', ');
      for (const f of detectText({ ...input, text: decoded.text, kind: 'prose' }, depth + 1, paramNames))
        add(f.cls, f.evidence, f.via ? `${via}, then ${f.via}` : via);
    }
  }
  return [...found.values()];
}

/**
 * A value that is itself a secret: a credential variable's reference, or a secret file for a
 * parameter that is not a path.
 */
function valueFindings(folded: string, input: TextInput, add: (cls: PoisonClass, ev: string) => void) {
  const env = ENV_ONLY.exec(folded);
  if (env && SECRETISH.test(folded)) add('secret-env', cut(folded));
  SECRET_PATH.lastIndex = 0;
  if (SECRET_PATH.test(folded.toLowerCase()) && !input.pathParam?.()) add('secret-file', cut(folded));
}

// A phrase quoted after words that talk about it ("reports phrases such as 'ignore previous
// instructions'", "检测诸如“忽略之前的指令”的文本") is mentioned, not said: it is blanked out.
const MENTION =
  /((?:such as|like|phrases?|e\.g\.,?|for example|for instance|patterns?|strings?|words?|texts?|called|named|titled|detects?|flags?|reports?|catches|blocks?|filters?|rejects?|strips?|scans? for|warns? about|mentions of|looks? for|例如|比如|诸如|类似|像是?|检测|过滤|拦截|识别)\s*[:：,，-]?\s*)(["“「『'‘`])([^"”」』'’`\n]{1,200})(["”」』'’`])/gi;

function maskMentions(text: string): string {
  return /["“「『‘`]|'[^'\n]{2,}'/.test(text)
    ? text.replace(MENTION, (_, cue: string, open: string, __: string, close: string) => `${cue}${open}…${close}`)
    : text;
}
