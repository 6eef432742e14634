import type { LintFile, LintRule } from '../types.js';
import { terms } from '../text.js';

interface Vec {
  file: LintFile;
  id: string;
  weights: Map<string, number>;
  norm: number;
}

function vectorOf(file: LintFile): Vec | undefined {
  const d = file.data.description;
  if (typeof d !== 'string') return undefined;
  const weights = new Map<string, number>();
  for (const t of terms(d)) weights.set(t, (weights.get(t) ?? 0) + 1);
  if (weights.size === 0) return undefined;
  let sq = 0;
  for (const w of weights.values()) sq += w * w;
  return { file, id: typeof file.data.id === 'string' ? file.data.id : file.file, weights, norm: Math.sqrt(sq) };
}

/**
 * Cosine similarity of every pair of descriptions that share a term, through an inverted index
 * (so 10,000 tools do not cost 50 million comparisons). Yields pairs at or above `threshold`.
 */
export function similarPairs(vecs: Vec[], threshold: number): { a: Vec; b: Vec; sim: number }[] {
  const postings = new Map<string, number[]>();
  vecs.forEach((v, i) => {
    for (const t of v.weights.keys()) (postings.get(t) ?? postings.set(t, []).get(t)!).push(i);
  });
  const out: { a: Vec; b: Vec; sim: number }[] = [];
  for (let j = 0; j < vecs.length; j++) {
    const b = vecs[j]!;
    const dots = new Map<number, number>();
    for (const [t, wb] of b.weights) {
      for (const i of postings.get(t)!) {
        if (i >= j) break; // postings are in index order: only earlier tools
        dots.set(i, (dots.get(i) ?? 0) + wb * vecs[i]!.weights.get(t)!);
      }
    }
    for (const [i, dot] of dots) {
      const a = vecs[i]!;
      const sim = dot / (a.norm * b.norm);
      if (sim >= threshold) out.push({ a, b, sim });
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
    const vecs = ctx.files.map(vectorOf).filter((v): v is Vec => v !== undefined);
    for (const { a, b, sim } of similarPairs(vecs, threshold)) {
      if (a.id === b.id) continue; // a duplicate id is reported as such by validate
      const pos = a.file.locate(['description']);
      const pct = Math.round(sim * 100);
      ctx.report(b.file, {
        path: ['description'],
        message: `description of '${b.id}' is ${pct}% alike to that of '${a.id}' (${ctx.displayPath(a.file.file)}:${pos.line}:${pos.column}): a selector cannot tell them apart (threshold ${Math.round(threshold * 100)}%)`,
        hint: `Say what makes '${b.id}' different from '${a.id}' (input, output, data source, when to use it), or merge the two tools.`,
      });
    }
  },
};
