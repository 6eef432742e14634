// `eval --compare` (src/select/compare.ts) on hand-made evaluations: which queries changed, the
// verdict, and the contract changes named as causes.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { compareRuns, toolChange, toolPrints, type EvalQuery } from '../../src/select/compare.js';

const contract = (id: string, extra: Record<string, unknown> = {}) =>
  ({ id, name: id, description: `${id} tool`, loader: 'command', ...extra }) as unknown as ToolContract;
const q = (
  line: number,
  query: string,
  relevant: string[],
  ranked: string[],
  source: EvalQuery['source'] = 'cases',
) => ({
  line,
  query,
  relevant,
  ranked,
  source,
});

describe('toolPrints and toolChange', () => {
  it('fingerprint each field selection reads, and name what changed, was added or removed', () => {
    const base = toolPrints([contract('a'), contract('b', { tags: ['x'] }), contract('c')]);
    expect(Object.keys(base.a!)).toEqual(['name', 'description', 'schema', 'examples', 'tags', 'provider']);
    expect(base.a!.description).toMatch(/^[0-9a-f]{12}$/);
    expect(base.a!.tags).toBe(base.c!.tags); // both absent
    expect(base.a!.description).not.toBe(base.c!.description);
    const now = toolPrints([
      contract('a', { description: 'better words', tags: ['y'] }),
      contract('b', { tags: ['x'], loader_config: { argv: ['other'] } }), // not a field selection reads
      contract('d'),
    ]);
    expect(toolChange(base, now, 'a')).toBe('description, tags changed');
    expect(toolChange(base, now, 'b')).toBeUndefined();
    expect(toolChange(base, now, 'c')).toBe('removed');
    expect(toolChange(base, now, 'd')).toBe('added');
    expect(toolChange(base, now, 'zzz')).toBeUndefined();
    for (const f of ['name', 'schema', 'examples', 'provider']) {
      const changed = toolPrints([contract('a', { [f]: f === 'schema' ? { type: 'object' } : ['v'] })]);
      expect(toolChange(toolPrints([contract('a')]), changed, 'a')).toBe(`${f} changed`);
    }
  });
});

