// description-similar's AllPairs filter, measured by the work it does (pairs scored, postings written): counts,
// not times, so they are exact. The findings are checked as well: pruning must never change what is found.
import { describe, expect, it } from 'vitest';
import { similarPairs, type SimilarStats } from '../../src/lint/rules/description-similar.js';
import type { LintFile } from '../../src/lint/types.js';

const file = (i: number, description: string): LintFile => ({
  file: `/reg/t${i}.yaml`,
  data: { id: `t${i}`, description },
  locate: () => ({ line: 3, column: 1 }),
});

/** Runs the filter and returns its findings as `b<a sim% others` lines, with the work counted. */
function run(files: LintFile[], threshold: number) {
  const stats: SimilarStats = { scored: 0, indexed: 0 };
  const found = similarPairs(files, threshold, stats).map(
    (f) => `${f.b.id}<${f.a.id} ${Math.round(f.sim * 1000) / 10}% ${f.others}`,
  );
  return { stats, found };
}

describe('the prefix filter of description-similar', () => {
  // 300 tools in 30 groups of 10 (tool i is in group ⌊i/10⌋). Each description has 6 distinct words, each once:
  // two in every tool (df 300), three shared by its group (df 10), one of its own (df 1). Every weight is 1/√6.
  // Within a group the cosine is 5/6 (83.3 %), across groups 2/6. Naive all-pairs would score 300·299/2 = 44,850.
  const G = 10;
  const tools = Array.from({ length: 300 }, (_, i) => {
    const g = Math.floor(i / G);
    // The words are mixed in the text (neither in order nor in reverse): only the sort by document frequency
    // puts the tool's own word and its group's words in front.
    return file(i, `glacier fjord${g}q own${i}w moraine fjord${g}r fjord${g}s`);
  });
  const expected = tools.flatMap((_, i) => (i % G === 0 ? [] : [`t${i}<t${i - (i % G)} 83.3% ${(i % G) - 1}`]));

  it('at 80 % indexes the 3 rarest terms of each tool and scores only pairs within a group', () => {
    // The suffix may weigh < 0.8² = 0.64: 3 terms (3/6 = 0.5) do, 4 (4/6) do not, so the prefix is 6 − 3 = 3 terms:
    // the own word and 2 group words. A tool's candidates are the earlier tools of its group: 30 · (0 + 1 + … + 9).
    const r = run(tools, 0.8);
    expect(r.stats).toEqual({ scored: 30 * 45, indexed: 300 * 3 });
    expect(r.found).toEqual(expected);
    expect(r.found).toHaveLength(270);
  });

  it('at 90 % indexes 2 terms (suffix 4/6 < 0.81 ≤ 5/6): the same candidates, no finding', () => {
    expect(run(tools, 0.9)).toEqual({ stats: { scored: 1350, indexed: 600 }, found: [] });
  });

  it('at 95 % indexes only the own word (suffix 5/6 < 0.9025): nothing is scored', () => {
    expect(run(tools, 0.95)).toEqual({ stats: { scored: 0, indexed: 300 }, found: [] });
  });

  it('at 30 % every pair shares a prefix term: all 44,850 are scored, 20 matches stop a tool early', () => {
    // 2/6 ≥ 0.3: every earlier tool matches. The suffix may weigh < 0.09: none does (1/6), so all 6 terms are
    // indexed. Tool j scores its first min(j, 20) candidates, its own group first (the rarest shared terms first).
    const r = run(tools, 0.3);
    const scored = tools.reduce((n, _, j) => n + Math.min(j, 20), 0);
    expect(r.stats).toEqual({ scored, indexed: 1800 });
    expect(scored).toBe(190 + 20 * 280);
    expect(r.found[0]).toBe('t1<t0 83.3% 0');
    expect(r.found[20]).toBe('t21<t20 83.3% 19'); // its 1 group mate, then 19 others: the closest is named
    expect(r.found).toHaveLength(299);
  });

  it('counts into a stats object it is given, and works the same without one', () => {
    const stats: SimilarStats = { scored: 5, indexed: 7 };
    similarPairs(tools.slice(0, 20), 0.8, stats);
    expect(stats).toEqual({ scored: 5 + 2 * 45, indexed: 7 + 20 * 3 });
    expect(similarPairs(tools.slice(0, 20), 0.8).map((f) => f.b.id)).toEqual(
      expected.slice(0, 18).map((l) => l.split('<')[0]),
    );
  });
});

