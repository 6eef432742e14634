// Text that is safe to show: terminal control sequences (OSC 52 clipboard writes, OSC 8 links,
// OSC 0/2 titles, CSI cursor moves and screen clears), C0/C1 controls and bidi overrides removed
// (`inert`), and JSON that keeps every character exactly while writing those as escapes
// (`jsonText`). Used by the human output of every command (src/output/inert.ts wraps stdout and
// stderr) and by serve for the contract text it hands MCP clients.

// C0 controls but tab and newline (CR is kept only before LF), DEL, C1, and the bidi embedding,
// override and isolate controls.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_G = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

// The SGR parameters toolbox's styles (and chalk's, for the same styles) emit: bold, dim,
// underline, six colours and their resets. Any other SGR (conceal, black on black, blink) is dropped.
const OWN_SGR = new Set(['1', '2', '4', '22', '24', '31', '32', '33', '34', '35', '36', '39']);

const ESC = 0x1b;
const BEL = 0x07;

/** Where a control string (OSC, DCS, SOS, PM, APC) that starts at `i` ends: after BEL or ST, else the end. */
function stringEnd(s: string, i: number): number {
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === BEL || c === 0x9c) return j + 1;
    if (c === ESC && s[j + 1] === '\\') return j + 2;
  }
  return s.length;
}

/** Where a CSI whose parameters start at `i` ends (after its final byte), and its parameter text. */
function csiEnd(s: string, i: number): { end: number; params: string; final: string } {
  let j = i;
  while (j < s.length && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x3f) j++;
  const params = s.slice(i, j);
  while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
  const c = s.charCodeAt(j);
  if (c >= 0x40 && c <= 0x7e) return { end: j + 1, params, final: s[j]! };
  return { end: j, params, final: '' }; // malformed or cut off: dropped up to here
}

/**
 * `text` without terminal control sequences and controls: escape sequences and C1 sequences are
 * removed whole (their payload too), other controls but tab and newline removed, CR kept only
 * before LF, bidi embedding/override/isolate controls removed. With `colour`, toolbox's own SGR
 * colour sequences are kept. Text without any of these is returned as it is (the common case).
 */
export function inert(text: string, opts: { colour?: boolean } = {}): string {
  if (!UNSAFE.test(text)) return text;
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const safe =
      c >= 0x20
        ? c < 0x7f || (c > 0x9f && (c < 0x202a || c > 0x2069 || (c > 0x202e && c < 0x2066)))
        : c === 0x09 || c === 0x0a;
    if (safe) {
      i++;
      continue;
    }
    out += text.slice(from, i);
    let next = i + 1;
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) out += '\r';
    else if (c === ESC || c === 0x9b || c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) {
      // The 7-bit introducer ESC X is the 8-bit C1 control X + 0x40.
      const intro = c === ESC ? text[i + 1] : String.fromCharCode(c - 0x40);
      const body = c === ESC ? i + 2 : i + 1;
      if (intro === '[') {
        const csi = csiEnd(text, body);
        const own = opts.colour && c === ESC && csi.final === 'm' && csi.params.split(';').every((p) => OWN_SGR.has(p));
        if (own) out += text.slice(i, csi.end);
        next = csi.end;
      } else if (intro === ']' || intro === 'P' || intro === 'X' || intro === '^' || intro === '_') {
        next = stringEnd(text, body);
      } else if (c === ESC && intro !== undefined) {
        // ESC, intermediates, a final byte (ESC c resets the terminal, ESC ( 0 switches charsets …).
        let j = i + 1;
        while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
        next = j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x7e ? j + 1 : j;
      }
    }
    i = from = next;
  }
  return out + text.slice(from);
}

/**
 * JSON text whose value is exactly `value`'s, with the characters `inert` would remove written as
 * `\uXXXX` escapes (JSON.stringify escapes C0 controls itself, but not DEL, C1 or bidi controls).
 */
export function jsonText(value: unknown, indent?: number): string {
  const s = JSON.stringify(value, null, indent);
  if (s === undefined || !UNSAFE.test(s)) return s;
  return s.replace(UNSAFE_G, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
