import { execAll } from './govern.js';
// Text hidden by encoding, decoded so the patterns can read it: base64 (standard and URL-safe, with
// or without padding, wrapped over lines, short runs too), hex (plain, spaced, 0x, \x), percent-
// encoding, \u escapes, HTML character references, decimal and binary character codes, and
// Unicode tag characters (ASCII smuggling). A run counts only when it decodes to text (valid UTF-8,
// mostly printable, with letters), so hashes, ids and ordinary words cost one failed decode.

const MAX_RUNS = 24;
const MAX_DECODED = 8192;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text a model can read: letters (any script), and few control or replacement characters. */
function readable(s: string): boolean {
  if (s.length < 3) return false;
  let letters = 0;
  let bad = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (/\p{L}/u.test(ch)) letters++;
    else if ((cp < 0x20 && cp !== 9 && cp !== 10 && cp !== 13) || cp === 0xfffd || (cp >= 0x7f && cp < 0xa0)) bad++;
  }
  return letters >= 3 && bad === 0 && letters / [...s].length >= 0.45;
}

function bytesToText(bytes: Uint8Array): string | undefined {
  // Most candidates are not text at all: control bytes end them before any UTF-8 decoding.
  for (const b of bytes) if ((b < 0x20 && b !== 9 && b !== 10 && b !== 13) || b === 0x7f) return undefined;
  const t = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return !t.includes('\ufffd') && readable(t) ? t : undefined;
}

// Base64: runs of its alphabet, 8 characters or more; a run wrapped over lines (each line but the
// last a multiple of 4 long) is joined first. Ordinary words are skipped unless they look encoded
// (digits, + / =, or upper case after the first letter).
const B64_TOKEN = /[A-Za-z0-9+/_-]{2,}={0,2}/g;
const looksB64 = (s: string) => /[0-9+/=]/.test(s) || (/[a-z]/.test(s) && /[A-Z]/.test(s.slice(1)));

function fromBase64(run: string): string | undefined {
  if (run.length < 8 || !looksB64(run)) return undefined;
  const std = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (std.length % 4 === 1) return undefined;
  return bytesToText(Buffer.from(std, 'base64'));
}

/** Base64 candidates of a text: each token, and tokens joined across the white space that wraps them. */
function base64Runs(text: string): Run[] {
  const out: Run[] = [];
  let group: { tok: string; index: number }[] = [];
  let end = -1;
  const flush = () => {
    if (group.length > 1) out.push({ start: group[0]!.index, end, text: group.map((g) => g.tok).join('') });
  };
  for (const m of execAll(B64_TOKEN, text)) {
    const tok = m[0];
    if (tok.length >= 8 && looksB64(tok)) out.push({ start: m.index, end: m.index + tok.length, text: tok });
    const prev = group[group.length - 1];
    if (prev && prev.tok.length % 4 === 0 && /^\s+$/.test(text.slice(end, m.index)))
      group.push({ tok, index: m.index });
    else {
      flush();
      group = [{ tok, index: m.index }];
    }
    end = m.index + tok.length;
  }
  flush();
  return out;
}

interface Run {
  start: number;
  end: number;
  text: string;
}

// Hex bytes: "69676e6f7265", "69 67 6e", "0x69 0x67", "\x69\x67", "%69%67" (4 bytes or more).
const HEX_RUN = /(?:(?:0x|\\x|%)?[0-9a-fA-F]{2}[ ,:;]?){4,}/g;
function fromHex(run: string): string | undefined {
  const pairs = run.replace(/0x|\\x|%/gi, '').match(/[0-9a-fA-F]{2}/g);
  if (!pairs || pairs.length < 4) return undefined;
  // A plain run must be one block of pairs (a long number is not bytes).
  if (!/0x|\\x|%|[ ,:;]/i.test(run) && run.replace(/[ ,:;]/g, '').length % 2 !== 0) return undefined;
  return bytesToText(Uint8Array.from(pairs, (p) => parseInt(p, 16)));
}

const U_ESC = /(?:\\u\{[0-9a-fA-F]{1,6}\}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}){3,}/g;
function fromUEscapes(run: string): string | undefined {
  const cps = [...run.matchAll(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g)].map((m) =>
    parseInt(m[1] ?? m[2] ?? m[3]!, 16),
  );
  const text = decodeCodePoints(cps);
  return text && readable(text) ? text : undefined;
}

const ENTITY = /(?:&#(?:[xX][0-9a-fA-F]{1,6}|[0-9]{1,7});?){3,}/g;
function fromEntities(run: string): string | undefined {
  const cps = [...run.matchAll(/&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}))/g)].map((m) =>
    m[1] ? parseInt(m[1], 16) : parseInt(m[2]!, 10),
  );
  const text = decodeCodePoints(cps);
  return text && readable(text) ? text : undefined;
}

