// A position-free parser for the YAML that contracts are written in: block mappings and
// sequences, plain and quoted one-line scalars, `|`/`>` block scalars (clip or strip) and
// one-line flow collections. It is ~20x faster than building the `yaml` package's document with
// positions. It refuses (returns undefined) on anything it is not sure of (anchors, aliases, tags,
// directives, document markers, tabs, CR, control characters, complex or duplicate keys, multi-line
// plain or quoted scalars, keep chomping, odd indentation, scalars that YAML 1.2's core schema
// could type as something else than the obvious), and the caller then asks `yaml`. Equivalence
// with `yaml` is what test/contract/fast-yaml.test.ts checks, on real and fuzzed documents.

/** A parsed document: the root mapping, and the 1-based line of each of its keys. */
export interface FastYaml {
  value: Record<string, unknown>;
  keyLines: Map<string, number>;
}

class NotMine extends Error {}
const NOT_MINE = new NotMine('not mine');
const no = (): never => {
  throw NOT_MINE;
};

/**
 * Whether `text` has a character the fast path leaves to `yaml`: tabs, CR, C0/C1 controls, BOM,
 * U+FFFE/U+FFFF and the Unicode line separators (a loop: 3x faster than a regex class here).
 */
export function hasRefusedChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a) continue;
    if (c < 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff || c === 0xfffe || c === 0xffff) return true;
    // White space to JavaScript's trim() but not to YAML (which knows only space and tab): the parser
    // trims, so a value ending in U+00A0 or U+3000 would lose it.
    if (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000)
      return true;
  }
  return false;
}
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$./-]*/;
// Words the core schema types as null/bool in any spelling; only the lowercase ones are accepted.
const SPECIAL = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const SIMPLE_NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/;
// A superset of every number form of YAML 1.2's core schema (int, octal, hex, float, exp, inf, nan).
const NUMBER_LIKE =
  /^[-+]?(?:[0-9]+|0o[0-7]+|0x[0-9a-f]+|\.[0-9]+|[0-9]+\.[0-9]*|(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)e[-+]?[0-9]+|\.(?:inf|nan))$/i;
const INDICATOR = new Set([...'-?:,[]{}#&*!|>\'"%@`']);
const FLOW_STOP = /[,[\]{}]/;

/** The type the core schema gives a plain scalar, or a refusal when not obvious. */
export function plainScalar(s: string): unknown {
  if (s === '') return no();
  if (SPECIAL.test(s)) {
    if (s === 'null' || s === '~') return null;
    if (s === 'true') return true;
    if (s === 'false') return false;
    return no();
  }
  if (SIMPLE_NUMBER.test(s)) return /^-0(?:\.0*)?$/.test(s) ? no() : Number(s);
  if (NUMBER_LIKE.test(s)) return no();
  // `-w`, `--json`: a dash followed by a letter, digit or dash starts a plain scalar.
  if (INDICATOR.has(s[0]!) && !(s[0] === '-' && /^-[-A-Za-z0-9]/.test(s))) return no();
  return s;
}

/** A one-line double- or single-quoted scalar starting at `s[i]`: its value and the index after it. */
export function quoted(s: string, i: number): [string, number] {
  const q = s[i]!;
  let out = '';
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j]!;
    if (q === "'") {
      if (c !== "'") out += c;
      else if (s[j + 1] === "'") {
        out += "'";
        j++;
      } else return [out, j + 1];
    } else if (c === '"') return [out, j + 1];
    else if (c !== '\\') out += c;
    else {
      const e = s[++j];
      const simple = e === undefined ? undefined : ESCAPES[e];
      if (simple !== undefined) out += simple;
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(j + 1, j + 5))) {
        out += String.fromCharCode(parseInt(s.slice(j + 1, j + 5), 16));
        j += 4;
      } else no();
    }
  }
  return no(); // not closed on this line
}
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '0': '\0',
};

/** Parse `text` if it is in the subset; undefined means "not mine: ask `yaml`". */
export function fastParseYaml(text: string): FastYaml | undefined {
  if (hasRefusedChar(text)) return undefined;
  try {
    return new Parser(text.split('\n')).document();
  } catch {
    // NOT_MINE, or anything else (a stack overflow on thousands of nested brackets): `yaml` decides,
    // and reports a malformed file at its line and column. This parser never fails a file itself.
    return undefined;
  }
}

