// Glossary senses (issue 35 item 4): Chinese text is split against the glossary's headwords by longest
// match (up to 4 characters: 短视频 is one word, not 短视 "myopic" + 频 "frequent"), a word in verb
// position takes its verb senses first, and single-character particles and degree words in context
// are not glossed (好好笑 is "so funny", not "well, nicely … laugh").
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { openSelector, type Selector } from '../../src/select/index.js';
import { senses } from '../../src/select/lexicon.js';
import { parseQuery } from '../../src/select/query.js';
import { glossedWords, glossStems, glossWeights, segment, translateZh } from '../../src/select/translate.js';
import { REPO, tempProject } from '../helpers.js';

const contract = (id: string, description: string) =>
  `id: ${id}\nname: ${id}\ndescription: ${JSON.stringify(description)}\n` +
  `schema:\n  type: object\n  properties: {}\nloader: command\nloader_config:\n  argv: ["true"]\n`;

/** A registry of English tools where the old glosses of 短视 (myopic), 频 (frequent) and 播放 (broadcast) each find a tool. */
const TOOLS: Record<string, string> = {
  play_short_video: 'Play a short video clip in the media player',
  search_videos: 'Search videos by keyword and list their titles',
  eye_exam: 'Screen for myopia: a shortsighted vision test',
  word_frequency: 'Count how frequently each word occurs in a text',
  broadcast_alert: 'Broadcast an alert to every subscriber',
  close_window: 'Close or shut a window of the desktop',
  mountain_pass: 'Road conditions on a mountain pass',
  weather_report: 'Weather report and forecast for a city',
  good_news: 'Share good news, nice words and well wishes',
  taxi_booking: 'Book a taxi or a cab',
};

let project: ReturnType<typeof tempProject>;
let sel: Selector;
let shipped: ReturnType<typeof tempProject>;
let shippedSel: Selector;
beforeAll(async () => {
  project = tempProject(
    Object.fromEntries(Object.entries(TOOLS).map(([id, d]) => [`tool_registry/${id}.yaml`, contract(id, d)])),
  );
  sel = await openSelector(resolveProject({ cwd: project.dir }));
  shipped = tempProject();
  cpSync(join(REPO, 'tool_registry'), join(shipped.dir, 'tool_registry'), { recursive: true });
  shippedSel = await openSelector(resolveProject({ cwd: shipped.dir }));
});
afterAll(() => {
  project?.cleanup();
  shipped?.cleanup();
});

const ids = async (s: Selector, q: string) => (await s.rank(q, { top: 5 })).results.map((r) => r.id);

describe('segmenting against the glossary, longest match first', () => {
  it('keeps words of 3 and 4 characters whole', () => {
    expect(segment('播放短视频')).toEqual(['播放', '短视频']);
    expect(segment('查询天气预报')).toEqual(['查询', '天气预报']);
    expect(segment('发电子邮件')).toEqual(['发', '电子邮件']);
    expect(senses('短视频')).toEqual(['short video', 'video clip']);
  });

  it('gives 播放短视频 the senses of a short video, not of myopia and frequency', () => {
    const q = parseQuery('播放短视频');
    expect(q.source.get('video')).toBe('短视频');
    expect(q.source.get('short')).toBe('短视频');
    for (const noise of ['myopic', 'shortsight', 'frequenc', 'frequent']) expect(q.has(noise), noise).toBe(false);
  });

  it('ranks the play-short-video tool first, in simplified and traditional script', async () => {
    for (const q of ['播放短视频', '播放短視頻', '帮我播放一个短视频']) {
      const got = await ids(sel, q);
      expect(got[0], q).toBe('play_short_video');
      expect(got, q).not.toContain('eye_exam');
      expect(got, q).not.toContain('word_frequency');
    }
  });
});

describe('particles and degree words', () => {
  it('glosses neither a degree word before what it modifies nor a particle', () => {
    expect(glossedWords('好好笑').map((w) => w.word)).toEqual(['笑']); // 好好 + 笑: the degree word goes
    expect(glossedWords('非常快速地转换文件').map((w) => w.word)).toEqual(['快速', '转换', '文件']);
    expect(glossedWords('今天天气很好').map((w) => w.word)).toEqual(['今天', '天气', '好']); // 好 last: good
    const t = translateZh('非常快速地转换文件');
    for (const noise of ['unusu', 'extraordinari', 'earth', 'ground']) expect(t[noise], noise).toBeUndefined();
    expect(t.convert).toBeGreaterThan(0);
    // The rule itself, whatever the small-talk lists hold: nothing of 好好 (well, nicely) or 好 (good).
    const laugh = translateZh('哈哈，好好笑');
    for (const noise of ['well', 'nice', 'nicel', 'good', 'proper', 'care'])
      expect(laugh[noise], noise).toBeUndefined();
  });

  it('keeps a Chinese tool description free of 的 (taxi, cab) and 地 (earth)', () => {
    const t = translateZh('快速地查询城市的天气预报');
    for (const noise of ['taxi', 'cab', 'earth', 'realli']) expect(t[noise], noise).toBeUndefined();
    expect(t.weather).toBeGreaterThan(0);
  });

  it('哈哈，好好笑 selects nothing, on the shipped registry and on one with nice and good tools', async () => {
    expect(await ids(shippedSel, '哈哈，好好笑')).toEqual([]);
    expect(await ids(sel, '哈哈，好好笑')).toEqual([]);
  });

  it('好 in 好用的天气工具 adds nothing: the same tools as 天气工具', async () => {
    expect(glossedWords('好用的天气工具').map((w) => w.word)).toEqual(['好用', '天气', '工具']);
    const plain = await ids(sel, '天气工具');
    expect(plain[0]).toBe('weather_report');
    expect(await ids(sel, '好用的天气工具')).toEqual(plain);
    expect(await ids(sel, '很好用的天气工具')).toEqual(plain);
    expect(await ids(sel, '好用的天气工具')).not.toContain('good_news');
  });
});

describe('senses by position', () => {
  it('puts verb senses first for a word in verb position', () => {
    expect(glossStems('关')).toContain('mountain');
    expect(glossedWords('关窗户')).toEqual([
      { word: '关', verb: true },
      { word: '窗户', verb: false },
    ]);
    expect(glossedWords('请帮我关窗户').find((w) => w.word === '关')?.verb).toBe(true);
    expect(glossedWords('打开窗户').find((w) => w.word === '窗户')?.verb).toBe(false);
    const verb = glossStems('关', true);
    expect(verb.slice(0, 2)).toEqual(['close', 'shut']);
    expect(verb).not.toContain('mountain');
    const w = Object.fromEntries(glossWeights('关', true));
    expect(w.close).toBeGreaterThan(0);
  });

  it('关窗户 finds the window tool and not the mountain pass', async () => {
    const got = await ids(sel, '关窗户');
    expect(got[0]).toBe('close_window');
    expect(got).not.toContain('mountain_pass');
  });
});
