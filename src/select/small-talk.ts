// Small talk selects nothing (issue 26): a greeting, thanks or chit-chat names too little task for
// any tool to be offered. How much task a query names is a weight over the words it keeps after stop
// words and small talk (tokenize.ts taskWords). In a query that is conversation (small talk in it,
// or a question to the assistant about itself) each word counts by how little it is said in everyday
// talk (its rank in a frequency list of film and TV subtitles), and the conversation costs
// TALK.social. Below CUTOFF.minContent the query selects nothing.
import { packagePath } from '../util/assets.js';
import type { Session } from '../policy/session.js';
import { isFollowUp } from './context.js';
import { openLexicon } from './lexicon.js';
import { CUTOFF } from './shape.js';
import { core, MATH_TERM } from './tokenize.js';
import { taskWords } from './task-words.js';
import { isVerb } from './verbs.js';

/**
 * The gate's constants. `common`, `rare`: a word's weight falls with the log of its rank among the
 * most frequent words of film and TV subtitles (data/talk-freq.tsv), from 1 at rank `rare` and
 * beyond to 0 at rank `common` (think 0.25, time 0.33, life 0.55, work 0.56, name 0.64, weather 1).
 * `weak`: a word of time or of chat topics (stopwords.ts WEAK_WORDS) weighs at most this.
 * `social`: what small talk in a query, or a question to the assistant about itself, costs.
 * `rare` and `social` were chosen among rare 300/500/1000/2000 × social 0.5/0.75/1 as the setting
 * that closes no more of the bench sets' queries (plain and wrapped in small talk) than the gate
 * before it and lets the least of our small-talk list through (docs/select.md "Small talk").
 */
export const TALK = { common: 30, rare: 500, weak: 0.25, social: 0.5 };

/** The background frequency list: `word<TAB>rank` (scripts/build-talk-freq.mjs; LICENSE-FREQUENCYWORDS). */
export const TALK_FREQ_FILE = packagePath('data', 'talk-freq.tsv');
const talkRank = openLexicon(TALK_FREQ_FILE);

/**
 * How much one word (lower case as written; a Chinese word folded) says about a task by how common it
 * is in everyday talk: 1 for a word beyond the `rare` most frequent words of subtitles, falling with
 * the log of its rank to 0 at rank `common`.
 */
export function informative(word: string): number {
  let rank = Number(talkRank(word)[0]);
  // A Chinese word with particles glued on (死了, 写的) is as common as the word without them.
  if (!(rank > 0) && core(word) !== word) rank = Number(talkRank(core(word))[0]);
  if (!(rank > 0)) return 1;
  const x = Math.log(rank / TALK.common) / Math.log(TALK.rare / TALK.common);
  return Math.min(1, Math.max(0, x));
}

const set = (s: string) => new Set(s.split(' '));
const POSSESSIVE = set('your yours yourself yourselves ur');
const MODAL = set('can could would will won wouldn couldn shall may might cannot');
// Verbs of being, feeling and thinking: "can you feel pain?" asks about the assistant, "can you send …" for a task.
const STATIVE = set(
  'be feel think love like hate dream sleep eat see hear remember understand believe cry laugh die live exist',
);
// "do you know …", "do you have …", "would you mind …" put a request to the assistant.
const ASKS = set('know have got tell show mind please');
// "I need you to …", "I'd like you to …".
const WANTS = set('want need like ask asking wanted needed');
// "you" after these is an object or anyone ("send it to you", "what do you get if you multiply …").
const NOT_SUBJECT = set('to for with at from by of if');
const WH = set('how what where when which why who');
const DO = set('do does did');
// After 你/您: a request ("你能…", "你帮我…", "你知道…吗") rather than a question about the assistant.
const ZH_REQUEST = /^(?:能|可以|可不|能不|能否|可否|帮|给|替|把|再|来(?!自)|去(?!过)|快|赶紧|马上|先|知道|告诉)/;

/**
 * Whether a query (normalised, lower case) talks to the assistant about itself: "you"/"your"/你/您 as
 * the subject or owner ("what's your name?", "are you a robot?", "do you like music?", "你叫什么名字",
 * "你是机器人吗") and not in a request ("can you convert …", "do you know the weather in …",
 * "I need you to …", "你能帮我查一下天气吗"), nor as anyone ("how do you reset a router?") or an
 * object ("send it to you").
 */
