// What a query says beyond small talk, for the small-talk gate (small-talk.ts): its words, whether
// it is conversation, and the marks of a task that no pleasantry around them undoes (issue 35): a
// number, date or amount; a question for a date or time ("what day", "which week", 星期几); the
// clause-initial words that may be the verb of an imperative ("unmute everyone", "thanks! now
// delete it").
import { foldHan } from './han-fold.js';
import { stem } from './stem.js';
import { isSocial, QUERY_STOP, STOP, WEAK_WORDS } from './stopwords.js';
import {
  blankOperators,
  CJK_RUN,
  cjk,
  DIGITS,
  expressions,
  glued,
  Kind,
  MATH_TERM,
  SCAN,
  splitIdentifiers,
} from './tokenize.js';

/** One word a query keeps after stop words and small talk (see taskWords). */
export interface TaskWord {
  /** The term it is indexed as (an English stem, a Chinese word, MATH_TERM). */
  term: string;
  /** As written, lower case (the expression, for MATH_TERM). */
  surface: string;
  /** A word of time or of chat topics (today, weekend, 今天, 吃饭), not asked about. */
  weak: boolean;
}

/** What taskWords finds in a query. */
export interface TaskWords {
  words: TaskWord[];
  /** Small talk in it (hi, thanks, sorry, perfectly, 你好, 谢谢); fillers (everyone, exactly, 知道) are not. */
  social: boolean;
  /** Normalised, lower-cased text (spelled operators of expressions blanked). */
  norm: string;
  /** A number not inside a word: a quantity, an amount, a date or a time (100 days, 1000 USD, 2025-01-01, 3pm). */
  number: boolean;
  /** A question for a date or a time: "what day", "which week", "how many days", "how long until", 星期几, 几号. */
  asked: boolean;
  /** The first word of each clause after small talk and openers, as written (the verb of an imperative). */
  leads: string[];
}

// Nouns of a date or time that "what"/"which"/"how many" ask for; alone they are chat (WEAK_WORDS).
const TIME_NOUN = new Set(
  'day days week weeks weekday weekend month months year years hour hours minute minutes night nights'.split(' '),
);
const ASKS_FOR = new Set(['what', 'which']);
// Words that may come before the verb of an imperative ("thanks! now delete it", "ok so unmute
// everyone", "could you please send …"); any other word ends the clause's opening ("thanks for the unmute").
const OPENER = new Set(
  'now then ok okay so and also just can could would will you u i me to please pls plz kindly let us lets'.split(' '),
);
const HOW_LONG = /\bhow long (?:until|till|before|since|ago)\b/;
const CLAUSE_END = /[.!?,;:。！？，；：、\n]/;
// A digit not inside a word (mp3, x86): a Han character before it is no word of Latin letters (第3周).
const NUMBER = /(?:^|[^\p{sc=Latin}\d])\d/u;
// 星期几, 周几, 几号, 几点, 哪天, 第几周, 多少天, 几个小时 (folded to simplified first).
const ZH_ASKED = /(?:星期|周|礼拜)几|[几哪][天号日点周月年]|第几|多少(?:天|周|个?月|年|小时|分钟)|几个(?:小时|星期|月)/;

/**
 * What a query says beyond small talk: its distinct words after stop words and small talk
 * (bigrams and characters are other views of those words and are left out; an arithmetic
 * expression is one word), whether it has small talk in it, and the marks of a task (TaskWords).
 * English words are judged as written (the lists hold their forms: "meet" is chat, "meeting" a task).
 */
export function taskWords(text: string): TaskWords {
  const seen = new Map<string, TaskWord>();
  const words: TaskWord[] = [];
  const leads: string[] = [];
  let social = false;
  let asked = false;
  const add = (term: string, surface: string, weak: boolean) => {
    const had = seen.get(term);
    if (had)
      had.weak &&= weak; // asked about once ("what day … in 100 days"): not chat
    else {
      const w = { term, surface, weak };
      seen.set(term, w);
      words.push(w);
    }
  };
  // "15%" is the word percent, as the ranking reads it (tokenize.ts analyse).
  const lower = splitIdentifiers(text.normalize('NFKC')).toLowerCase().replace(/%/g, ' percent ');
  const exprs = expressions(lower);
  for (const e of exprs) add(MATH_TERM, e, false);
  const norm = blankOperators(lower, exprs);
  let clauseStart = true;
  let end = 0;
  let prev = '';
  let prev2 = '';
  for (const m of norm.matchAll(SCAN)) {
    const t = m[0];
    if (CLAUSE_END.test(norm.slice(end, m.index))) clauseStart = true;
    end = m.index + t.length;
    if (CJK_RUN.test(t)) {
      if (ZH_ASKED.test(foldHan(t))) asked = true;
      cjk(
        t,
        (term, kind) => {
          if (kind === Kind.Word && !glued(term)) add(term, term, WEAK_WORDS.zh.has(term));
        },
        true,
        () => (social = true),
      );
      clauseStart = false;
      prev2 = prev;
      prev = t;
      continue;
    }
    if (isSocial(t)) social = true;
    else if (!STOP.has(t) && !QUERY_STOP.has(t) && !DIGITS.test(t)) {
      // "what day is it", "which week", "how many days until …": a question for a date, not chat.
      const ask = TIME_NOUN.has(t) && (ASKS_FOR.has(prev) || (prev === 'many' && prev2 === 'how'));
      if (ask) asked = true;
      add(stem(t), t, !ask && WEAK_WORDS.en.has(t));
    }
    if (clauseStart && !isSocial(t) && !OPENER.has(t)) {
      // A word of time or chat ("happy new year", "have a nice day") is no verb of a request.
      if (!WEAK_WORDS.en.has(t)) leads.push(t);
      clauseStart = false;
    }
    prev2 = prev;
    prev = t;
  }
  if (HOW_LONG.test(norm)) asked = true;
  return { words, social, norm, number: NUMBER.test(norm), asked, leads };
}
