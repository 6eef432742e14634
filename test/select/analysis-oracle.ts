// For analysis.test.ts: the document analysis (tokenizer, field texts, term statistics) as it was
// before it was made faster (session 4), kept verbatim as the oracle. The index must not change by
// a byte, so the new analysis has to give exactly these terms, in this order.
import type { ToolContract } from '../../src/contract/types.js';
import {
  blankOperators,
  expressions,
  Kind,
  MATH_TERM,
  splitIdentifiers,
  type Token,
} from '../../src/select/tokenize.js';
import type { DocStats } from '../../src/select/model.js';
import { stem } from '../../src/select/stem.js';
import { QUERY_STOP, STOP, STOP_CHARS } from '../../src/select/stopwords.js';
import { hasHan, translateZh } from '../../src/select/translate.js';

const CJK_RUN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+/u;
const SCAN =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}])+/gu;
const DIGITS = /^\d+$/;
const ACRONYM = /\b(?:\p{L}\.){2,}/gu;
// The segmenter is superlinear on long input: feed it bounded pieces (runs are already cut at
// punctuation; this only guards against pathological unpunctuated text).
const MAX_SEGMENT = 400;

let segmenter: Intl.Segmenter | undefined;
const seg = () => (segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' }));
function cjk(run: string, out: Token[]): void {
  for (let start = 0; start < run.length; start += MAX_SEGMENT) {
    const piece = run.slice(start, start + MAX_SEGMENT);
    const wordAt = new Map<number, string>();
    for (const s of seg().segment(piece)) {
      if (s.isWordLike === false) continue;
      wordAt.set(s.index, s.segment);
      if (!STOP.has(s.segment)) out.push({ term: s.segment, kind: Kind.Word });
    }
    const chars = [...piece];
    let idx = 0;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      const next = chars[i + 1];
      if (next !== undefined && !(STOP_CHARS.has(c) && STOP_CHARS.has(next))) {
        const bi = c + next;
        if (wordAt.get(idx) !== bi) out.push({ term: bi, kind: Kind.Bigram });
      }
      if (!STOP_CHARS.has(c) && wordAt.get(idx) !== c) out.push({ term: c, kind: Kind.Char });
      idx += c.length;
    }
  }
}

export function oldTokenize(text: string, opts: { query?: boolean } = {}): Token[] {
  const out: Token[] = [];
  if (!text) return out;
  // Dotted acronyms ("U.S.", "e.g.") become one word before punctuation splits them into letters.
  // "%" is a word people also spell out ("15 percent", "15%"): index and query it as one.
  const lower = splitIdentifiers(text.normalize('NFKC'))
    .replace(ACRONYM, (a) => a.replace(/\./g, ''))
    .replace(/%/g, ' percent ')
    .toLowerCase();
  // A deliberate change since (issue 26): each arithmetic expression is one typed term, first, and
  // its spelled operators ("times", 乘) are not words.
  const exprs = expressions(lower);
  for (let n = exprs.length; n > 0; n--) out.push({ term: MATH_TERM, kind: Kind.Word });
  const norm = blankOperators(lower, exprs);
  for (const m of norm.matchAll(SCAN)) {
    const t = m[0];
    if (CJK_RUN.test(t)) {
      cjk(t, out);
      continue;
    }
    if (STOP.has(t) || DIGITS.test(t) || (opts.query && QUERY_STOP.has(t))) continue;
    out.push({ term: stem(t), kind: Kind.Word });
  }
  return out;
}

const terms = (text: string) => oldTokenize(text).map((t) => t.term);

const MAX_DEPTH = 12;

function walkSchema(node: unknown, params: string[], enums: string[], depth: number): void {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const n of node) walkSchema(n, params, enums, depth + 1);
    return;
  }
  const s = node as Record<string, unknown>;
  for (const key of ['description', 'title']) if (typeof s[key] === 'string') params.push(s[key] as string);
  for (const key of ['enum', 'examples']) {
    if (Array.isArray(s[key]))
      for (const v of s[key] as unknown[]) if (typeof v === 'string' || typeof v === 'number') enums.push(String(v));
  }
  if (typeof s.const === 'string') enums.push(s.const);
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    const props = s[key];
    if (!props || typeof props !== 'object' || Array.isArray(props)) continue;
    for (const [name, sub] of Object.entries(props as Record<string, unknown>)) {
      // Property names are identifiers ("cityName"); $defs names are internal labels.
      if (key === 'properties') params.push(name);
      walkSchema(sub, params, enums, depth + 1);
    }
  }
  for (const key of [
    'items',
    'additionalProperties',
    'anyOf',
    'oneOf',
    'allOf',
    'not',
    'if',
    'then',
    'else',
    'prefixItems',
  ]) {
    if (s[key] && typeof s[key] === 'object') walkSchema(s[key], params, enums, depth + 1);
  }
}
function nameText(c: ToolContract): string {
  if (!c.name) return c.id;
  return terms(c.name).join(' ') === terms(c.id).join(' ') ? c.id : `${c.id} ${c.name}`;
}

export function oldFieldTexts(c: ToolContract): string[] {
  const params: string[] = [];
  const enums: string[] = [];
  // The top-level schema's own description/title repeats the tool description at best: skip it.
  const schema =
    c.schema && typeof c.schema === 'object' ? { ...c.schema, description: undefined, title: undefined } : undefined;
  walkSchema(schema, params, enums, 0);
  const tags = [...(Array.isArray(c.tags) ? c.tags : []), ...(typeof c.provider === 'string' ? [c.provider] : [])];
  return [
    nameText(c),
    c.description ?? '',
    params.join(' \n '),
    enums.join(' \n '),
    tags.join(' \n '),
    (Array.isArray(c.examples) ? c.examples : []).join(' \n '),
  ];
}

export function oldDocStatsOf(texts: string[]): DocStats {
  const tf: Record<string, number>[] = [];
  const len: number[] = [];
  for (const text of texts) {
    const counts: Record<string, number> = Object.create(null);
    const toks = oldTokenize(text);
    for (const t of toks) counts[t.term] = (counts[t.term] ?? 0) + 1;
    tf.push(counts);
    len.push(toks.length);
  }
  // The translated field: English stems of the Chinese in the name and description, and of the
  // parameter text at half weight. Tools without Chinese never open the glossary.
  const [name, description, params] = texts as [string, string, string];
  const tr: Record<string, number> = Object.create(null);
  if (hasHan(name) || hasHan(description)) translateZh(`${name}\n${description}`, 1, tr);
  if (hasHan(params)) translateZh(params, 0.5, tr);
  tf.push(tr);
  len.push(Object.values(tr).reduce((a, b) => a + b, 0));
  return { tf, len };
}
