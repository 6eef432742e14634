// The few styles toolbox prints. Off a terminal they are plain identity functions and chalk is never loaded
// (it cost ~13 ms of module loading on every command, most of which never print in colour); when colour is on,
// chalkStyle() backs them with chalk, which knows the terminal's colour level.

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

/** The same styles rendered by chalk (loaded only here, when colour is on). */
export async function chalkStyle(): Promise<Style> {
  const { Chalk, default: detected } = await import('chalk');
  // FORCE_COLOR may force colour where chalk's own detection sees no terminal: never below 16 colours then.
  const chalk = new Chalk({ level: Math.max(1, detected.level) as 1 | 2 | 3 });
  const out = {} as Style;
  for (const name of Object.keys(CODES) as (keyof Style)[]) out[name] = (s: string) => chalk[name](String(s));
  return out;
}
