import type { LintFile, LintRule } from '../types.js';
import { terms } from '../text.js';

interface Vec {
  file: LintFile;
  id: string;
  /** Term ids, rarest first (global document frequency, then the term), with unit-normalised weights. */
  terms: Uint32Array;
  weights: Float64Array;
  /** Term ids in order of first use, with their counts, and the vector's length: the exact cosine of a pair. */
  tfTerms: Uint32Array;
  tfCounts: Float64Array;
  norm: number;
}

/** One tool whose description is too alike to an earlier one's. */
export interface SimilarFinding {
  a: Vec;
  b: Vec;
  sim: number;
  /** How many other earlier tools are also above the threshold (at least; see MAX_MATCHES). */
  others: number;
}

/** The work `similarPairs` did, for tests and benchmarks: deterministic for a given input (a count, not a time). */
export interface SimilarStats {
  /** Pairs whose cosine was computed (candidates found through the index). */
  scored: number;
  /** Postings written to the index: the prefix terms of every tool. */
  indexed: number;
}

/** Per tool, stop after this many earlier tools above the threshold: the report names the closest. */
const MAX_MATCHES = 20;
/** Per tool, verify at most this many candidates (rarest shared terms first): bounds the worst case. */
const MAX_CANDIDATES = 4000;

/**
 * Every tool whose description has a cosine similarity at or above `threshold` with an earlier
 * tool's, reported once per tool with the closest earlier one. Near-linear: the AllPairs prefix
 * filter (Bayardo et al., 2007) indexes only each description's rarest terms, the ones a similar
 * description must share, so common words never produce candidate lists of the whole registry.
 * A pair at or above the threshold must share a term of the earlier tool's prefix: the rest of
 * its terms (its suffix) weigh less than `threshold` in total, so they alone cannot reach it.
 * Terms are interned as numbers and vectors kept in typed arrays: 50,000 tools fit in a few MB.
 */
