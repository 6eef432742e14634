// Traditional and simplified Chinese are one language to the selector: before any analysis, every
// Han character is folded to its simplified form, on the document side and the query side alike,
// as letters are lower-cased. 查詢天氣 and 查询天气 then have the same words, bigrams, characters
// and glossary translations. The table (data/cedict-t2s.tsv, built from CC-CEDICT's traditional
// headwords by scripts/build-cedict.mjs) maps one UTF-16 unit to one, so a folded text keeps every
// position of the original (`why` shows the user's own characters by position, surfaceWords).
// Folding is a normalisation, not a translation: the few characters that are both a traditional
// form and a simplified character of their own (著, 乾) fold the same way everywhere, and the
// glossary stores its headwords folded, so both scripts meet.
import { readFileSync } from 'node:fs';
import { packagePath } from '../util/assets.js';

/** Where the table lives: data/ at the package root. */
export const FOLD_FILE = packagePath('data', 'cedict-t2s.tsv');

const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * The table as records of four UTF-16 units, `T<TAB>S<LF>`, sorted by T: the shipped file is exactly
 * that, so it is searched as read, with nothing parsed or allocated (a Chinese query already reads the
 * glossary; this adds a 27 KB read). Any other file is parsed line by line into that form.
 */
function records(text: string): string {
  const n = text.length;
  const fixed = n % 4 === 0 && text[1] === '\t' && text[3] === '\n' && text[n - 3] === '\t' && text[n - 1] === '\n';
  if (fixed) return text;
  const lines = text.split('\n').filter((l) => l.length === 3 && l[1] === '\t');
  lines.sort((a, b) => a.charCodeAt(0) - b.charCodeAt(0));
  return lines.map((l) => l + '\n').join('');
}

/** The simplified form of UTF-16 unit `c` in `table` (records), or 0 when it has none. */
function lookup(table: string, c: number): number {
  let lo = 0;
  let hi = (table.length >> 2) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = table.charCodeAt(mid << 2);
    if (k === c) return table.charCodeAt((mid << 2) + 2);
    if (k < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** A folding function over the table file `file`; a missing or unreadable file folds nothing. */
export function openFold(file: string): (text: string) => string {
  let table: string | null | undefined;
  const load = (): string | null => {
    try {
      return records(readFileSync(file, 'utf8'));
    } catch {
      return null;
    }
  };
  return (text) => {
    if (!HAN.test(text)) return text;
    if (table === undefined) table = load();
    if (!table) return text;
    let out: string[] | undefined;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const to = (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ? lookup(table, c) : 0;
      if (to) (out ??= text.slice(0, i).split(''))[i] = String.fromCharCode(to);
      else if (out) out[i] = text[i]!;
    }
    return out ? out.join('') : text;
  };
}

/** `text` with traditional (and variant) Han characters folded to simplified ones; other text as it is. */
export const foldHan: (text: string) => string = openFold(FOLD_FILE);
