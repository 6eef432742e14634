import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { selectTools } from '../../src/select/index.js';
import { contextQuery, isFollowUp } from '../../src/select/context.js';
import { readSession, recordSessionEvent } from '../../src/policy/session.js';
import { fixtureProject } from '../select/fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());

describe('session memory', () => {
  it('carries the task of earlier turns into an elliptical follow-up', async () => {
    fx = fixtureProject();
    const p = fx.project();
    expect((await selectTools(p, '查询北京今天天气', { session: 's1' })).results[0]!.id).toBe('query_weather');
    const follow = await selectTools(p, '那上海呢', { session: 's1' });
    expect(follow.results[0]!.id).toBe('query_weather');
    expect(follow.history).toEqual(['查询北京今天天气']);
    expect(follow.results[0]!.why.some((w) => w.session)).toBe(true);
    // A city no contract mentions: only the session can route it.
    expect((await selectTools(p, '那广州呢')).results.map((r) => r.id)).not.toContain('query_weather');
    expect((await selectTools(p, '那广州呢', { session: 's1' })).results[0]!.id).toBe('query_weather');
    expect(existsSync(join(fx.dir, '.toolbox', 'sessions', 's1.json'))).toBe(true);
    expect(readSession(p, 's1').events.map((e) => e.query)).toEqual(['查询北京今天天气', '那上海呢', '那广州呢']);
  });

  it('does not override a new, self-contained request', async () => {
    fx = fixtureProject();
    const p = fx.project();
    await selectTools(p, '查询北京今天天气', { session: 's2' });
    expect((await selectTools(p, 'send an email to my manager', { session: 's2' })).results[0]!.id).toBe('send_email');
    expect((await selectTools(p, 'translate this sentence into Chinese', { session: 's2' })).results[0]!.id).toBe(
      'translate_text',
    );
    expect((await selectTools(p, '给张三发一封邮件', { session: 's2' })).results[0]!.id).toBe('send_email');
  });

  it('gives recently run tools a small prior that only reorders matching tools', async () => {
    fx = fixtureProject();
    const p = fx.project();
    recordSessionEvent(p, 's3', { kind: 'run', tools: ['stock_price'] });
    const ctx = contextQuery('latest price', readSession(p, 's3'));
    expect(ctx.prior.get('stock_price')).toBeGreaterThan(1);
    const without = await selectTools(p, 'latest price');
    const withRun = await selectTools(p, 'latest price', { session: 's3', record: false });
    const score = (s: typeof without, id: string) => s.results.find((r) => r.id === id)?.score ?? 0;
    expect(score(withRun, 'stock_price')).toBeGreaterThan(score(without, 'stock_price'));
    expect(withRun.results.map((r) => r.id)).not.toContain('read_file'); // no match stays no match
    expect(readSession(p, 's3').events).toHaveLength(1); // record: false
  });

  it('never lets the session make a query with no matching words return tools', async () => {
    fx = fixtureProject();
    const p = fx.project();
    await selectTools(p, 'search flights to Tokyo', { session: 's4' });
    expect((await selectTools(p, 'zzqqxx blorfle', { session: 's4' })).results).toEqual([]);
    expect((await selectTools(p, 'bake a chocolate cake', { session: 's4' })).results).toEqual([]);
    // Context still helps a query that matches on its own words.
    const own = await selectTools(p, 'price', { session: 's4', record: false });
    expect(own.results.map((r) => r.id)).toContain('stock_price');
  });

  it('treats only short turns with a follow-up marker as follow-ups', () => {
    expect(isFollowUp('那上海呢')).toBe(true);
    expect(isFollowUp('what about Paris?')).toBe(true);
    expect(isFollowUp('and in Berlin')).toBe(true);
    expect(isFollowUp('zzqqxx blorfle')).toBe(false);
    expect(isFollowUp('book a flight to Paris')).toBe(false);
    expect(isFollowUp('and then send an email with the quarterly report to my manager and the team')).toBe(false);
  });
});
