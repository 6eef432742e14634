// Typo tolerance (issue 35 item 3): a query word the registry does not have stands in for the
// registry's words within a small edit distance, weighted below an exact match.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { openSelector, type Selector } from '../../src/select/index.js';
import { parseQuery } from '../../src/select/query.js';
import { correctTypos, corrections, distanceWithin, TYPOS } from '../../src/select/typos.js';
import { RANK } from '../../src/select/model.js';
import { REPO, tempProject } from '../helpers.js';

/** Plain optimal-string-alignment distance, the reference for distanceWithin. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i ? (j ? 0 : i) : j)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

describe('distanceWithin', () => {
  it('equals the optimal-string-alignment distance when within the bound, bound + 1 beyond it', () => {
    const words = [
      'weather',
      'wether',
      'whether',
      'waether',
      'weaher',
      'weatherr',
      'leather',
      'feathers',
      'wtaehr',
      'w',
      '',
    ];
    for (const a of words)
      for (const b of words)
        for (const max of [0, 1, 2]) {
          const want = osa(a, b);
          expect(distanceWithin(a, b, max), `${a} ${b} ${max}`).toBe(want <= max ? want : max + 1);
        }
  });

  it('counts a swap of neighbouring letters as one edit', () => {
    expect(distanceWithin('restuar', 'restaur', 1)).toBe(1);
    expect(distanceWithin('calender', 'calendar', 1)).toBe(1);
  });
});

let shipped: ReturnType<typeof tempProject>;
let sel: Selector;
beforeAll(async () => {
  shipped = tempProject();
  cpSync(join(REPO, 'tool_registry'), join(shipped.dir, 'tool_registry'), { recursive: true });
  sel = await openSelector(resolveProject({ cwd: shipped.dir }));
});
afterAll(() => shipped?.cleanup());

const ids = async (q: string, params = RANK) => (await sel.rank(q, { top: 5, params })).results.map((r) => r.id);

describe('on the shipped registry', () => {
  const off = { ...RANK, typos: { ...TYPOS, weight: 0 } };
  it.each([
    ['whats the wether in paris', 'query_weather'],
    ['what is the wheather tomorow', 'query_weather'],
  ])('%s → %s first; without typo tolerance nothing', async (q, want) => {
    expect((await ids(q))[0]).toBe(want);
    expect(await ids(q, off)).toEqual([]);
  });

  it('queries that match as typed rank exactly as without typo tolerance', async () => {
    for (const q of [
      'summarize this csv file',
      'hash this text with sha256',
      'convert 5 miles to kilometers',
      'exchange rate of dollars to yen',
      'what time is it in tokyo',
      'generate a password',
    ])
      expect(await ids(q), q).toEqual(await ids(q, off));
  });

  it('a typo that matched nothing now selects, and says which word it stood for', async () => {
    const r = await sel.rank('whats the wether in paris', { top: 5 });
    expect(r.results[0]!.why.find((w) => w.term === 'weather')).toMatchObject({ via: 'wether' });
  });

  it('a correction never outranks the word as typed, and known words are left alone', () => {
    const ix = (sel as unknown as { index: { lex: Parameters<typeof corrections>[0] } }).index.lex;
    const q = parseQuery('weather wether');
    const made = correctTypos(q, ix);
    expect([...made.keys()]).toEqual(['wether']);
    expect(q.get('weather')).toBe(1); // the typed word keeps its full weight
    expect(corrections(ix, 'wether')).toContain('weather');
    expect(corrections(ix, 'weather')).not.toContain('weather');
    // Short stems have too many neighbours: not corrected.
    expect(corrections(ix, 'dat')).toEqual([]);
  });
});
