// What the model is shown: the cut-off (no padding), exact names first, select:ids, pinned tools.
import { afterEach, describe, expect, it } from 'vitest';
import { selectTools } from '../../src/select/index.js';
import { CUTOFF, cutOff, explicitIds, isExactName } from '../../src/select/shape.js';
import { cli } from '../helpers.js';
import { fixtureProject } from './fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());
const ids = (s: { results: { id: string }[] }) => s.results.map((r) => r.id);

describe('cut-off', () => {
  it('keeps tools down to a share of the top score that matched at least a bigram of the query', () => {
    const scores = [10, 2.5, 1.9, 0.4, 30];
    const cover = [1, 1, 1, 1, 0.25];
    expect(CUTOFF).toEqual({ relative: 0.2, minCover: 0.5, minContent: 1 });
    expect(cutOff([4, 0, 1, 2, 3], scores, cover)).toEqual([0, 1]); // 4 matched single characters only
    expect(cutOff([3], scores, cover)).toEqual([3]);
    expect(cutOff([4], scores, cover)).toEqual([]);
    expect(cutOff([0, 1, 2, 3], scores, cover, { minScore: 2 })).toEqual([0, 1]);
    expect(cutOff([0, 1, 2, 3], scores, cover, { minScore: 3 })).toEqual([0]);
    expect(cutOff([4, 0, 1, 2, 3], scores, cover, { cutoff: false })).toEqual([4, 0, 1, 2, 3]);
  });
});

describe('cut-off, the boundaries', () => {
  it('keeps a tool that matched exactly one bigram (0.5) and one at exactly a fifth of the top score', () => {
    expect(cutOff([0, 1, 2], [10, 2, 1.99], [1, 0.5, 1])).toEqual([0, 1]);
    expect(cutOff([0, 1], [10, 9], [1, 0.49])).toEqual([0]);
    expect(cutOff([0, 1], [10, 3], [1, 1], { minScore: 3 })).toEqual([0, 1]);
    expect(cutOff([], [], [])).toEqual([]);
  });
});

describe('names, the edges', () => {
  it('takes select: only at the start, and drops empty ids', () => {
    expect(explicitIds('  SELECT:a,,b , ,a')).toEqual(['a', 'b']);
    expect(explicitIds('I would select: read_file')).toBeUndefined();
    expect(explicitIds('preselect: read_file')).toBeUndefined();
  });

  it('compares names after trimming, case folding and collapsing runs of _ - . and spaces, never an empty query', () => {
    expect(isExactName('  query   weather  ', 'query_weather')).toBe(true);
    expect(isExactName('search--flights', 'search_flights')).toBe(true);
    expect(isExactName('stock . price', 'stock.price')).toBe(true);
    expect(isExactName('queryweather', 'query_weather')).toBe(false);
    expect(isExactName('weather', 'query_weather')).toBe(false);
    expect(isExactName('  ', 'x', '')).toBe(false);
    expect(isExactName('', 'x', ' ')).toBe(false);
    expect(isExactName('Weather Now', 'w1', 'weather-now')).toBe(true);
  });
});

describe('names', () => {
  it('parses select:ids and loose exact names', () => {
    expect(explicitIds('select: read_file, send_email,read_file')).toEqual(['read_file', 'send_email']);
    expect(explicitIds('please select a file')).toBeUndefined();
    expect(isExactName('Query Weather', 'query_weather')).toBe(true);
    expect(isExactName('search-flights', 'search_flights')).toBe(true);
    expect(isExactName('查询天气', 'query_weather', '查询天气')).toBe(true);
    expect(isExactName('weather', 'query_weather', '查询天气')).toBe(false);
  });

  it('puts the tool a query names first, returns select:ids as asked, and pins select.always', async () => {
    fx = fixtureProject();
    const p = fx.project();
    const byId = await selectTools(p, 'read_file');
    expect(byId.results[0]).toMatchObject({ id: 'read_file', reason: 'exact' });
    const byName = await selectTools(p, 'translateText');
    expect(byName.results[0]).toMatchObject({ id: 'translate_text', reason: 'exact' });
    const asked = await selectTools(p, 'select:stock_price,nope,read_file');
    expect(ids(asked)).toEqual(['stock_price', 'read_file']);
    expect(asked.warnings.join('\n')).toMatch(/'nope'/);
    fx.cleanup();
    fx = fixtureProject({ 'toolbox.config.yaml': 'select:\n  always: [read_file]\n' });
    const pinned = await selectTools(fx.project(), 'stock price of AAPL');
    expect(ids(pinned)).toEqual(['stock_price', 'read_file']);
    expect(pinned.results[1]!.reason).toBe('pinned');
    expect(ids(await selectTools(fx.project(), 'zzqqxx'))).toEqual(['read_file']);
  });
});

describe('toolbox select', () => {
  it('exits 0 with an empty list when nothing matches, and says so', async () => {
    fx = fixtureProject();
    const human = await cli(['select', 'zzqqxx blorfle'], { cwd: fx.dir });
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/No tool matches/);
    const json = await cli(['select', 'zzqqxx blorfle', '--json'], { cwd: fx.dir });
    expect(json.code).toBe(0);
    expect(json.json.results).toEqual([]);
  });

  it('treats --top as a maximum and checks --min-score', async () => {
    fx = fixtureProject();
    const r = await cli(['select', 'stock price', '--json', '--top', '8'], { cwd: fx.dir });
    expect(r.json.results.length).toBeLessThan(8);
    const bad = await cli(['select', 'stock price', '--json', '--min-score', 'x'], { cwd: fx.dir });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.code).toBe('invalid_min_score');
    const high = await cli(['select', 'stock price', '--json', '--min-score', '1000'], { cwd: fx.dir });
    expect(high.json.results).toEqual([]);
  });
});
