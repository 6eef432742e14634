// Regular expressions from contracts (`pattern`, `patternProperties`) run on arguments that any
// caller sends: they go through RE2 (re2js), whose matching time is linear in the input, so a
// pattern such as ^(a+)+$ cannot freeze the process. JavaScript-only features (lookaround,
// backreferences) are refused when the contract is checked.
import { createRequire } from 'node:module';

// re2js costs ~15-40 ms to load, and most contracts have no pattern: loaded on the first one
// (through its CommonJS build, synchronously), so `run` of a tool without patterns never pays.
let re2: typeof import('re2js').RE2JS | undefined;
const RE2 = () => (re2 ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS);

/** Something with `test`, as ajv's `code.regExp` engine must return. */
export interface LinearRegExp {
  test(s: string): boolean;
  toString(): string;
}

/** ECMAScript escapes RE2 spells differently: \uXXXX and \u{X…} become \x{…}; everything else is kept. */
function toRe2(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = pattern[i + 1];
    if (next === 'u') {
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 2));
      const plain = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2));
      if (braced) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
        continue;
      }
      if (plain) {
        out += `\\x{${plain[0]}}`;
        i += 5;
        continue;
      }
    }
    out += c + (next ?? '');
    i++;
  }
  return out;
}

const cache = new Map<string, LinearRegExp>();

/** A linear-time matcher for an ECMAScript pattern (search semantics, as RegExp.test); throws on bad syntax. */
export function linearRegExp(pattern: string, flags = ''): LinearRegExp {
  const key = `${flags}/${pattern}`;
  let hit = cache.get(key);
  if (!hit) {
    const re = RE2().compile(toRe2(pattern), flags.includes('i') ? RE2().CASE_INSENSITIVE : 0);
    // toString: ajv keys its compiled-pattern cache by it (a RegExp's is /source/flags).
    hit = { test: (s: string) => re.matcher(s).find(), toString: () => `/${pattern}/${flags}` };
    if (cache.size > 1000) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}

/** Why the linear-time engine cannot run a pattern (lookaround, backreference…), or undefined. */
export function linearProblem(pattern: string): string | undefined {
  try {
    linearRegExp(pattern);
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^error parsing regexp: /, '');
  }
}

/** The atoms of a group's body (a char, an escape, a class, `.`); undefined when it holds a group or an alternation. */
function atomsOf(body: string): string[] | undefined {
  const atoms: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '(' || c === '|') return undefined;
    if ('*+?'.includes(c)) continue;
    const bound = c === '{' ? /^\{\d+(,\d*)?\}/.exec(body.slice(i)) : null;
    if (bound) {
      i += bound[0].length - 1;
      continue;
    }
    let end = i + (c === '\\' ? 2 : 1);
    if (c === '[') {
      for (end = i + 1; end < body.length && body[end] !== ']'; end++) if (body[end] === '\\') end++;
      end++;
    }
    atoms.push(body.slice(i, end));
    i = end - 1;
  }
  return atoms;
}

/**
 * Whether each repetition of a group's body starts with a literal character that nothing else in the body
 * can match, as `-` in (-[a-z]+)*: then that character marks where each repetition begins, and the input
 * splits into repetitions one way only (no catastrophic backtracking).
 */
function delimited(group: string): boolean {
  if (group.startsWith('?') && !group.startsWith('?:')) return false;
  const body = group.startsWith('?:') ? group.slice(2) : group;
  const [first, ...rest] = atomsOf(body) ?? [];
  if (!first || /^[*+?{]/.test(body.slice(first.length))) return false;
  const lead = /^\\[^\w\s]$/.test(first) ? first[1]! : first.length === 1 && !'.^$'.includes(first) ? first : '';
  return lead !== '' && rest.every((a) => plain(a) && !matchesChar(a, lead));
}

/**
 * Whether an atom holds no escape but `\d \w \s`, their negations and escaped punctuation. Other escapes
 * (`\x2d`, `\u002d`, `\55`, `\p{L}`, `\cM`…) name characters that `atomsOf` cuts apart, or that
 * JavaScript reads differently with and without the `u` flag: a doubt, so the finding stays.
 */
function plain(atom: string): boolean {
  return !/\\(?![dDwWsS]|[^\w\s])/.test(atom);
}

/** Whether an atom can match the character `c` (true when JavaScript cannot read the atom alone). */
function matchesChar(atom: string, c: string): boolean {
  try {
    return new RegExp(`^(?:${atom})$`).test(c);
  } catch {
    return true;
  }
}

/**
 * Whether a pattern has a quantified group that itself contains an unbounded quantifier, as in
 * (a+)+ or (\w*,?)*: catastrophic under backtracking engines (other validators of the same schema).
 * Not when a literal character starts each repetition and nothing else in the group matches it, as in
 * ^[a-z]+(-[a-z]+)*$ (see `delimited`).
 */
export function hasNestedQuantifier(pattern: string): boolean {
  const stack: { inner: boolean; start: number }[] = [];
  let inner = false;
  const unboundedAt = (i: number) => {
    const c = pattern[i];
    if (c === '*' || c === '+') return true;
    if (c === '{') return /^\{\d+,\d*\}/.test(pattern.slice(i)) && !/^\{(\d+),\1\}/.test(pattern.slice(i));
    return false;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      continue;
    }
    if (c === '(') {
      stack.push({ inner, start: i });
      inner = false;
    } else if (c === ')') {
      const had: boolean = inner;
      const open = stack.pop();
      inner = open?.inner ?? false;
      if (had && unboundedAt(i + 1) && !(open && delimited(pattern.slice(open.start + 1, i)))) return true;
      inner ||= had;
    } else if (unboundedAt(i)) inner = true;
  }
  return false;
}
