// Never silent on a task (issue 35 item 1): dates, numbers, amounts, questions for a date or time,
// imperatives and content words that also occur in chat make a query a task whatever pleasantries
// surround it; small talk still selects nothing; an empty list says why, and so does a missing tool.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { checkRouting } from '../../src/select/routing.js';
import { openSelector, selectTools, type Selector } from '../../src/select/index.js';
import { CUTOFF } from '../../src/select/shape.js';
import { weighTask } from '../../src/select/small-talk.js';
import { REPO, spawnCli, tempProject } from '../helpers.js';

let shipped: ReturnType<typeof tempProject>;
let sel: Selector;
beforeAll(async () => {
  // A copy: opening a registry writes its index under .toolbox/cache/ (never into the checkout).
  shipped = tempProject();
  cpSync(join(REPO, 'tool_registry'), join(shipped.dir, 'tool_registry'), { recursive: true });
  sel = await openSelector(resolveProject({ cwd: shipped.dir }));
});
afterAll(() => shipped?.cleanup());

const ids = async (q: string) => (await sel.rank(q, { top: 5 })).results.map((r) => r.id);

describe('tasks the issue found silent, on the shipped registry', () => {
  // [query, the tool it wants, the class of the fix]
  const table: [string, string, string][] = [
    ['what day of the week is Christmas', 'date_calculator', 'question for a date'],
    ['what day is it today', 'date_calculator', 'question for a date'],
    ['what week of the year is it', 'date_calculator', 'question for a date'],
    ['what day will it be in 100 days', 'date_calculator', 'number + question'],
    ['which day is 2025-01-01', 'date_calculator', 'date'],
    ["thanks! now what's 2 to the power of 20", 'calculator', 'spelled power, inside thanks'],
    ['How much is 1000 USD in EUR?', 'exchange_rate', 'amount'],
    ['hi there, could you tell me what week of the year it is?', 'date_calculator', 'question inside small talk'],
    ['謝謝！那 2 的 16 次方是多少', 'calculator', 'power in Chinese, inside thanks'],
    ['what is 15% of 240', 'calculator', 'percent'],
  ];
  it.each(table)('%s → %s (%s)', async (q, tool) => {
    const got = await ids(q);
    expect(got.slice(0, 3), q).toContain(tool);
  });
});

describe('what makes a query a task (weighTask)', () => {
  const task: [string, string][] = [
    ['Unmute everyone', 'everyone is a filler, not chat'],
    ['What exactly is that concert?', 'exactly is a filler, not chat'],
    ['想知道现在的道路情况', '知道 in 想知道 is a request, not chat'],
    ['thanks! see you in 3 days', 'a number beside a word'],
    ['ok, and which weekday was 1999-12-31?', 'a date'],
    ['cheers, how many days until Christmas', 'how many + a time noun'],
    ['你好，圣诞节是星期几', '星期几'],
    ['哈哈好的，那今天是几号', '几号'],
    ['帮我好好检查一下这段代码', '好好 is a degree word, the rest is a request'],
  ];
  it.each(task)('"%s" is a task (%s)', (q) => {
    expect(weighTask(q).weight).toBeGreaterThanOrEqual(CUTOFF.minContent);
  });

  it('an imperative is a task inside thanks; only a verb that opens a clause makes one', () => {
    expect(weighTask('thanks, unmute everyone')).toMatchObject({ mark: 'imperative' });
    expect(weighTask('great! now could you please delete it')).toMatchObject({ mark: 'imperative' });
    expect(weighTask('thanks for the unmute').weight).toBeLessThan(CUTOFF.minContent);
    expect(weighTask('thanks! weather').weight).toBeLessThan(CUTOFF.minContent);
  });

  const talk = [
    'what a day!',
    'how was your week?',
    'have a great weekend',
    'merry christmas',
    'thanks, see you tomorrow',
    '周末愉快',
    // Laughter: 好好 is a degree word (好好笑 "so funny"), 搞笑 and 笑死 are reactions (issue 35 item 4).
    '哈哈，好好笑',
    '哈哈哈 太搞笑了',
    '笑死我了',
  ];
  it.each(talk)('"%s" is still small talk', (q) => {
    expect(weighTask(q).weight).toBeLessThan(CUTOFF.minContent);
  });
});

