import type { LintRule } from '../types.js';
import { allStrings } from '../model-texts.js';

// Characters a reviewer cannot see but a model reads: zero-width and joiner characters, bidi
// overrides and isolates (Trojan Source), Unicode tag characters (ASCII smuggling), the
// supplementary variation selectors used to hide bytes, BOM and interlinear annotation marks.
const RANGES: [number, number][] = [
  [0x00ad, 0x00ad],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];
// Checked by code point: a regex class holding U+200D trips "combined character" lint and readers alike.
const isInvisible = (ch: string) => {
  const cp = ch.codePointAt(0)!;
  return RANGES.some(([a, b]) => cp >= a && cp <= b);
};

const NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM)',
};

/** "U+202E RIGHT-TO-LEFT OVERRIDE", "U+E0041 TAG LATIN CAPITAL LETTER A". */
export function describeCodePoint(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (NAMES[cp]) return `${hex} ${NAMES[cp]}`;
  if (cp >= 0xe0000 && cp <= 0xe007f)
    return `${hex} TAG CHARACTER${cp >= 0xe0020 && cp < 0xe007f ? ` '${String.fromCodePoint(cp - 0xe0000)}'` : ''}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `${hex} VARIATION SELECTOR`;
  return `${hex} invisible format character`;
}

/** Invisible or bidi-control characters anywhere in a contract: keys, values, every string. */
export const rule: LintRule = {
  meta: {
    id: 'contract-invisible-unicode',
    description: 'Invisible or bidirectional-control Unicode (zero-width, tag characters, RLO) in a contract.',
    severity: 'error',
    docs: 'A model reads characters a reviewer cannot see: tag characters smuggle whole instructions, bidi overrides make text read differently from how it is stored. No tool contract needs them; delete them.',
  },
  check(ctx) {
    for (const s of allStrings(ctx.data)) {
      const found = [...s.text].filter(isInvisible);
      if (found.length === 0) continue;
      const count = found.length;
      const hidden = [...s.text]
        .filter((ch) => {
          const cp = ch.codePointAt(0)!;
          return cp >= 0xe0020 && cp < 0xe007f;
        })
        .map((ch) => String.fromCodePoint(ch.codePointAt(0)! - 0xe0000))
        .join('');
      const where = s.path.length ? s.path.join('.') : 'the contract';
      ctx.report({
        path: s.path,
        message: `${where} contains ${count} invisible character${count === 1 ? '' : 's'} (first: ${describeCodePoint(found[0]!.codePointAt(0)!)})${hidden ? `; the tag characters spell "${hidden.slice(0, 80)}"` : ''}`,
        hint: 'Delete the invisible characters (an editor showing whitespace/control characters finds them); re-read the text after removing them.',
      });
    }
  },
};
