// A small notation for the poisoning patterns, so that a phrase reads like the phrase:
//   ' '     one or more non-word characters (a space, a quote, a colon, a line break, '**')
//   '~N'    then up to N more words ("ignore~3 instructions": "ignore all of your instructions")
//   {NAME}  an alternation from the vocabulary passed in
// Patterns are matched against lower-case text; no nested quantifiers, so every match is linear.

export type Vocab = Record<string, string>;

/** Compile a phrase pattern over `vocab` (case-insensitive is unnecessary: views are lower case). */
export function rx(src: string, vocab: Vocab, flags = ''): RegExp {
  const expanded = src.replace(/\{([A-Z_]+)\}/g, (_, name: string) => {
    const v = vocab[name];
    if (v === undefined) throw new Error(`poison pattern: unknown vocabulary {${name}}`);
    return `(?:${v})`;
  });
  const body = expanded.replace(/~(\d)/g, (_, n: string) => `(?:\\W+[a-z0-9'’-]+){0,${n}}?`).replace(/ +/g, '\\W+');
  return new RegExp(body, flags);
}

// Leetspeak a compact pattern accepts for each letter (the compact view keeps digits as they are).
const LEET_CLASS: Record<string, string> = {
  a: '[a4]',
  e: '[e3]',
  i: '[i1l]',
  l: '[l1i]',
  o: '[o0]',
  s: '[s5]',
  t: '[t7]',
  g: '[g9]',
  b: '[b8]',
};

/**
 * A compact pattern (no spaces: it is matched against letters and digits only) with each letter
 * outside a character class widened to its leetspeak digits: "ignore" also matches "1gn0r3".
 */
export function compactRx(src: string): RegExp {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      out += c + (src[i + 1] ?? '');
      i++;
    } else if (c === '[') {
      const end = src.indexOf(']', i);
      out += src.slice(i, end + 1);
      i = end;
    } else if (c === '{') {
      const end = src.indexOf('}', i);
      out += src.slice(i, end + 1);
      i = end;
    } else if (c === '(' && src[i + 1] === '?') {
      out += '(?';
      i++;
    } else out += LEET_CLASS[c] ?? c;
  }
  return new RegExp(out, 'u');
}

/** The first match of any pattern, trimmed and cut for a message. */
export function firstOf(text: string, patterns: readonly RegExp[]): string | undefined {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return cut(m[0]);
  }
  return undefined;
}

/** Trimmed and at most `n` characters ("…" when cut). */
export function cut(s: string, n = 120): string {
  const t = s.trim().replace(/\s+/g, ' ');
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}