const indentOf = (l: string) => {
  let n = 0;
  while (l.charCodeAt(n) === 32) n++;
  return n;
};
const isBlank = (l: string) => {
  const t = l.trimStart();
  return t === '' || t[0] === '#';
};
/** The rest of a line after a value must be nothing or a comment. */
const restIsEnd = (rest: string) => rest.trim() === '' || /^ +#/.test(rest);

class Parser {
  private i = 0;
  constructor(private readonly lines: string[]) {}

  document(): FastYaml {
    this.skip();
    if (this.i >= this.lines.length || indentOf(this.lines[this.i]!) !== 0) no();
    const keyLines = new Map<string, number>();
    const value = this.map(0, keyLines);
    this.skip();
    if (this.i < this.lines.length) no();
    return { value, keyLines };
  }

  private skip() {
    while (this.i < this.lines.length && isBlank(this.lines[this.i]!)) this.i++;
  }

  /** The block node whose first line is the current one, at indentation `ind`. */
  private node(ind: number): unknown {
    const t = this.lines[this.i]!.slice(ind);
    return t === '-' || t.startsWith('- ') ? this.seq(ind) : this.map(ind);
  }

  private map(ind: number, keyLines?: Map<string, number>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skip();
      if (this.i >= this.lines.length) return out;
      const line = this.lines[this.i]!;
      const at = indentOf(line);
      if (at < ind) return out;
      if (at > ind) no();
      const [key, after] = this.key(line, ind);
      if (Object.prototype.hasOwnProperty.call(out, key)) no();
      keyLines?.set(key, this.i + 1);
      out[key] = this.value(line.slice(after), ind, true);
    }
  }

  /** A key at `line[ind]` followed by ':' and a space or the end: the key and the index after ':'. */
  private key(line: string, ind: number): [string, number] {
    let key: string;
    let end: number;
    const c = line[ind];
    if (c === '"' || c === "'") [key, end] = quoted(line, ind);
    else {
      const m = PLAIN_KEY.exec(line.slice(ind));
      if (!m) return no();
      key = m[0];
      end = ind + key.length;
      if (SPECIAL.test(key) || key.length > 200) no();
    }
    if (UNSAFE_KEYS.has(key) || line[end] !== ':' || (end + 1 < line.length && line[end + 1] !== ' ')) no();
    return [key, end + 1];
  }

  private seq(ind: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skip();
      if (this.i >= this.lines.length) return out;
      const line = this.lines[this.i]!;
      const at = indentOf(line);
      if (at < ind) return out;
      const t = line.slice(ind);
      if (at > ind || !(t === '-' || t.startsWith('- '))) return at > ind ? no() : out;
      const rest = t.slice(1);
      const body = indentOf(rest);
      const c = rest[body];
      if (c !== undefined && c !== '#' && this.startsEntry(rest.slice(body))) {
        // `- key: value`: a mapping at the column of its first key; the dash counts as indentation.
        const col = ind + 1 + body;
        this.lines[this.i] = ' '.repeat(col) + rest.slice(body);
        out.push(this.node(col));
      } else out.push(this.value(rest, ind, false));
    }
  }

  private startsEntry(t: string): boolean {
    if (t.startsWith('- ') || t === '-') return true;
    if (t[0] === '"' || t[0] === "'") {
      try {
        const [, end] = quoted(t, 0);
        return t[end] === ':' && (end + 1 === t.length || t[end + 1] === ' ');
      } catch (e) {
        if (e === NOT_MINE) return false;
        throw e;
      }
    }
    const m = PLAIN_KEY.exec(t);
    return !!m && t[m[0].length] === ':' && (m[0].length + 1 === t.length || t[m[0].length + 1] === ' ');
  }

  /**
   * The value after `key:` or `-` (`rest`, from just after the indicator) of an entry of the
   * collection at indentation `ind`. Consumes its lines.
   */
  private value(rest: string, ind: number, inMap: boolean): unknown {
    this.i++;
    const body = rest.trimStart();
    if (body !== '' && rest[0] !== ' ') no();
    if (body === '' || body[0] === '#') {
      this.skip();
      if (this.i >= this.lines.length) return null;
      const next = this.lines[this.i]!;
      const at = indentOf(next);
      if (at > ind) return this.node(at);
      const t = next.slice(ind);
      if (inMap && at === ind && (t === '-' || t.startsWith('- '))) return this.seq(ind);
      return null;
    }
    const c = body[0]!;
    if (c === '|' || c === '>') return this.block(body, ind);
    if (c === '"' || c === "'") {
      const [v, end] = quoted(body, 0);
      if (!restIsEnd(body.slice(end))) no();
      return v;
    }
    if (c === '[' || c === '{') {
      const [v, end] = flow(body, 0);
      if (!restIsEnd(body.slice(end))) no();
      return v;
    }
    const hash = body.indexOf(' #');
    const s = (hash >= 0 ? body.slice(0, hash) : body).trimEnd();
    if (s.includes(': ') || s.endsWith(':') || s.includes(' #')) no();
    return plainScalar(s);
  }

  /** A `|` or `>` block scalar (clip or strip chomping) under a node at indentation `ind`. */
  private block(header: string, ind: number): string {
    const m = /^([|>])(-?) *$/.exec(header);
    if (!m || this.i >= this.lines.length) return no();
    const first = this.lines[this.i]!;
    const at = indentOf(first);
    if (at <= ind || at === first.length) no();
    const content: string[] = [];
    let last = -1; // index in content of the last non-empty line
    while (this.i < this.lines.length) {
      const l = this.lines[this.i]!;
      const n = indentOf(l);
      if (n === l.length) {
        if (n > at) no(); // spaces beyond the indentation on an empty line
        content.push('');
      } else if (n < at) break;
      else {
        content.push(l.slice(at));
        last = content.length - 1;
      }
      this.i++;
    }
    // Trailing empty lines belong to the chomping: give them back to the parent as blank lines.
    this.i -= content.length - 1 - last;
    const lines = content.slice(0, last + 1);
    let text: string;
    if (m[1] === '|') text = lines.join('\n');
    else {
      text = '';
      let empty = 0;
      for (const [k, l] of lines.entries()) {
        if (l === '') {
          empty++;
          continue;
        }
        if (l[0] === ' ') no(); // more-indented lines are not folded: leave them to `yaml`
        if (k > 0) text += empty ? '\n'.repeat(empty) : ' ';
        text += l;
        empty = 0;
      }
    }
    return m[2] === '-' ? text : text + '\n';
  }
}