// Character codes in decimal ("105 103 110 …") or binary octets ("01101001 01100111 …").
const DECIMAL = /\b(?:\d{2,5}[ ,;]+){3,}\d{2,5}\b/g;
function fromDecimal(run: string): string | undefined {
  const cps = run.split(/[ ,;]+/).map(Number);
  if (!cps.every((c) => (c >= 32 && c < 127) || (c >= 0x3400 && c <= 0x9fff))) return undefined;
  const text = decodeCodePoints(cps);
  return text && readable(text) ? text : undefined;
}
const BINARY = /\b(?:[01]{8}[ ,]*){4,}/g;
function fromBinary(run: string): string | undefined {
  const bytes = run.match(/[01]{8}/g)!.map((b) => parseInt(b, 2));
  return bytesToText(Uint8Array.from(bytes));
}

function decodeCodePoints(cps: number[]): string | undefined {
  if (!cps.length || cps.some((c) => !Number.isFinite(c) || c < 0 || c > 0x10ffff)) return undefined;
  return String.fromCodePoint(...cps.slice(0, MAX_DECODED));
}

/** Unicode tag characters U+E0020–E007E spell ASCII that renders as nothing. */
function fromTags(raw: string): string | undefined {
  let out = '';
  for (const ch of raw) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) out += String.fromCharCode(cp - 0xe0000);
    else if (out && !out.endsWith(' ') && cp >= 0xe0000 && cp <= 0xe007f) out += ' ';
  }
  return out.trim().length >= 3 ? out : undefined;
}

// Percent-encoding is decoded wherever it is once there are three escaped bytes in the text: a
// path split into short runs ("%7E%2F%2Essh%2Fid_rsa") is as readable to a model as a long one.
const PERCENT = /(?:%[0-9a-fA-F]{2})+/g;
function fromPercent(run: string): string | undefined {
  const bytes = run.match(/[0-9a-fA-F]{2}/g)!.map((h) => parseInt(h, 16));
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

const DECODERS: { via: string; re: RegExp; decode(run: string): string | undefined }[] = [
  { via: 'hex', re: HEX_RUN, decode: fromHex },
  { via: '\\u escapes', re: U_ESC, decode: fromUEscapes },
  { via: 'HTML character references', re: ENTITY, decode: fromEntities },
  { via: 'character codes', re: DECIMAL, decode: fromDecimal },
  { via: 'binary', re: BINARY, decode: fromBinary },
];

const INLINE = new Set(['percent-encoding', '\\u escapes', 'HTML character references']);

/** A text with what it hides decoded in place, and how it was hidden. */
export interface Decoded {
  text: string;
  via: string[];
}

/**
 * The text with every encoded run replaced by what it says (in place, so a decoded path still
 * follows its verb), and hidden tag characters appended; undefined when nothing decodes. `raw`
 * is the text as written (for tag characters), `clean` the same with invisible characters removed
 * and compatibility forms composed (fullwidth base64 is base64).
 */
/** A cheap look for anything a decoder could read: most texts have none and skip the decoders. */
const ENCODED =
  /[a-z][A-Z]|[A-Za-z][0-9]{2}|[0-9][A-Za-z]|[A-Za-z][+/=]|[+/=][A-Za-z]|%[0-9a-fA-F]{2}|\\[xuU]|&#|[0-9a-fA-F]{2}[ ,:;][0-9a-fA-F]{2}[ ,:;][0-9a-fA-F]{2}|\d{2,5}[ ,;]+\d{2,5}[ ,;]+\d{2,5}[ ,;]+\d{2,5}|[01]{8}/;

export function decodeInline(raw: string, clean: string): Decoded | undefined {
  const tagged = /[\u{e0000}-\u{e007f}]/u.test(raw);
  if (!tagged && !ENCODED.test(clean)) return undefined;
  const found: (Run & { via: string })[] = [];
  for (const run of base64Runs(clean)) {
    if (found.length >= MAX_RUNS) break;
    const text = fromBase64(run.text);
    if (text) found.push({ ...run, text: text.slice(0, MAX_DECODED), via: 'base64' });
  }
  for (const d of DECODERS) {
    for (const m of execAll(d.re, clean)) {
      if (found.length >= MAX_RUNS) break;
      const text = d.decode(m[0].trim());
      if (text)
        found.push({ start: m.index, end: m.index + m[0].length, text: text.slice(0, MAX_DECODED), via: d.via });
    }
  }
  const percent = execAll(PERCENT, clean);
  if (percent.reduce((n, m) => n + m[0].length / 3, 0) >= 3)
    for (const m of percent.slice(0, MAX_RUNS)) {
      const text = fromPercent(m[0]);
      if (text !== undefined) found.push({ start: m.index, end: m.index + m[0].length, text, via: 'percent-encoding' });
    }
  const tags = tagged ? fromTags(raw) : undefined;
  if (!found.length && !tags) return undefined;
  // Earlier and longer runs win where runs overlap (a hex run inside a base64 token).
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  const via = new Set<string>();
  for (const r of found) {
    if (r.start < at) continue;
    // Escapes decode in place (a path stays one word); a decoded blob is set apart from its neighbours.
    const pad = INLINE.has(r.via) ? '' : ' ';
    out += `${clean.slice(at, r.start)}${pad}${r.text}${pad}`;
    at = r.end;
    via.add(r.via);
  }
  out += clean.slice(at);
  if (tags) {
    out += `\n\n${tags}`;
    via.add('Unicode tag characters');
  }
  return { text: out, via: [...via] };
}
