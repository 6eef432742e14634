// Why a selection is empty, and why a named tool is not in it (issue 35): `select --explain`,
// `--verbose` and `why_empty` under `--json`. An empty list is the worst answer an agent can get
// (the model answers from its own head), so it always says which rule emptied it.
import { CUTOFF } from './shape.js';
import { TALK, type GateWord, type TaskWeight } from './small-talk.js';

/** Why the ranked list is empty (pinned tools aside). */
export type WhyEmpty =
  | {
      /** The query names too little task: its weight, the words that counted and how much. */
      reason: 'small_talk';
      weight: number;
      needed: number;
      conversation: boolean;
      words: GateWord[];
    }
  | { /** No tool matches any word of the query. */ reason: 'no_match' }
  | {
      /** Tools fit the query, but the caller may use none of them: their ids (Selection.withheld). */
      reason: 'role';
      matched: number;
      withheld: string[];
    }
  | {
      /** Tools match, but each under the cut-off: only single characters, or under --min-score. */
      reason: 'cutoff';
      matched: number;
      best: string;
      score: number;
      /** The query weight the best tool matched (CUTOFF.minCover is needed). */
      cover: number;
      rule: 'single_characters' | 'min_score';
    };

export const smallTalkWhy = (g: TaskWeight): WhyEmpty => ({
  reason: 'small_talk',
  weight: round(g.weight),
  needed: CUTOFF.minContent,
  conversation: g.conversation,
  words: g.words.map((w) => ({ ...w, weight: round(w.weight) })),
});

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Why nothing survived ranking and the cut-off, from the lexical scores and covers of every tool. */
export function whyNothing(
  lexical: ArrayLike<number>,
  cover: ArrayLike<number>,
  allow: ((doc: number) => boolean) | undefined,
  idOf: (doc: number) => string,
  withheld: readonly string[] = [],
): WhyEmpty {
  let matched = 0;
  let best = -1;
  for (let d = 0; d < lexical.length; d++) {
    if (!(lexical[d]! > 0)) continue;
    matched++;
    if ((!allow || allow(d)) && (best < 0 || lexical[d]! > lexical[best]!)) best = d;
  }
  if (!matched) return { reason: 'no_match' };
  if (withheld.length || best < 0) return { reason: 'role', matched, withheld: [...withheld] };
  return {
    reason: 'cutoff',
    matched,
    best: idOf(best),
    score: round(lexical[best]!),
    cover: round(cover[best]!),
    rule: cover[best]! < CUTOFF.minCover ? 'single_characters' : 'min_score',
  };
}

/** One sentence for people: why the list is empty. */
export function describeEmpty(w: WhyEmpty, query: string, opts: { minScore?: number; detail?: boolean } = {}): string {
  switch (w.reason) {
    case 'small_talk': {
      const words = w.words.length
        ? w.words.map((x) => `${x.word} ${x.weight}${x.less ? ` (${x.less})` : ''}`).join(', ')
        : 'no word beyond small talk';
      const why = opts.detail ? ` — ${words}${w.conversation ? `; conversation −${TALK.social}` : ''}` : '';
      return `"${query}" reads as small talk: it names a task of weight ${w.weight}, under the ${w.needed} a selection needs${why}. Say what you want done (a tool id, or more words of the task) to get tools.`;
    }
    case 'no_match':
      return `No tool matches any word of "${query}". Try other words, or see every tool with \`toolbox list\`.`;
    case 'role':
      return w.withheld.length
        ? `No tool for this caller: ${w.withheld.join(', ')} fit${w.withheld.length === 1 ? 's' : ''} "${query}", but the caller may not use ${w.withheld.length === 1 ? 'it' : 'them'} (permissions: the contract's permissions.roles or the config's permissions.tools; see --user/--role).`
        : `${w.matched} tool(s) match "${query}", but the caller may use none of them (permissions; see --user/--role).`;
    case 'cutoff':
      return w.rule === 'single_characters'
        ? `${w.matched} tool(s) match "${query}" only through single Chinese characters (best: ${w.best}, query weight ${w.cover} of the ${CUTOFF.minCover} needed).`
        : `${w.matched} tool(s) match "${query}", all under --min-score ${opts.minScore ?? ''} (best: ${w.best}, score ${w.score}).`;
  }
}

