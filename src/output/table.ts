import { displayWidth, isWide } from '../util/width.js';

/** Cut `s` to at most `max` display columns, ending in '…' when cut. */
export function truncate(s: string, max: number): string {
  if (displayWidth(s) <= max) return s;
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = isWide(ch.codePointAt(0)!) ? 2 : 1;
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return out + '…';
}

const pad = (s: string, w: number, right = false) => {
  const fill = ' '.repeat(Math.max(0, w - displayWidth(s)));
  return right ? fill + s : s + fill;
};

/**
 * A plain text table (no borders, two spaces between columns) that lines up CJK text.
 * The last column is truncated to fit `width` when given.
 */
export function renderTable(
  headers: string[],
  rows: string[][],
  opts: { width?: number; align?: ('l' | 'r')[]; header?: (s: string) => string } = {},
): string {
  const cols = headers.length;
  const widths = headers.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  if (opts.width && cols > 1) {
    const fixed = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
    widths[cols - 1] = Math.max(10, Math.min(widths[cols - 1]!, opts.width - fixed));
  }
  const line = (r: string[], isHeader = false) =>
    r
      .map((c, i) => {
        const cell = i === cols - 1 ? truncate(c ?? '', widths[i]!) : (c ?? '');
        const padded =
          i === cols - 1 && opts.align?.[i] !== 'r' ? cell : pad(cell, widths[i]!, opts.align?.[i] === 'r');
        return isHeader && opts.header ? opts.header(padded) : padded;
      })
      .join('  ')
      .trimEnd();
  return [line(headers, true), ...rows.map((r) => line(r))].join('\n') + '\n';
}