export function aboutAssistant(norm: string): boolean {
  if (norm.includes('you') || /\bur?\b/.test(norm)) {
    const t = norm.match(/[a-z]+/g) ?? [];
    for (let i = 0; i < t.length; i++) {
      const w = t[i]!;
      if (POSSESSIVE.has(w)) return true;
      if (w !== 'you' && w !== 'u') continue;
      const prev = t[i - 1] === 't' ? t[i - 2] : t[i - 1];
      const next = t[i + 1];
      // "can you …", and the generic "how do you …" / "what do you call …": about the assistant only
      // with a verb of being, feeling or thinking ("can you feel pain?", "what do you think of …").
      if (prev && (MODAL.has(prev) || (DO.has(prev) && WH.has(t[i - 2] ?? '')))) {
        if (next && STATIVE.has(next)) return true;
        continue;
      }
      if (prev && NOT_SUBJECT.has(prev)) continue;
      if ((prev && WANTS.has(prev) && next === 'to') || (next && ASKS.has(next))) continue;
      return true;
    }
  }
  for (const m of norm.matchAll(/[你您](?!好)们?/g)) {
    if (!ZH_REQUEST.test(norm.slice(m.index + m[0].length))) return true;
  }
  return false;
}

/** One word of a query as the gate weighs it. */
export interface GateWord {
  word: string;
  weight: number;
  /** Why it counts less than 1: a word of time or chat topics, or common in everyday talk (in conversation). */
  less?: 'time or chat topic' | 'common in everyday talk';
}

/** How much task a query names, and why (`select --explain`, `why_empty`). */
export interface TaskWeight {
  weight: number;
  words: GateWord[];
  /** Small talk in it, or a question to the assistant about itself: costs TALK.social. */
  conversation: boolean;
  /** What makes it a task whatever surrounds it. */
  mark?: 'expression' | 'number' | 'question' | 'imperative';
}

/**
 * How much task a query names. Each distinct word it keeps after stop words and small talk counts 1,
 * a word of time or of chat topics (today, weekend, 今天, 吃饭) TALK.weak. A query that is
 * conversation (small talk in it: hi, thanks, great, sorry, 你好, 谢谢; or a question to the
 * assistant about itself: "what's your name?", "你是机器人吗") costs TALK.social, and its words
 * count only as much as they are rare in everyday talk (`informative`): "nice work" (work 0.56),
 * "what's your name?" (name 0.64) and "amazing, it worked first time" name no task, "thanks!
 * convert 5 miles to km" does. A query with neither is judged by its words alone, as written: "what
 * time is it" is a task. Bigrams and characters are other views of a query's words and add nothing.
 *
 * Some marks make a query a task whatever pleasantries surround it (issue 35; the weight is then at
 * least CUTOFF.minContent): an arithmetic expression ("17*23", "2 to the power of 20", "128乘64"); a
 * number, date or amount beside a word ("in 100 days", "1000 USD", "which day is 2025-01-01"); a
 * question for a date or time ("what day is it today", "what week of the year is it", 星期几); and
 * an imperative: a clause that opens with a verb of a request (verbs.ts: "unmute everyone",
 * "thanks! now delete it").
 */
export function weighTask(text: string): TaskWeight {
  const tw = taskWords(text);
  const chat = tw.social || aboutAssistant(tw.norm);
  let w = 0;
  let math = false;
  const words: GateWord[] = [];
  for (const x of tw.words) {
    if (x.term === MATH_TERM) {
      math = true;
      continue;
    }
    const most = x.weak ? TALK.weak : 1;
    const weight = chat ? Math.min(most, informative(x.surface)) : most;
    w += weight;
    const less = weight < 1 ? (weight === most ? 'time or chat topic' : 'common in everyday talk') : undefined;
    words.push({ word: x.surface, weight, ...(less ? { less } : {}) });
  }
  if (chat) w -= TALK.social;
  let mark: TaskWeight['mark'];
  if (math) mark = 'expression';
  else if (tw.number && words.length) mark = 'number';
  else if (tw.asked) mark = 'question';
  else if (tw.leads.some(isVerb)) mark = 'imperative';
  const weight = mark ? Math.max(w + 1, CUTOFF.minContent) : w;
  return { weight, words, conversation: chat, ...(mark ? { mark } : {}) };
}

/** How much task a query names (see weighTask). */
export const contentWeight = (text: string): number => weighTask(text).weight;

/**
 * The gate's verdict when `query` names too little task to select anything (a greeting, thanks,
 * chit-chat), else undefined. A tool's id (`isToolId`), and a follow-up that leaves the task to the
 * session's earlier turns ("and tomorrow?"), are never small talk.
 */
export function smallTalk(
  query: string,
  session: Session | undefined,
  isToolId: (id: string) => boolean,
): TaskWeight | undefined {
  const g = weighTask(query);
  if (g.weight >= CUTOFF.minContent) return undefined;
  if (isToolId(query.trim())) return undefined;
  return session?.events.length && isFollowUp(query) ? undefined : g;
}

/** Whether `query` names too little task to select anything (see smallTalk). */
export const isSmallTalk = (query: string, session: Session | undefined, isToolId: (id: string) => boolean): boolean =>
  smallTalk(query, session, isToolId) !== undefined;
