import type { LintFile, LintRule } from '../types.js';
import { terms } from '../text.js';

interface Vec {
  file: LintFile;
  id: string;
  /** Terms, rarest first (global document frequency, then the term), with unit-normalised weights. */
  terms: string[];
  weights: Float64Array;
  /** term -> count, and the vector's length: the exact cosine of a candidate pair. */
  tf: Map<string, number>;
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

/** Per tool, stop after this many earlier tools above the threshold: the report names the closest. */
const MAX_MATCHES = 20;
/** Per tool, verify at most this many candidates (rarest shared terms first): bounds the worst case. */
const MAX_CANDIDATES = 4000;

function counts(file: LintFile): Map<string, number> | undefined {
  const d = file.data.description;
  if (typeof d !== 'string') return undefined;
  const tf = new Map<string, number>();
  for (const t of terms(d)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf.size ? tf : undefined;
}

/**
 * Every tool whose description has a cosine similarity at or above `threshold` with an earlier
 * tool's, reported once per tool with the closest earlier one. Near-linear: the AllPairs prefix
 * filter (Bayardo et al., 2007) indexes only each description's rarest terms, the ones a similar
 * description must share, so common words never produce candidate lists of the whole registry.
 * A pair at or above the threshold must share a term of the earlier tool's prefix: the rest of
 * its terms (its suffix) weigh less than `threshold` in total, so they alone cannot reach it.
 */
export function similarPairs(files: LintFile[], threshold: number): SimilarFinding[] {
  const tfs = files.map(counts);
  const df = new Map<string, number>();
  for (const tf of tfs) if (tf) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const order = (x: string, y: string) => df.get(x)! - df.get(y)! || (x < y ? -1 : x > y ? 1 : 0);
  const vecs: Vec[] = [];
  tfs.forEach((tf, i) => {
    if (!tf) return;
    const file = files[i]!;
    let sq = 0;
    for (const w of tf.values()) sq += w * w;
    const norm = Math.sqrt(sq);
    const ts = [...tf.keys()].sort(order);
    const weights = Float64Array.from(ts, (t) => tf.get(t)! / norm);
    vecs.push({ file, id: typeof file.data.id === 'string' ? file.data.id : file.file, terms: ts, weights, tf, norm });
  });
  const index = new Map<string, number[]>();
  const out: SimilarFinding[] = [];
  const seen = new Int32Array(vecs.length).fill(-1);
  for (let j = 0; j < vecs.length; j++) {
    const b = vecs[j]!;
    // Candidates: earlier tools that indexed one of b's terms (b's rarest terms first).
    let best: { a: Vec; sim: number } | undefined;
    let matches = 0;
    let checked = 0;
    probe: for (const t of b.terms) {
      const list = index.get(t);
      if (!list) continue;
      for (const i of list) {
        if (seen[i] === j) continue;
        seen[i] = j;
        const a = vecs[i]!;
        let dot = 0;
        for (const [t, wb] of b.tf) {
          const wa = a.tf.get(t);
          if (wa !== undefined) dot += wa * wb;
        }
        const sim = dot / (a.norm * b.norm);
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
      const t = b.terms[k]!;
      const list = index.get(t);
      if (list) list.push(j);
      else index.set(t, [j]);
    }
  }
  return out;
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
