// Session context for selection (src/select/context.ts), on hand-made sessions: which earlier turns
// count, at which weight, as context or (for a follow-up) as the query's own terms, and the prior
// for recently used tools, with the values written out (TURNS 3, weight 0.5, prior 0.15 halved per turn).
import { describe, expect, it } from 'vitest';
import type { Session, SessionEvent } from '../../src/policy/session.js';
import { contextQuery, isFollowUp } from '../../src/select/context.js';

const at = '2026-01-01T00:00:00Z';
const selected = (query: string, ...tools: string[]): SessionEvent => ({ at, kind: 'selected', query, tools });
const ran = (...tools: string[]): SessionEvent => ({ at, kind: 'run', tools });
const session = (...events: SessionEvent[]): Session => ({ id: 's', events });
const sorted = <T>(s: Iterable<T>) => [...s].sort();

describe('contextQuery', () => {
  it('without a session (or an empty one) is the query alone', () => {
    for (const s of [undefined, session()]) {
      const c = contextQuery('rain tomorrow', s);
      expect(Object.fromEntries(c.query)).toEqual({ rain: 1, tomorrow: 1 });
      expect([c.fromSession.size, c.prior.size, c.history.length, c.query.context.size]).toEqual([0, 0, 0, 0]);
    }
  });

  it('adds the last three queries as context at 0.5, and a prior of 1 + 0.15·0.5^age for the tools they chose or ran', () => {
    const s = session(
      selected('send email', 'send_email'), // a fourth query back: not used
      selected('stock price', 'stock_price', 'query_weather'),
      selected('', 'query_weather'), // no query (not a turn); its first tool still counts, at its age
      selected('convert miles', 'convert_units', 'calc'),
      ran('calc', 'read_file'),
      selected('weather paris', 'query_weather', 'search_flights'),
    );
    const c = contextQuery('rain tomorrow', s);
    expect(Object.fromEntries(c.query)).toEqual({
      rain: 1,
      tomorrow: 1,
      weather: 0.5,
      pari: 0.5,
      convert: 0.5,
      mile: 0.5,
      stock: 0.5,
      price: 0.5,
    });
    expect(sorted(c.query.context)).toEqual(['convert', 'mile', 'pari', 'price', 'stock', 'weather']);
    expect(sorted(c.fromSession)).toEqual(['convert', 'mile', 'pari', 'price', 'stock', 'weather']);
    expect(c.history).toEqual(['weather paris', 'convert miles', 'stock price']);
    // Only the first tool a query chose; every tool of a run; the newest prior of a tool wins.
    expect(Object.fromEntries(c.prior)).toEqual({
      query_weather: 1.15,
      calc: 1.075,
      read_file: 1.075,
      convert_units: 1.075,
      stock_price: 1.0375,
    });
    // query_weather was chosen again further back: its newest prior (1.15) is kept
  });

  it('skips the same query asked again (no context, no prior from it), but not an older repeat', () => {
    const s = session(selected('weather paris', 'query_weather'), selected('rain tomorrow', 'rain_radar'));
    const c = contextQuery('rain tomorrow', s);
    expect(c.history).toEqual(['weather paris']);
    expect(Object.fromEntries(c.prior)).toEqual({ query_weather: 1.15 });
    // a run in between is no turn: still the same query again
    const afterRun = contextQuery('rain tomorrow', session(selected('rain tomorrow', 'rain_radar'), ran('x')));
    expect(afterRun.history).toEqual([]);
    expect(Object.fromEntries(afterRun.prior)).toEqual({ x: 1.15 });
    // after another query, the repeat counts as a turn
    const older = contextQuery(
      'rain tomorrow',
      session(selected('rain tomorrow', 'rain_radar'), selected('weather paris', 'query_weather')),
    );
    expect(older.history).toEqual(['weather paris', 'rain tomorrow']);
    expect(Object.fromEntries(older.prior)).toEqual({ query_weather: 1.15, rain_radar: 1.075 });
  });

  it('a follow-up takes the earlier queries as its own terms (they may make a tool match), at 0.5', () => {
    const s = session(selected('weather in Berlin', 'query_weather'));
    const c = contextQuery('what about Paris?', s);
    expect(Object.fromEntries(c.query)).toEqual({ pari: 1, weather: 0.5, berlin: 0.5 });
    expect(c.query.context.size).toBe(0);
    expect(sorted(c.fromSession)).toEqual(['berlin', 'weather']);
    // …with their translations, unless translation is off
    const zh = session(selected('北京天气', 'query_weather'));
    expect(contextQuery('那上海呢', zh).query.get('weather')).toBe(0.5);
    expect(contextQuery('那上海呢', zh).query.source.get('weather')).toBe('天气');
    expect(contextQuery('那上海呢', zh, 0).query.has('weather')).toBe(false);
    expect(contextQuery('天气', undefined, 0).query.has('weather')).toBe(false);
  });
});

describe('isFollowUp', () => {
  it('needs a follow-up marker and at most three content words', () => {
    for (const t of [
      '那上海呢',
      '那么北京呢',
      '北京呢？',
      '换成上海',
      'What about Paris?',
      'how about Paris Lyon Nice',
      'and in Berlin',
      'and please help with Paris Lyon', // request fillers are no content words
      'same for Rome',
      'now for Oslo',
      'then for Bern',
      'also for Kyiv',
      '那上海北京天津呢',
    ])
      expect(isFollowUp(t), t).toBe(true);
    for (const t of [
      'how about Paris Lyon Lille Nantes',
      'android phones',
      'weather in Berlin',
      'Paris, and what about Lyon',
      '上海天气',
      '',
    ])
      expect(isFollowUp(t), t).toBe(false);
  });
});