describe('held-out lists written before the change (test/fixtures/select/held-out-35.jsonl)', () => {
  const rows = readFileSync(join(REPO, 'test/fixtures/select/held-out-35.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { text: string; kind: string; relevant?: string[] });
  it('small talk selects nothing (at most 2 of 65 through), tasks find their tool in the top 3 (at least 48 of 50)', async () => {
    let talkThrough = 0;
    let tasksTop3 = 0;
    for (const r of rows) {
      const got = await ids(r.text);
      if (r.kind === 'talk') talkThrough += got.length ? 1 : 0;
      else if (got.slice(0, 3).includes(r.relevant![0]!)) tasksTop3++;
    }
    expect(rows.filter((r) => r.kind === 'talk')).toHaveLength(65);
    expect(talkThrough).toBeLessThanOrEqual(2);
    expect(tasksTop3).toBeGreaterThanOrEqual(48);
  });
});

describe('why the list is empty, and why a tool is not in it', () => {
  it('names the rule: small talk (with its words), no match, permissions, cut-off', async () => {
    const p = resolveProject({ cwd: shipped.dir });
    const talk = await selectTools(p, 'thanks, nice work');
    expect(talk.empty).toMatchObject({ reason: 'small_talk', needed: 1, conversation: true });
    expect(talk.empty?.reason === 'small_talk' && talk.empty.words.map((w) => w.word)).toEqual(['work']);
    expect((await selectTools(p, 'zzqqxx blorfle')).empty).toEqual({ reason: 'no_match' });
    expect((await selectTools(p, 'send an email to bob smtp', { caller: { role: 'guest' } })).empty).toBeUndefined();
    const role = await selectTools(p, 'smtp', { caller: { role: 'guest' } });
    expect(role.empty).toMatchObject({ reason: 'role', matched: 1 });
    const cut = await selectTools(p, 'weather', { minScore: 1e6 });
    expect(cut.empty).toMatchObject({ reason: 'cutoff', rule: 'min_score', best: 'query_weather' });
    expect((await selectTools(p, 'weather')).empty).toBeUndefined();
  });

  it('explains a named tool: listed, after the top K, no match, not allowed, small talk, unknown', async () => {
    const p = resolveProject({ cwd: shipped.dir });
    const s = await selectTools(p, 'convert 5 miles to km', {
      top: 1,
      caller: { role: 'guest' },
      explain: ['convert_units', 'convert_timezone', 'calculator', 'send_email', 'nope'],
    });
    expect(s.explained!.map((v) => v.reason)).toEqual(['listed', 'beyond_top', 'no_match', 'not_allowed', 'unknown']);
    const talk = await selectTools(p, 'thanks a lot!', { explain: ['calculator'] });
    expect(talk.explained![0]).toMatchObject({ reason: 'small_talk' });
  });

  it('select --json carries why_empty and --explain; the human form says it on stderr', async () => {
    const j = await spawnCli(['select', 'thanks, nice work', '--json', '--explain', 'calculator'], {
      cwd: shipped.dir,
    });
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout);
    expect(doc.why_empty.reason).toBe('small_talk');
    expect(doc.explain[0]).toMatchObject({ id: 'calculator', reason: 'small_talk' });
    const h = await spawnCli(['select', 'thanks, nice work', '--verbose'], { cwd: shipped.dir });
    expect(h.stderr).toMatch(/reads as small talk.*work 0\.56 \(common in everyday talk\)/);
    expect(h.stderr).not.toMatch(/No tool matches/);
  });
});

describe("validate's routing check reports an example that selects nothing", () => {
  it('names an example the small-talk gate stops', async () => {
    const p = tempProject();
    try {
      const c = (id: string, d: string, ex: string[]) =>
        [
          `id: ${id}`,
          `name: ${id}`,
          `description: ${d}`,
          'schema: { type: object, properties: {} }',
          'loader: command',
          'loader_config: { argv: ["true"] }',
          'examples:',
          ...ex.map((e) => `  - ${e}`),
          '',
        ].join('\n');
      p.write(
        'tool_registry/weather.yaml',
        c('weather', 'Current weather for a city.', ['weather in Paris', 'thanks! weather']),
      );
      p.write('tool_registry/notes.yaml', c('notes', 'Search your notes.', ['search my notes']));
      const ds = await checkRouting(loadRegistry(resolveProject({ cwd: p.dir })), { top: 3 });
      expect(ds.map((d) => [d.path, d.message.includes('selects nothing')])).toEqual([['examples.1', true]]);
    } finally {
      p.cleanup();
    }
  });
});
