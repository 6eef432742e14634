// Small talk selects nothing (issue 26): a query whose content words, after stop words and small talk
// in both languages, name too little task. A task wrapped in small talk still finds its tool.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { openSelector, selectTools } from '../../src/select/index.js';
import { CUTOFF } from '../../src/select/shape.js';
import { aboutAssistant, contentWeight, informative, TALK } from '../../src/select/small-talk.js';
import { tokenize } from '../../src/select/tokenize.js';
import { REPO, tempProject } from '../helpers.js';
import { fixtureProject } from './fixture.js';

let fx: ReturnType<typeof fixtureProject>;
let shipped: ReturnType<typeof tempProject> | undefined;
afterEach(() => {
  fx?.cleanup();
  shipped?.cleanup();
  shipped = undefined;
});

const ids = async (q: string, opts = {}) => (await selectTools(fx.project(), q, opts)).results.map((r) => r.id);

describe('how much task a query names (contentWeight)', () => {
  it('weighs greetings, thanks and chit-chat below one content word, in both languages', () => {
    for (const q of [
      'thanks, that was helpful',
      'hi',
      'how are you doing today?',
      "how's your day going?",
      'nice work',
      'sorry, I was away',
      '你好呀，今天过得怎么样？',
      '谢谢你，辛苦了',
      '你在吗',
      '好的好的，感谢',
      '晚上好，吃了没',
    ])
      expect(contentWeight(q), q).toBeLessThan(CUTOFF.minContent);
  });

  it('weighs a task at one content word or more, also inside small talk', () => {
    for (const q of [
      'weather',
      'what time is it',
      'hi! could you convert 5 miles to km? thanks',
      '你好，帮我查一下北京天气，谢谢',
      'thanks! now translate this into French',
      '查询北京今天天气',
      'weather today',
    ])
      expect(contentWeight(q), q).toBeGreaterThanOrEqual(CUTOFF.minContent);
  });

  it('counts words of time and chat topics a quarter, and each word once', () => {
    expect(contentWeight('today tomorrow')).toBe(0.5);
    expect(contentWeight('weather weather today')).toBe(1.25);
    expect(contentWeight('今天 明天 周末 吃饭')).toBe(1);
  });

  it('judges a query without small talk by its words alone, as before', () => {
    expect(contentWeight('what time is it')).toBe(1);
    expect(contentWeight('work')).toBe(1);
    // In conversation the same word counts only as much as it is rare in everyday talk.
    expect(contentWeight('thanks, work')).toBeCloseTo(informative('work') - TALK.social, 10);
  });

  it('weighs praise and questions to the assistant about itself below one content word', () => {
    for (const q of [
      'what is your name',
      'who built you?',
      'do you like films?',
      'great, that worked perfectly',
      'you did a brilliant job',
      '你叫什么',
      '你是真人吗？',
      '干得不错，谢谢',
    ])
      expect(contentWeight(q), q).toBeLessThan(CUTOFF.minContent);
    for (const q of [
      'great! now what is the exchange rate of the euro?',
      'thanks, you are a star. convert 3 gallons to litres',
      '太棒了，再帮我查一下上海天气',
    ])
      expect(contentWeight(q), q).toBeGreaterThanOrEqual(CUTOFF.minContent);
  });

  it('rates a word by how rare it is in everyday talk (data/talk-freq.tsv)', () => {
    expect(informative('you')).toBe(0); // rank 1
    expect(informative('weather')).toBe(1); // past TALK.rare
    expect(informative('sha256')).toBe(1); // not in the list
    const work = informative('work');
    expect(work).toBeGreaterThan(0);
    expect(work).toBeLessThan(1);
    expect(informative('name')).toBeGreaterThan(work); // less common than "work"
    expect(informative('天气')).toBe(1);
    expect(informative('什么')).toBe(0);
    // Particles glued on by the segmenter do not make a word rare.
    expect(informative('死了')).toBe(informative('死'));
    expect(informative('死')).toBeLessThan(1);
  });

  it('tells a question about the assistant from a request to it (aboutAssistant)', () => {
    for (const q of [
      "what's your name?",
      'are you a robot?',
      'do you like music?',
      'can you feel pain?',
      'who made you',
      'what do you think of me?',
      'where do you live',
      '你叫什么名字',
      '你是机器人吗',
      '你有感情吗',
    ])
      expect(aboutAssistant(q), q).toBe(true);
    for (const q of [
      'can you convert 5 miles to km',
      'do you know the weather in paris',
      'i need you to send an email',
      'could you tell me the time in tokyo',
      '你能帮我查一下天气吗',
      '你知道北京天气吗',
      'convert 5 miles to km',
      // "you" as anyone, or as an object.
      'how do you reset a router?',
      'what do you call a group of crows',
      'what do you get if you multiply 12 by 7',
      'this is for you: convert 10 km to miles',
    ])
      expect(aboutAssistant(q), q).toBe(false);
    // An arithmetic expression is a task whatever is around it.
    expect(contentWeight("nice one! and what's 345 times 12?")).toBe(CUTOFF.minContent);
    expect(contentWeight('谢谢！128乘64等于多少')).toBeGreaterThanOrEqual(CUTOFF.minContent);
    // A how-to question keeps the weight of its words.
    expect(contentWeight('how do you make pancakes')).toBe(1.25);
  });

  it('drops small talk from the query terms, with the Chinese bigrams and characters it touches', () => {
    expect(tokenize('thanks, weather please', { query: true }).map((t) => t.term)).toEqual(['weather']);
    // An adverb made of a small-talk word is small talk too.
    expect(tokenize('works perfectly, weather', { query: true }).map((t) => t.term)).toEqual(['work', 'weather']);
    expect(tokenize('今天天气怎么样', { query: true }).map((t) => t.term)).not.toContain('样');
    expect(tokenize('谢谢你辛苦了', { query: true })).toEqual([]);
    const terms = tokenize('你好，查天气', { query: true }).map((t) => t.term);
    expect(terms).toContain('天气');
    expect(terms.some((t) => t.includes('好'))).toBe(false);
    // Documents keep them: "a thank-you card" is a topic.
    expect(tokenize('thanks 谢谢').map((t) => t.term)).toEqual(expect.arrayContaining(['thank', '谢谢', '谢']));
  });
});

