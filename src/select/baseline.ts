// An exact replica of ../shared/bench/bm25_baseline.py, variant `ndp+split` (`toolbox eval
// --ranker bm25-baseline`): the same tokeniser, document text, BM25 formula and tie order. It
// exists to prove that `eval` computes the baseline's numbers for the baseline's ranking, and as
// the reference the selection bench compares against. Not used for real selection.
import type { ToolContract } from '../contract/types.js';

const CJK = '\u3400-\u9fff\uf900-\ufaff';
const TOK = new RegExp(`[a-z0-9]+|[${CJK}]+`, 'g');
const CJK_START = new RegExp(`^[${CJK}]`);

function splitIdent(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./]/g, ' ');
}

/** bm25_baseline.py `tokenize(text, ident=True)`. */
export function baselineTokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of splitIdent(text).toLowerCase().matchAll(TOK)) {
    const t = m[0];
    if (CJK_START.test(t)) {
      const chars = [...t];
      out.push(...chars);
      for (let i = 0; i < chars.length - 1; i++) out.push(chars[i]! + chars[i + 1]!);
    } else out.push(t);
  }
  return out;
}

/** bm25_baseline.py `param_text`: property names and descriptions, recursively (plus one level of items). */
function paramText(schema: unknown): string {
  const parts: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const props = (node as Record<string, unknown>).properties;
    if (!props || typeof props !== 'object' || Array.isArray(props)) return;
    for (const [k, v] of Object.entries(props as Record<string, unknown>)) {
      parts.push(k);
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const d = (v as Record<string, unknown>).description;
        if (typeof d === 'string') parts.push(d);
        walk(v);
        const items = (v as Record<string, unknown>).items;
        if (items && typeof items === 'object' && !Array.isArray(items)) walk(items);
      }
    }
  };
  walk(schema);
  return parts.join(' ');
}

/** Okapi BM25 (k1 1.2, b 0.75) over name + description + parameter text, ranking like the script. */
export class BaselineRanker {
  private readonly tf: Map<string, number>[];
  private readonly dl: number[];
  private readonly avgdl: number;
  private readonly idf = new Map<string, number>();
  private readonly post = new Map<string, [number, number][]>();

  constructor(
    contracts: readonly ToolContract[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    const docs = contracts.map((c) =>
      baselineTokenize(`${c.name} ${c.description ?? ''} ${paramText(c.schema ?? {})}`),
    );
    this.tf = docs.map((d) => {
      const m = new Map<string, number>();
      for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
      return m;
    });
    this.dl = docs.map((d) => d.length);
    const n = docs.length;
    this.avgdl = this.dl.reduce((a, b) => a + b, 0) / Math.max(1, n);
    const df = new Map<string, number>();
    this.tf.forEach((m, i) => {
      for (const [t, f] of m) {
        df.set(t, (df.get(t) ?? 0) + 1);
        let l = this.post.get(t);
        if (!l) this.post.set(t, (l = []));
        l.push([i, f]);
      }
    });
    for (const [t, c] of df) this.idf.set(t, Math.log(1 + (n - c + 0.5) / (c + 0.5)));
  }

  /** Tool numbers of the best `k` matches, best first (ties by tool order). */
  rank(query: string, k = 10): number[] {
    const sc = new Map<number, number>();
    for (const t of new Set(baselineTokenize(query))) {
      const idf = this.idf.get(t);
      if (idf === undefined) continue;
      for (const [i, f] of this.post.get(t)!) {
        const add = (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * this.dl[i]!) / this.avgdl));
        sc.set(i, (sc.get(i) ?? 0) + add);
      }
    }
    return [...sc.keys()].sort((a, b) => sc.get(b)! - sc.get(a)! || a - b).slice(0, k);
  }
}