/** A one-line flow collection or scalar starting at `s[i]`: its value and the index after it. */
export function flow(s: string, i: number): [unknown, number] {
  const c = s[i];
  if (c === '"' || c === "'") return quoted(s, i);
  if (c === '[' || c === '{') {
    const close = c === '[' ? ']' : '}';
    const out: unknown[] | Record<string, unknown> = c === '[' ? [] : {};
    let j = skipSpaces(s, i + 1);
    if (s[j] === close) return [out, j + 1];
    for (;;) {
      if (Array.isArray(out)) {
        const [v, end] = flow(s, j);
        out.push(v);
        j = skipSpaces(s, end);
      } else {
        const q = s[j];
        let key: string;
        if (q === '"' || q === "'") [key, j] = quoted(s, j);
        else {
          const m = PLAIN_KEY.exec(s.slice(j));
          if (!m || SPECIAL.test(m[0])) return no();
          key = m[0];
          j += key.length;
        }
        if (UNSAFE_KEYS.has(key) || Object.prototype.hasOwnProperty.call(out, key)) no();
        if (s[j] !== ':' || s[j + 1] !== ' ') no();
        const [v, end] = flow(s, skipSpaces(s, j + 1));
        out[key] = v;
        j = skipSpaces(s, end);
      }
      if (s[j] === close) return [out, j + 1];
      if (s[j] !== ',') no();
      j = skipSpaces(s, j + 1);
      if (s[j] === close || s[j] === ',') no(); // trailing or empty entry
    }
  }
  let j = i;
  while (j < s.length && !FLOW_STOP.test(s[j]!)) j++;
  const raw = s.slice(i, j).trimEnd();
  if (raw.includes(':') || raw.includes('#')) no();
  return [plainScalar(raw), j];
}

const skipSpaces = (s: string, i: number) => {
  while (s[i] === ' ') i++;
  return i;
};