describe('the 4,000-candidate cap of description-similar', () => {
  // 4,000 tools F "quokka ×3 ownN" (√10): 9/10 = 90 % alike to each other, so each stops after 20 matches. Then E,
  // "quokka ×5 lone" (√26): 15/(√26·√10) = 93.0 % alike to each F. Last T, "quokka ×5" and 11 words of its own
  // (√36 = 6): 15/(6·√10) = 79.1 % to each F, below 80 %, but 25/(6·√26) = 81.7 % to E. Every tool indexes
  // "quokka" (its weight alone reaches 0.8), so T's one candidate list holds the 4,001 earlier tools, E last.
  const many = Array.from({ length: 4000 }, (_, i) => file(i, `quokka quokka quokka own${i}w`));
  const e = file(4000, 'quokka quokka quokka quokka quokka lone');
  const own = 'abcdefghijk'.split('').map((c) => `solo${c}x`);
  const t = file(4001, `quokka quokka quokka quokka quokka ${own.join(' ')}`);

  it('scores at most 4,000 candidates for one tool, so a match past them is not found', () => {
    const r = run([...many, e, t], 0.8);
    // F number j scores min(j, 20): 190 + 20 · 3,980; E scores 20; T scores 4,000 and stops before E.
    // Indexed: 2 terms for each F and for E, all 12 of T's (the 11 words of its own weigh 11/36 < 0.64).
    expect(r.stats).toEqual({ scored: 190 + 20 * 3980 + 20 + 4000, indexed: 4001 * 2 + 12 });
    expect(r.found.at(-1)).toBe('t4000<t0 93% 19');
    expect(r.found).toHaveLength(4000);
  });

  it('finds the match when it is candidate 4,000', () => {
    // Without F number 0, E is T's 4,000th candidate: scored, then the cap stops T.
    const r = run([...many.slice(1), e, t], 0.8);
    expect(r.found.at(-1)).toBe('t4001<t4000 81.7% 0');
    expect(r.stats.scored).toBe(190 + 20 * 3979 + 20 + 4000);
  });
});

describe('which terms description-similar indexes', () => {
  it('breaks a tie of document frequency by the term, so the same term is indexed whatever the word order', () => {
    // V "alpha ownv", T "alpha beta ownt" or "beta alpha ownt", U "beta ownu": alpha and beta each in 2 tools.
    // T's weights are 1/√3: at 70 % its suffix holds 1 term (1/3 < 0.49 ≤ 2/3), so T indexes its own word and
    // the first of alpha/beta, which is alpha in both word orders. T scores V through alpha (1/(√3·√2) = 41 %,
    // no finding); U looks for beta and finds no one: 1 pair scored. V indexes 2 terms, T 2, U 2 (1/2 ≥ 0.49).
    for (const t of ['alpha beta ownt', 'beta alpha ownt']) {
      const r = run([file(0, 'alpha ownv'), file(1, t), file(2, 'beta ownu')], 0.7);
      expect(r, t).toEqual({ stats: { scored: 1, indexed: 6 }, found: [] });
    }
  });

  it('keeps a term whose weight reaches the threshold exactly in the prefix', () => {
    // 4 words once each: weights 1/2. At 50 % the last term alone weighs √(1/4) = 0.5, not below 0.5: nothing goes
    // into the suffix and all 4 are indexed. At 51 % one term does (0.5 < 0.51, √0.5 ≥ 0.51): 3 are indexed.
    const two = [file(0, 'glacier moraine fjord tundra'), file(1, 'glacier moraine fjord tundra')];
    expect(run(two, 0.5)).toEqual({ stats: { scored: 1, indexed: 8 }, found: ['t1<t0 100% 0'] });
    expect(run(two, 0.51)).toEqual({ stats: { scored: 1, indexed: 6 }, found: ['t1<t0 100% 0'] });
  });
});
