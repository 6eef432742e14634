// Session memory for selection. A follow-up turn ("那上海呢", "and in Paris?") often names only
// what changed and leaves the task implicit. Two signals carry the task over:
//  1. historical query expansion: the terms of earlier queries join the current query with a
//     weight that decays per turn and shrinks as the current query says more on its own (a long,
//     self-contained query is barely touched; a two-word follow-up borrows a lot);
//  2. a small prior for tools that were recently run or chosen first, which only reorders
//     candidates that the query already matches (a multiplicative boost of a score of 0 is 0).
import type { Session } from '../policy/session.js';
import { parseQuery, type Query } from './model.js';
import { Kind, tokenize } from './tokenize.js';

/** How many earlier queries may contribute, the weight of the last one, and the decay per turn. */
const TURNS = 3;
const HISTORY_WEIGHT = 0.5;
const DECAY = 0.5;
/** Boost for a tool used in the last turn (halved per turn before). */
const PRIOR = 0.15;

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

/** How much the current query leans on the past: 1 for an empty query, falling as it names more. */
export function historyShare(text: string): number {
  const content = new Set(
    tokenize(text, { query: true })
      .filter((t) => t.kind === Kind.Word)
      .map((t) => t.term),
  );
  return 1 / (1 + content.size / 2);
}

export function contextQuery(text: string, session?: Session): ContextQuery {
  const query = parseQuery(text);
  const own = new Set(query.keys());
  const fromSession = new Set<string>();
  const prior = new Map<string, number>();
  const history: string[] = [];
  if (!session?.events.length) return { query, fromSession, prior, history };

  const share = historyShare(text);
  let turn = 0;
  for (let i = session.events.length - 1; i >= 0 && turn < TURNS; i--) {
    const e = session.events[i]!;
    const age = turn;
    if (e.kind === 'selected' && e.query) {
      if (e.query === text && turn === 0) continue; // the same query again adds nothing
      turn++;
      history.push(e.query);
      parseQuery(e.query, HISTORY_WEIGHT * share * DECAY ** age, query);
    }
    const used = e.kind === 'run' ? e.tools : e.tools.slice(0, 1);
    for (const id of used) if (!prior.has(id)) prior.set(id, 1 + PRIOR * DECAY ** age);
  }
  for (const t of query.keys()) if (!own.has(t)) fromSession.add(t);
  return { query, fromSession, prior, history };
}