describe('compareRuns', () => {
  const tools = toolPrints(['w', 'x', 'm', 'c', 'a', 'b'].map((id) => contract(id)));
  const nowTools = toolPrints([
    ...['x', 'm', 'c', 'a', 'b'].map((id) => contract(id)),
    contract('w', { description: 'weather, better' }),
    contract('n'),
  ]);

  it('lists each query whose first tool or R@5 changed, with its verdict and causes', () => {
    const base = [
      q(1, 'weather paris', ['w'], ['w', 'x']),
      q(2, 'send mail', ['m'], ['x']),
      q(3, 'convert', ['c'], ['a', 'b', 'c']),
      q(4, 'same', ['a'], ['a', 'b']),
      q(6, 'two wanted', ['b', 'a'], ['a', 'b']),
      q(7, 'weather paris', ['w'], ['w'], 'example'),
      q(9, 'gone', ['w'], ['w']),
    ];
    const now = [
      q(1, 'weather paris', ['w'], ['x', 'w']), // first tool lost, R@5 kept: worse
      q(2, 'send mail', ['m'], ['m', 'n']), // found: better
      q(3, 'convert', ['c'], ['b', 'a', 'c']), // first tool changed, neither relevant: moved
      q(4, 'same', ['a'], ['a', 'b']), // unchanged: not listed
      q(5, 'new query', ['a'], ['b']), // not in the base: not listed
      q(6, 'two wanted', ['a', 'b'], ['a', 'x', 'm', 'c', 'w', 'b']), // same first tool, R@5 1 → 0.5: worse
      q(7, 'weather paris', ['w'], ['w']), // the example: unchanged
      q(9, 'gone', ['w'], []), // nothing ranked any more: worse
    ];
    const changes = compareRuns({ results: base, tools }, { results: now, tools: nowTools });
    expect(changes.map((c) => [c.line, c.verdict, c.before, c.after])).toEqual([
      [1, 'worse', { top1: 'w', r5: 1 }, { top1: 'x', r5: 1 }],
      [2, 'better', { top1: 'x', r5: 0 }, { top1: 'm', r5: 1 }],
      [3, 'moved', { top1: 'a', r5: 1 }, { top1: 'b', r5: 1 }],
      [6, 'worse', { top1: 'a', r5: 1 }, { top1: 'a', r5: 0.5 }],
      [9, 'worse', { top1: 'w', r5: 1 }, { top1: null, r5: 0 }],
    ]);
    expect(changes[0]).toEqual({
      line: 1,
      query: 'weather paris',
      source: 'cases',
      relevant: ['w'],
      before: { top1: 'w', r5: 1 },
      after: { top1: 'x', r5: 1 },
      verdict: 'worse',
      causes: ['w: description changed'],
    });
    // causes: the wanted tools, the base top 5 and the new top 5
    expect(changes[1]!.causes).toEqual(['n: added']);
    expect(changes[2]!.causes).toEqual([]);
    expect(changes[3]!.causes).toEqual(['w: description changed']);
  });

  it('counts only the top 5 for R@5, and a tool that left the registry as a cause', () => {
    const base = [q(1, 'deep', ['b'], ['a', 'x', 'm', 'c', 'w', 'b'])];
    const now = [q(1, 'deep', ['b'], ['a', 'b'])];
    const [c] = compareRuns({ results: base, tools }, { results: now, tools: toolPrints([contract('a')]) });
    expect(c).toMatchObject({ verdict: 'better', before: { top1: 'a', r5: 0 }, after: { top1: 'a', r5: 1 } });
    expect(c!.causes).toEqual(['b: removed', 'x: removed', 'm: removed', 'c: removed', 'w: removed']);
    const wrongFirst = compareRuns(
      { results: [q(1, 'r', ['b'], ['a', 'b'])], tools },
      { results: [q(1, 'r', ['b'], ['b', 'a'])], tools },
    );
    expect(wrongFirst.map((x) => x.verdict)).toEqual(['better']);
    const r5Down = compareRuns(
      { results: [q(1, 'r', ['a', 'b'], ['a', 'b'])], tools },
      { results: [q(1, 'r', ['a', 'b'], ['b'])], tools },
    );
    expect(r5Down.map((x) => x.verdict)).toEqual(['worse']);
  });

  it('names as causes only tools in either top 5 or wanted (not the 6th)', () => {
    const base = [q(1, 's', ['a'], ['a', 'b', 'c', 'm', 'x', 'w'])]; // w changed, 6th
    const now = [q(1, 's', ['a'], ['b', 'a', 'c', 'm', 'x', 'n'])]; // n added, 6th
    const changes = compareRuns({ results: base, tools }, { results: now, tools: nowTools });
    expect(changes).toEqual([
      {
        line: 1,
        query: 's',
        source: 'cases',
        relevant: ['a'],
        before: { top1: 'a', r5: 1 },
        after: { top1: 'b', r5: 1 },
        verdict: 'worse',
        causes: [],
      },
    ]);
  });

  it('matches a query only with the same wanted tools: another set, or ids that join alike, is a new query', () => {
    const differentWanted = compareRuns(
      { results: [q(1, 'r', ['a'], ['a'])], tools },
      { results: [q(1, 'r', ['b'], ['x'])], tools },
    );
    expect(differentWanted).toEqual([]);
    const joinAlike = compareRuns(
      { results: [q(1, 'r', ['a', 'b'], ['a', 'b'])], tools },
      { results: [q(1, 'r', ['ab'], ['x'])], tools },
    );
    expect(joinAlike).toEqual([]);
    const otherSource = compareRuns(
      { results: [q(1, 'r', ['a'], ['a'])], tools },
      { results: [q(1, 'r', ['a'], ['x'], 'example')], tools },
    );
    expect(otherSource).toEqual([]);
  });
});
