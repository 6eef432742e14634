// The BM25F model pinned by hand-computed cases: each expected score below is worked out from the
// formula with the model's constants written here (not read from src/), so changing a constant, the
// idf, the saturation, a field weight, the length normalisation or a query-term weight fails a test.
//   idf(n, df) = ln(1 + (n - df + 0.5) / (df + 0.5))
//   pseudo-tf  = Σ_fields w_f · tf_f / (1 - b_f + b_f · len_f / avglen_f)
//   score      = Σ_terms  queryWeight · idf · tf·(k1 + 1) / (k1 + tf)
// Constants: k1 = 1.2; name w 3 b 0.5; description w 1 b 0.75; parameters w 0.5 b 0.75;
// query term weights: word 1, CJK bigram 0.5, CJK character 0.25.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { docStats } from '../../src/select/model.js';
import { buildIndex } from '../../src/select/lex-build.js';
import { parseQuery, scoreAll } from '../../src/select/query.js';

function tool(id: string, name: string, description: string, schema: Record<string, unknown> = {}): ToolContract {
  return { id, name, description, schema, loader: 'command', loader_config: { argv: ['true'] } } as ToolContract;
}

/**
 * Scores of every tool (in order) for `query`. Translation (English gloss stems of Chinese words,
 * src/select/translate.ts) is off here (derived weight 0): these cases pin the BM25F core; the
 * translated field and derived terms are pinned in translate.test.ts.
 */
function scores(tools: ToolContract[], query: string): number[] {
  return [...scoreAll(buildIndex(tools.map(docStats)), parseQuery(query, 1, undefined, 0))];
}

const close = (actual: number[], expected: number[]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => expect(a, `tool ${i}`).toBeCloseTo(expected[i]!, 6));
};

describe('BM25F, hand-computed', () => {
  // Four tools, every description 4 words long (length normalisation is 1 everywhere).
  const satTools = [
    tool('t1', 'Alpha', 'zork quux quux quux'),
    tool('t2', 'Beta', 'zork zork quux quux'),
    tool('t3', 'Gamma', 'zork zork zork quux'),
    tool('t4', 'Delta', 'blip blip blip blip'),
  ];

  it('term frequency saturates: 1, 2, 3 occurrences give 1, 1.375, 1.571 times the idf', () => {
    // idf(4, 3) = ln(1 + 1.5/3.5) = 0.356675; sat(c) = 2.2c / (1.2 + c)
    close(scores(satTools, 'zork'), [0.356675, 0.490428, 0.560489, 0]);
  });

  it('a rare term weighs more than a common one (idf order)', () => {
    // blip: df 1 → idf(4, 1) = ln(1 + 3.5/1.5) = 1.203973, tf 4 → sat 1.692308
    close(scores(satTools, 'blip'), [0, 0, 0, 2.037492]);
    // quux: df 3, the same idf as zork; t1 has it 3 times
    const q = scores(satTools, 'quux');
    expect(q[0]).toBeCloseTo(0.560489, 6);
    expect(q[3]).toBe(0);
    expect(scores(satTools, 'blip')[3]! / 1.692308).toBeGreaterThan(scores(satTools, 'quux')[0]! / 1.571429);
  });

  it('a name match outweighs a description match, which outweighs a parameter match', () => {
    const tools = [
      tool('n1', 'Zork', 'quux quux'),
      tool('n2', 'Blip', 'zork quux'),
      tool('n3', 'Quux', 'quux quux', { type: 'object', properties: { qux: { type: 'string', description: 'zork' } } }),
    ];
    // idf(3, 3) = ln(1 + 0.5/3.5) = 0.133531.
    // n1: name tf 3·1 → sat 1.571429; n2: description tf 1 → sat 1;
    // n3: parameters "qux zork" (2 words, average 2/3): tf 0.5 / (0.25 + 0.75·3) = 0.2 → sat 0.314286.
    close(scores(tools, 'zork'), [0.209835, 0.133531, 0.041967]);
  });

  it('a match in a shorter description counts more (length normalisation, b = 0.75)', () => {
    const tools = [
      tool('l1', 'Alpha', 'zork'),
      tool('l2', 'Beta', 'zork quux quux quux quux quux quux'),
      tool('l3', 'Gamma', 'blip'),
    ];
    // average length 3; norm 0.5 → tf 2 → sat 1.375; norm 2 → tf 0.5 → sat 0.647059; idf(3, 2) = ln 1.6
    close(scores(tools, 'zork'), [0.646255, 0.30412, 0]);
  });

  it('Chinese query terms: a word counts 1, a bigram 0.5, a single character 0.25', () => {
    const tools = [tool('c1', 'Alpha', '天气'), tool('c2', 'Beta', '下雨')];
    expect([...parseQuery('天气', 1, undefined, 0)]).toEqual([
      ['天气', 1],
      ['天', 0.25],
      ['气', 0.25],
    ]);
    // Every term is in one tool of two: idf(2, 1) = ln 2; every description is 3 terms (word + 2 characters).
    close(scores(tools, '天气'), [1.039721, 0]); // ln 2 · (1 + 0.25 + 0.25)
    // 下雨天 is one word to the segmenter; 下雨 matches as its bigram (0.5), 下 and 雨 as characters,
    // and c1 shares only the character 天.
    close(scores(tools, '下雨天'), [0.173287, 0.693147]);
  });
});