describe('selectTools and small talk', () => {
  it('selects nothing for small talk in English and Chinese', async () => {
    fx = fixtureProject();
    for (const q of ['thanks, that was helpful', '你好呀，今天过得怎么样？', '谢谢你，辛苦了', 'good morning!', 'bye'])
      expect(await ids(q), q).toEqual([]);
  });

  it('still finds the tool of a task wrapped in small talk', async () => {
    fx = fixtureProject();
    expect((await ids('hi! could you send an email to my manager? thanks'))[0]).toBe('send_email');
    expect((await ids('你好，帮我查一下北京天气，谢谢'))[0]).toBe('query_weather');
    expect((await ids('您好！把这句话翻译成英文 辛苦了，谢谢！'))[0]).toBe('translate_text');
  });

  it('still offers pinned tools, answers a tool id, and lets a follow-up lean on the session', async () => {
    fx = fixtureProject({ 'toolbox.config.yaml': 'select:\n  always: [read_file]\n' });
    expect(await ids('thanks!')).toEqual(['read_file']);
    fx.write('toolbox.config.yaml', '');
    fx.write(
      'tool_registry/hello.yaml',
      'id: hello\nname: hello\ndescription: Prints a greeting.\nschema: { type: object }\nloader: command\nloader_config: { argv: [echo, hi] }\n',
    );
    expect(await ids('hello')).toEqual(['hello']);
    const session = {
      id: 's',
      events: [{ at: '', kind: 'selected' as const, query: '查询北京今天天气', tools: ['query_weather'] }],
    };
    const sel = await openSelector(fx.project());
    expect((await sel.rank('and tomorrow?', { session })).results[0]?.id).toBe('query_weather');
    expect((await sel.rank('tomorrow?')).results).toEqual([]);
    // No cut-off at all (eval --no-cutoff): small talk is ranked like any query.
    expect((await sel.rank('thanks, weather', { cutoff: false })).results[0]?.id).toBe('query_weather');
  });

  it('keeps 95 % of our small-talk list from selecting anything on the shipped registry', async () => {
    const talk = readFileSync(join(REPO, 'test/fixtures/select/small-talk.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { text: string; lang: string });
    // A copy: opening a registry writes its index under .toolbox/cache/ (never into the checkout).
    shipped = tempProject();
    cpSync(join(REPO, 'tool_registry'), join(shipped.dir, 'tool_registry'), { recursive: true });
    const sel = await openSelector(resolveProject({ cwd: shipped.dir }));
    const selected: string[] = [];
    for (const t of talk) if ((await sel.rank(t.text, { top: 5 })).results.length) selected.push(t.text);
    expect(talk.length).toBeGreaterThanOrEqual(390);
    expect(selected.length / talk.length).toBeLessThanOrEqual(0.05);
  });
});
