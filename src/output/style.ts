// Colour without a dependency: the few ANSI styles toolbox prints, at chalk's level 1 (16 colours).
// chalk cost ~13 ms of module loading on every command, most of which never print in colour.

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  underline: [4, 24],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;

/** The colour functions commands and formatters use; all identity when colour is off. */
export type Style = Record<keyof typeof CODES, (s: string) => string>;

/** Styles that emit ANSI escapes when `on`, else return the text unchanged. */
export function makeStyle(on: boolean): Style {
  const out = {} as Style;
  for (const [name, [open, close]] of Object.entries(CODES) as [keyof Style, readonly [number, number]][]) {
    const o = `\u001b[${open}m`;
    const c = `\u001b[${close}m`;
    // A nested style that closes ours (bold inside dim, a colour inside a colour) re-opens it after.
    out[name] = on
      ? (s: string) =>
          o +
          String(s)
            .split(c)
            .join(c + o) +
          c
      : (s: string) => String(s);
  }
  return out;
}