// A deterministic pseudo-random sequence for the property tests.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('BM25F properties', () => {
  const words = ['zork', 'quux', 'blip', 'frob', 'glim', 'snark', 'wibble', 'plugh', 'xyzzy', 'thud'];
  const next = rng(17);
  const pick = () => words[Math.floor(next() * words.length)]!;
  const text = (n: number) => Array.from({ length: n }, pick).join(' ');
  const tools = Array.from({ length: 12 }, (_, i) =>
    tool(`p${i}`, `Tool${i}`, `${text(2 + Math.floor(next() * 10))} everywhere`, {
      type: 'object',
      properties: { [`arg${i}`]: { type: 'string', description: text(1 + Math.floor(next() * 4)) } },
    }),
  );
  const ix = buildIndex(tools.map(docStats));

  it('adding a query term never lowers any tool’s score', () => {
    for (let trial = 0; trial < 200; trial++) {
      const base = text(1 + Math.floor(next() * 3));
      const more = `${base} ${pick()}`;
      const a = scoreAll(ix, parseQuery(base));
      const b = scoreAll(ix, parseQuery(more));
      a.forEach((s, i) => expect(b[i]!, `${base} → ${more}, tool ${i}`).toBeGreaterThanOrEqual(s - 1e-12));
    }
  });

  it('a term no tool has changes no score; repeating a query word changes no score', () => {
    for (const q of ['zork', 'quux blip', 'frob glim snark']) {
      expect([...scoreAll(ix, parseQuery(`${q} nonexistentterm`))]).toEqual([...scoreAll(ix, parseQuery(q))]);
      expect([...scoreAll(ix, parseQuery(`${q} ${q}`))]).toEqual([...scoreAll(ix, parseQuery(q))]);
    }
  });

  it('a term every tool has barely counts: it adds at most idf(12, 12)·(k1 + 1) = ln 1.04 · 2.2 to any tool', () => {
    // BM25's ln(1 + …) idf keeps it above 0 (a one-tool registry must still match), so "nothing" is
    // "at most 0.0863" here, less than a tenth of what one occurrence of a word found in one tool adds (≥ 1.2·…).
    for (const q of ['zork', 'quux blip', 'frob glim snark', 'thud xyzzy']) {
      const a = scoreAll(ix, parseQuery(q));
      const b = scoreAll(ix, parseQuery(`${q} everywhere`));
      a.forEach((s, i) => {
        if (s === 0) return;
        expect(b[i]! - s).toBeGreaterThan(0);
        expect(b[i]! - s).toBeLessThanOrEqual(0.0863);
      });
    }
  });
});