export function similarPairs(files: LintFile[], threshold: number, stats?: SimilarStats): SimilarFinding[] {
  const ids = new Map<string, number>();
  const vocab: string[] = [];
  const df: number[] = [];
  const tfs = files.map((file) => {
    const d = file.data.description;
    if (typeof d !== 'string') return undefined;
    const tf = new Map<number, number>();
    for (const t of terms(d)) {
      let id = ids.get(t);
      if (id === undefined) {
        id = vocab.length;
        ids.set(t, id);
        vocab.push(t);
        df.push(0);
      }
      tf.set(id, (tf.get(id) ?? 0) + 1);
    }
    for (const id of tf.keys()) df[id]!++;
    return tf.size ? { terms: Uint32Array.from(tf.keys()), counts: Float64Array.from(tf.values()) } : undefined;
  });
  const order = (x: number, y: number) =>
    df[x]! - df[y]! || (vocab[x]! < vocab[y]! ? -1 : vocab[x]! > vocab[y]! ? 1 : 0);
  const vecs: Vec[] = [];
  tfs.forEach((tf, i) => {
    if (!tf) return;
    const file = files[i]!;
    let sq = 0;
    for (const w of tf.counts) sq += w * w;
    const norm = Math.sqrt(sq);
    const at = new Map<number, number>();
    tf.terms.forEach((t, k) => at.set(t, tf.counts[k]!));
    const ts = Uint32Array.from(tf.terms).sort(order);
    const weights = Float64Array.from(ts, (t) => at.get(t)! / norm);
    const id = typeof file.data.id === 'string' ? file.data.id : file.file;
    vecs.push({ file, id, terms: ts, weights, tfTerms: tf.terms, tfCounts: tf.counts, norm });
  });
  const index: (number[] | undefined)[] = [];
  const out: SimilarFinding[] = [];
  const seen = new Int32Array(vecs.length).fill(-1);
  // a's counts by term id while one pair is compared (reset after): a dense lookup, no per-tool maps.
  const scratch = new Float64Array(vocab.length);
  let scored = 0;
  let indexed = 0;
  for (let j = 0; j < vecs.length; j++) {
    const b = vecs[j]!;
    // Candidates: earlier tools that indexed one of b's terms (b's rarest terms first).
    let best: { a: Vec; sim: number } | undefined;
    let matches = 0;
    let checked = 0;
    probe: for (const t of b.terms) {
      const list = index[t];
      if (!list) continue;
      for (const i of list) {
        if (seen[i] === j) continue;
        seen[i] = j;
        const a = vecs[i]!;
        a.tfTerms.forEach((t, k) => (scratch[t] = a.tfCounts[k]!));
        let dot = 0;
        for (let k = 0; k < b.tfTerms.length; k++) {
          const wa = scratch[b.tfTerms[k]!]!;
          if (wa !== 0) dot += wa * b.tfCounts[k]!;
        }
        for (const t of a.tfTerms) scratch[t] = 0;
        const sim = dot / (a.norm * b.norm);
        scored++;
        if (sim >= threshold && a.id !== b.id) {
          matches++;
          if (!best || sim > best.sim) best = { a, sim };
          if (matches >= MAX_MATCHES) break probe;
        }
        if (++checked >= MAX_CANDIDATES) break probe;
      }
    }
    if (best) out.push({ a: best.a, b, sim: Math.min(1, best.sim), others: matches - 1 });
    // Index b's prefix: its terms up to where the remaining (more common) ones weigh < threshold.
    let suffix = 0;
    let cut = b.terms.length;
    while (cut > 0 && Math.sqrt(suffix + b.weights[cut - 1]! ** 2) < threshold) suffix += b.weights[--cut]! ** 2;
    for (let k = 0; k < cut; k++) {
      (index[b.terms[k]!] ??= []).push(j);
      indexed++;
    }
  }
  if (stats) {
    stats.scored += scored;
    stats.indexed += indexed;
  }
  return out;
}

/**
 * The cosine similarity of two descriptions' term vectors, exactly as this rule measures a pair
 * (0..1): what `eval --report` shows beside two confusable tools.
 */
export function descriptionSimilarity(a: string, b: string): number {
  const tf = (text: string) => {
    const m = new Map<string, number>();
    for (const t of terms(text)) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const x = tf(a);
  const y = tf(b);
  let dot = 0;
  for (const [t, n] of x) dot += n * (y.get(t) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  const d = norm(x) * norm(y);
  return d ? Math.min(1, dot / d) : 0;
}

/** Two tools whose descriptions are so alike that a selector cannot tell them apart. */
export const rule: LintRule = {
  meta: {
    id: 'description-similar',
    description: 'Two tools have descriptions too alike for a selector to tell apart.',
    severity: 'warning',
    docs: "Similarity is the cosine of the two descriptions' term vectors (words, stemmed, stop words removed). Say what distinguishes each tool: its input, output, data source or when to use it.",
    options: { threshold: 0.8 },
  },
  checkAll(ctx) {
    const threshold = Number(ctx.options.threshold);
    for (const { a, b, sim, others } of similarPairs(ctx.files, threshold)) {
      const pos = a.file.locate(['description']);
      const pct = Math.round(sim * 100);
      const more =
        others > 0 ? ` and to ${others}${others + 1 >= MAX_MATCHES ? ' or more' : ''} other earlier tools` : '';
      ctx.report(b.file, {
        path: ['description'],
        message: `description of '${b.id}' is ${pct}% alike to that of '${a.id}' (${ctx.displayPath(a.file.file)}:${pos.line}:${pos.column})${more}: a selector cannot tell them apart (threshold ${Math.round(threshold * 100)}%)`,
        hint: `Say what makes '${b.id}' different from '${a.id}' (input, output, data source, when to use it), or merge the two tools.`,
      });
    }
  },
};
