// What a YAML parser says about an indentation slip ("Nested mappings are not allowed in compact
// mappings", "All mapping items must start at the same column", often two of them, on another line)
// names the grammar, not the mistake. This finds the line whose indentation does not fit the block
// structure around it, so the contract's author gets one message that says "indentation" and points
// at that line, with a code frame.
import type { Pos } from './yaml-source.js';

/** One indentation slip: where, what, and how to fix it. */
export interface IndentSlip {
  pos: Pos;
  message: string;
  hint: string;
}

interface Line {
  no: number;
  indent: number;
  /** The line without its indentation and trailing comment. */
  text: string;
  /** The key of a `key:` line (after a `- ` for a sequence item), else undefined. */
  key?: string;
  /** Ends with `:` (a key whose value is the block below), `- ` or a block scalar indicator. */
  opens: boolean;
  /** Indent of a mapping that starts inside a `- key: …` item (the key's column). */
  itemKeyIndent?: number;
  scalarBlock: boolean;
  /** A quote or flow collection opened on this line and not closed: the lines below continue it. */
  open?: { quote?: string; depth: number };
}

const KEY = /^((?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[\]}:,][^#:]*?))[ \t]*:(?:[ \t]|$)/;

function stripComment(s: string): string {
  // A `#` starts a comment only at the start or after whitespace, and not inside quotes.
  let q: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (q) {
      if (c === q) q = undefined;
    } else if (c === '"' || c === "'") q = c;
    else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]!))) return s.slice(0, i).trimEnd();
  }
  return s.trimEnd();
}

function readLine(raw: string, no: number): Line | undefined {
  const indent = raw.length - raw.trimStart().length;
  const text = stripComment(raw.slice(indent));
  if (!text || raw.slice(indent).startsWith('#') || text === '---' || text === '...') return undefined;
  let body = text;
  let itemKeyIndent: number | undefined;
  const item = /^-(?:[ \t]+|$)/.exec(body);
  if (item) {
    body = body.slice(item[0].length);
    itemKeyIndent = indent + item[0].length;
  }
  const m = KEY.exec(body);
  const key = m ? m[1]!.trim().replace(/^["']|["']$/g, '') : undefined;
  const rest = m ? body.slice(m[0].length).trim() : body;
  const scalarBlock = /^[|>][+-]?\d?[+-]?$/.test(rest) && (m !== null || item !== null);
  const opens = (m !== null && rest === '') || (item !== null && body === '') || scalarBlock;
  const open = scan(rest, { depth: 0 });
  return {
    no,
    indent,
    text,
    key,
    opens,
    scalarBlock,
    ...(m && item ? { itemKeyIndent } : {}),
    ...(open.quote || open.depth > 0 ? { open } : {}),
  };
}

/** Quotes and flow brackets left open at the end of `s`, starting from `state`. */
function scan(s: string, state: { quote?: string; depth: number }): { quote?: string; depth: number } {
  let { quote, depth } = state;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      // A quote opens a scalar only where one can start (not inside a plain word: it's).
      if (i === 0 || /[\s,[{:]/.test(s[i - 1]!)) quote = c;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]!))) break;
  }
  return { quote, depth };
}

const spaces = (n: number) => `${n} space${n === 1 ? '' : 's'}`;

/**
 * The first line whose indentation does not fit the block structure above it, when it is at or
 * before `before` (the parser's first error line). Only block mappings and sequences are followed;
 * a file that uses flow collections (`{…}`, `[…]`) across lines is left to the parser's messages.
 */
