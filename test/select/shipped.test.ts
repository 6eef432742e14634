// The shipped registry (tool_registry/ of this repository), copied into a temp project so that
// the index is written there and not into the working tree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, REPO, tempProject } from '../helpers.js';

const SHIPPED = join(REPO, 'tool_registry');
// The top 3 (at most) per case, pinned; rewrite with scripts/update-shipped-top3.mjs after a deliberate model change.
const TOP3 = JSON.parse(readFileSync(join(REPO, 'test', 'fixtures', 'select', 'shipped-top3.json'), 'utf8')) as Record<
  string,
  string[]
>;
let proj: ReturnType<typeof tempProject>;

describe('selection on the shipped registry', () => {
  beforeAll(() => {
    proj = tempProject();
    cpSync(SHIPPED, join(proj.dir, 'tool_registry'), { recursive: true });
    cpSync(join(REPO, 'test', 'fixtures', 'select', 'shipped-cases.jsonl'), join(proj.dir, 'cases.jsonl'));
  });
  afterAll(() => proj.cleanup());

  const first = async (q: string, extra: string[] = []) => {
    const r = await cli(['select', q, '--json', ...extra], { cwd: proj.dir });
    expect(r.code, r.stderr).toBe(0);
    return r.json.results[0]?.id;
  };

  it('selects query_weather and send_email first for the reference requests', async () => {
    expect(await first('查询北京今天天气')).toBe('query_weather');
    expect(await first('北京明天会下雨吗')).toBe('query_weather');
    // send_email is restricted to roles admin/assistant in the shipped contract.
    const role = ['--role', 'assistant'];
    expect(await first('给张三发一封邮件', role)).toBe('send_email');
    expect(await first('send an email to my manager', role)).toBe('send_email');
  });

  const ids = async (q: string, extra: string[] = []) => {
    const r = await cli(['select', q, '--json', ...extra], { cwd: proj.dir });
    expect(r.code, r.stderr).toBe(0);
    return (r.json.results as { id: string }[]).map((x) => x.id);
  };

  it('answers English requests against Chinese descriptions through the glossary, without padding', async () => {
    expect(await ids('will it rain in Beijing tomorrow')).toEqual(['query_weather', 'convert_timezone']);
    expect(await ids('temperature in Paris')).toEqual(['query_weather', 'convert_units']);
    expect(await ids('what is 15 percent of 240')).toEqual(['calculator']);
    // 查 alone no longer drags general_search in: the list stops where the scores fall off.
    expect(await ids('查询北京今天天气')).toEqual(['query_weather', 'convert_timezone', 'exchange_rate']);
    expect(await ids('zzqqxx blorfle')).toEqual([]);
  });

  it('sends an arithmetic expression to the calculator, whatever words are around it', async () => {
    for (const q of ['what is 17*23', 'work out 17*23', "what's 144 / 12 + 7?", '你能算算 (15+27)/6 吗'])
      expect(await first(q), q).toBe('calculator');
  });

  it('never lets a session make an unrelated request return tools', async () => {
    expect(await ids('convert 5 miles to km', ['--session', 'leak'])).toEqual([
      'convert_units',
      'convert_timezone',
      'exchange_rate',
    ]);
    expect(await ids('book a flight to Paris', ['--session', 'leak'])).toEqual([]);
    expect(await ids('zzqqxx blorfle', ['--session', 'leak'])).toEqual([]);
  });

  it('never selects send_email for a caller without its role', async () => {
    const r = await cli(['select', 'send an email to my manager', '--json', '--role', 'guest'], { cwd: proj.dir });
    expect(r.json.results.map((x: { id: string }) => x.id)).not.toContain('send_email');
  });

  it('a role filter that leaves nothing fitting returns nothing, and says which tools it withheld (issue 38)', async () => {
    const q = '给张三发一封邮件';
    const guest = await cli(['select', q, '--json', '--role', 'guest'], { cwd: proj.dir });
    expect(guest.code).toBe(0);
    expect(guest.json.results).toEqual([]); // not the five best of the rest
    expect(guest.json.withheld).toEqual(['send_email']);
    const human = await cli(['select', q, '--role', 'guest'], { cwd: proj.dir });
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/send_email fits .*but the caller may not use it/);
    const assistant = await cli(['select', q, '--json', '--role', 'assistant'], { cwd: proj.dir });
    expect(assistant.json.results.map((x: { id: string }) => x.id)).toEqual(['send_email']);
    expect(assistant.json.withheld).toBeUndefined();
    // A filtered list is never longer than the unfiltered one: the role only takes tools out.
    for (const query of ['send an email to my manager', '给张三发一封邮件', '查询北京今天天气']) {
      const all = await cli(['select', query, '--json', '--role', 'admin'], { cwd: proj.dir });
      const some = await cli(['select', query, '--json', '--role', 'guest'], { cwd: proj.dir });
      const allIds = all.json.results.map((x: { id: string }) => x.id);
      for (const x of some.json.results) expect(allIds).toContain(x.id);
    }
  });

  it('keeps the task across a session: "那上海呢" after a weather question', async () => {
    expect(await first('查询北京今天天气', ['--session', 'ref'])).toBe('query_weather');
    expect(await first('那上海呢', ['--session', 'ref'])).toBe('query_weather');
    expect(await first('那广州呢', ['--session', 'ref'])).toBe('query_weather');
  });

  it('gives the pinned top 3 for every hand-written case', async () => {
    const cases = readFileSync(join(REPO, 'test', 'fixtures', 'select', 'shipped-cases.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { query: string });
    expect(Object.keys(TOP3).sort()).toEqual(cases.map((c) => c.query).sort());
    for (const { query } of cases) {
      const r = await cli(['select', query, '--json', '--role', 'assistant', '-k', '3'], { cwd: proj.dir });
      expect(r.code, r.stderr).toBe(0);
      expect(
        r.json.results.map((x: { id: string }) => x.id),
        query,
      ).toEqual(TOP3[query]);
    }
  });

  it('ranks the hand-written Chinese/English cases well', async () => {
    const r = await cli(['eval', 'cases.jsonl', '--json', '--role', 'assistant'], { cwd: proj.dir });
    expect(r.code).toBe(0);
    expect(r.json.unknown).toEqual([]);
    expect(r.json.metrics['p@1']).toBeGreaterThanOrEqual(0.85);
    expect(r.json.metrics['r@5']).toBeGreaterThanOrEqual(0.9);
  });
});