/** Where one named tool stands for a query, and why it is not in the list (`select --explain ID`). */
export interface ToolVerdict {
  id: string;
  /** Its place in the list (1-based), or null. */
  listed: number | null;
  /** 1-based rank by lexical score among the tools the caller may use; null when it matches nothing. */
  rank: number | null;
  score: number;
  /** Query weight it matched. */
  cover: number;
  reason:
    | 'listed'
    | 'unknown'
    | 'small_talk'
    | 'not_allowed'
    | 'no_match'
    | 'single_characters'
    | 'below_relative'
    | 'below_min_score'
    | 'beyond_top';
  /** For people. */
  detail: string;
  /** Listed, but after read-only siblings: it performs a destructive action the query did not ask for. */
  demoted?: { kind: string; because: string; factor: number };
}

/** The verdict for tool `doc`, given what rank() computed and listed. */
export function verdict(
  id: string,
  doc: number | undefined,
  s: {
    listed: readonly string[];
    gate?: TaskWeight;
    lexical?: ArrayLike<number>;
    cover?: ArrayLike<number>;
    allow?: (doc: number) => boolean;
    top: number;
    minScore?: number;
  },
): ToolVerdict {
  const at = s.listed.indexOf(id);
  const base = { id, listed: at >= 0 ? at + 1 : null, rank: null, score: 0, cover: 0 };
  if (doc === undefined) return { ...base, reason: 'unknown', detail: `no tool '${id}' in the registry` };
  if (at >= 0) return { ...base, reason: 'listed', detail: `#${at + 1} in the list` };
  if (s.gate || !s.lexical || !s.cover)
    return {
      ...base,
      reason: 'small_talk',
      detail: `the query reads as small talk (task weight ${round(s.gate?.weight ?? 0)})`,
    };
  const lexical = s.lexical;
  const score = lexical[doc]!;
  const cover = s.cover[doc]!;
  const allowed = (d: number) => !s.allow || s.allow(d);
  let rank: number | null = null;
  let first = 0;
  for (let d = 0; d < lexical.length; d++)
    if (lexical[d]! > 0 && s.cover[d]! >= CUTOFF.minCover) first = Math.max(first, lexical[d]!);
  if (score > 0 && allowed(doc)) {
    rank = 1;
    for (let d = 0; d < lexical.length; d++)
      if (allowed(d) && (lexical[d]! > score || (lexical[d] === score && d < doc))) rank++;
  }
  const v = { ...base, rank, score: round(score), cover: round(cover) };
  if (!allowed(doc)) return { ...v, reason: 'not_allowed', detail: 'the caller may not use it (permissions)' };
  if (!(score > 0)) return { ...v, reason: 'no_match', detail: 'it matches no word of the query' };
  if (cover < CUTOFF.minCover)
    return {
      ...v,
      reason: 'single_characters',
      detail: `it matches only single characters of the query (weight ${round(cover)}, ${CUTOFF.minCover} needed)`,
    };
  if (score < CUTOFF.relative * first)
    return {
      ...v,
      reason: 'below_relative',
      detail: `its score ${round(score)} is under ${CUTOFF.relative} × the first tool's ${round(first)} (ranks #${rank})`,
    };
  if (s.minScore !== undefined && score < s.minScore)
    return { ...v, reason: 'below_min_score', detail: `its score ${round(score)} is under --min-score ${s.minScore}` };
  return { ...v, reason: 'beyond_top', detail: `it ranks #${rank}, after the top ${s.top}` };
}