export function findIndentSlip(text: string, before: number): IndentSlip | undefined {
  const raw = text.split(/\r?\n/);
  // Open block levels: the indent of each mapping (or sequence) we are inside, innermost last, with
  // the latest line seen at that indent.
  const levels: { indent: number; last: Line }[] = [];
  let prev: Line | undefined;
  let scalarAbove: number | undefined; // inside a block scalar whose key sits at this indent
  let open: { quote?: string; depth: number } | undefined; // inside a quoted scalar or flow collection
  for (let i = 0; i < raw.length && i < before; i++) {
    const r = raw[i]!;
    if (r.trim() === '') continue;
    if (open) {
      open = scan(r, open);
      if (!open.quote && open.depth === 0) open = undefined;
      continue;
    }
    if (/^ *\t/.test(r)) continue; // a tab in the indentation: the parser says so itself
    const ind = r.length - r.trimStart().length;
    if (scalarAbove !== undefined) {
      if (ind > scalarAbove) continue;
      scalarAbove = undefined;
    }
    const line = readLine(r, i + 1);
    if (!line) continue;
    if (prev && line.indent > prev.indent && line.indent === prev.itemKeyIndent) {
      // The next key of the mapping that a `- key: value` item started: fine.
    } else if (prev && line.indent > prev.indent) {
      if (!prev.opens) {
        // Deeper than a line that holds a value: a plain scalar may continue there, a key may not.
        if (line.key !== undefined || /^-(\s|$)/.test(line.text)) return deeper(line, prev);
        continue;
      }
      levels.push({ indent: line.indent, last: line });
    } else if (prev && line.indent < prev.indent) {
      const around = levels.slice().reverse();
      while (levels.length && levels[levels.length - 1]!.indent > line.indent) levels.pop();
      if (levels[levels.length - 1]?.indent !== line.indent) return between(line, around);
    } else if (!prev) {
      levels.push({ indent: line.indent, last: line });
    }
    const top = levels[levels.length - 1];
    if (top?.indent === line.indent) top.last = line;
    if (line.itemKeyIndent !== undefined) levels.push({ indent: line.itemKeyIndent, last: line });
    if (line.scalarBlock) scalarAbove = line.indent;
    if (line.open) open = line.open;
    prev = line;
  }
  return undefined;
}

function name(l: Line): string {
  const t = l.key !== undefined ? l.key : l.text.length > 24 ? `${l.text.slice(0, 24)}…` : l.text;
  return `'${t}'`;
}

function deeper(line: Line, prev: Line): IndentSlip {
  return {
    pos: { line: line.no, column: line.indent + 1 },
    message:
      `bad indentation: ${name(line)} on line ${line.no} is indented ${spaces(line.indent)}, deeper than ` +
      `${name(prev)} on line ${prev.no} (${spaces(prev.indent)}), which already has a value and cannot hold keys`,
    hint:
      `Indent ${name(line)} like ${name(prev)} (${spaces(prev.indent)}) if they belong to the same mapping; ` +
      'keys of one mapping start in the same column.',
  };
}

/** A line that dedents to a column where no open mapping starts; `around` is innermost first. */
function between(line: Line, around: { indent: number; last: Line }[]): IndentSlip {
  const near = around.slice(0, 3);
  const list = near.map((l) => `${name(l.last)} on line ${l.last.no} is at ${spaces(l.indent)}`).join(', ');
  return {
    pos: { line: line.no, column: line.indent + 1 },
    message: `bad indentation: ${name(line)} on line ${line.no} is indented ${spaces(line.indent)}, but no mapping around it starts there (${list})`,
    hint: `Indent ${name(line)} ${near.map((l) => `${spaces(l.indent)} (like ${name(l.last)})`).join(' or ')}, whichever mapping it belongs to.`,
  };
}

/**
 * A few lines of source around `pos`, numbered, with a caret under the column: what editors and
 * compilers show (Babel's "code frame").
 */
export function codeFrame(text: string, pos: Pos, context = 2): string {
  const lines = text.split(/\r?\n/);
  const from = Math.max(1, pos.line - context);
  const to = Math.min(lines.length, pos.line + 1);
  const w = String(to).length;
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const src = (lines[n - 1] ?? '').replace(/\t/g, ' ');
    out.push(`${n === pos.line ? '>' : ' '} ${String(n).padStart(w)} | ${src}`.trimEnd());
    if (n === pos.line) out.push(`  ${' '.repeat(w)} | ${' '.repeat(Math.max(0, pos.column - 1))}^`);
  }
  return out.join('\n');
}
