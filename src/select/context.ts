// Session memory for selection. A follow-up turn ("那上海呢", "and in Paris?") often names only
// what changed and leaves the task implicit. Two signals carry the task over:
//  1. the terms of the last few queries join the current one as context, at a constant half
//     weight (the current turn has 1). Context adds to the score of a tool the current query
//     matches; it never makes a tool match on its own, so a new request with no matching words
//     ("book a flight to Paris" after "convert 5 miles to km") still gets nothing. Only a short
//     follow-up that says so ("那广州呢", "what about Paris?") lets the earlier turns' terms match;
//  2. a small prior for tools that were recently run or chosen first, which only reorders
//     candidates that the query already matches (a multiplicative boost of a score of 0 is 0).
import type { Session } from '../policy/session.js';
import { foldHan } from './han-fold.js';
import { addContext, parseQuery, type Query } from './query.js';
import { Kind, tokenize } from './tokenize.js';

/**
 * How many earlier queries may contribute, and their weight. Measured on the multi-turn queries
 * of acebench_en (bench/loso.mjs --session): earlier turns at a constant 0.5 beat a per-turn decay
 * and match or beat sending the concatenated turns as one query.
 */
const TURNS = 3;
const HISTORY_WEIGHT = 0.5;
/** Boost for a tool used in the last turn (halved per turn before). */
const PRIOR = 0.15;
const DECAY = 0.5;
/** At most this many content words, and a follow-up marker: the turn continues the previous one. */
const FOLLOW_UP_WORDS = 3;
const FOLLOW_UP =
  /^\s*(?:那|那么|那在|还有|换成|改成|如果是)|[呢]\s*[?？]?\s*$|^\s*(?:and|what about|how about|same for|now for|then for|also for)\b/iu;

/** The current query, expanded with the session's earlier turns. */
export interface ContextQuery {
  query: Query;
  /** Terms that came only from earlier turns (for `why`). */
  fromSession: Set<string>;
  /** Tool id -> score multiplier from recent use. */
  prior: Map<string, number>;
  /** The earlier queries that were used, most recent first. */
  history: string[];
}

/** Whether `text` reads as a short follow-up that leaves the task to the earlier turns. */
export function isFollowUp(text: string): boolean {
  if (!FOLLOW_UP.test(foldHan(text))) return false; // 還有… / 那麼… as 还有… / 那么…
  const words = new Set(
    tokenize(text, { query: true })
      .filter((t) => t.kind === Kind.Word)
      .map((t) => t.term),
  );
  return words.size <= FOLLOW_UP_WORDS;
}

export function contextQuery(text: string, session?: Session, derived?: number): ContextQuery {
  const query = parseQuery(text, 1, undefined, derived);
  const own = new Set(query.keys());
  const fromSession = new Set<string>();
  const prior = new Map<string, number>();
  const history: string[] = [];
  if (!session?.events.length) return { query, fromSession, prior, history };

  const follow = isFollowUp(text);
  let turn = 0;
  for (let i = session.events.length - 1; i >= 0 && turn < TURNS; i--) {
    const e = session.events[i]!;
    const age = turn;
    if (e.kind === 'selected' && e.query) {
      if (e.query === text && turn === 0) continue; // the same query again adds nothing
      turn++;
      history.push(e.query);
      if (follow) parseQuery(e.query, HISTORY_WEIGHT, query, derived);
      else addContext(query, e.query, HISTORY_WEIGHT);
    }
    const used = e.kind === 'run' ? e.tools : e.tools.slice(0, 1);
    for (const id of used) if (!prior.has(id)) prior.set(id, 1 + PRIOR * DECAY ** age);
  }
  for (const t of query.keys()) if (!own.has(t)) fromSession.add(t);
  return { query, fromSession, prior, history };
}
