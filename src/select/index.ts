// The selection API every entry point uses (`toolbox select`, `eval`, `validate`'s routing check,
// the MCP server's search tool): rank a registry's tools for a query, explainably, for one caller.
import type { Env } from '../util/env.js';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import type { Registry } from '../registry/registry.js';
import { brokenFilesWarning } from '../registry/broken.js';
import { canUse, type Caller } from '../policy/permissions.js';
import { contextQuery } from './context.js';
import { denseScores, rerank, type EmbeddingsConfig } from './dense.js';
import type { Field } from './fields.js';
import { scoreLeftOut, whyMatched, type LeaveOut } from './leave-out.js';
import { RANK, topK, type RankParams } from './model.js';
import { scoreAll } from './query.js';
import { correctTypos } from './typos.js';
import { cutOff, explicitIds, isExactName, type CutOptions } from './shape.js';
import { smallTalk, type TaskWeight } from './small-talk.js';
import { demoteDestructive, demotionText, type Demotion } from './destructive.js';
import { smallTalkWhy, verdict, whyNothing, type ToolVerdict, type WhyEmpty } from './why-empty.js';
import { readSession, recordSessionEvent, type Session } from '../policy/session.js';
import { isStateUnsafe } from '../util/state.js';
import { userSettingsFor } from '../policy/user-settings.js';

// Thrown inside the dense block when the user configured no embeddings endpoint: nothing to say.
const NO_DENSE = new Error('no embeddings endpoint');
import { openIndex, type SelectIndex } from './store.js';

/** One matched query term: which fields of the tool it matched and its share of the score. */
export interface WhyTerm {
  term: string;
  fields: Field[];
  score: number;
  /** The term came from an earlier turn of the session. */ session?: boolean;
  /** For a term derived from the query (a glossary translation): the query's own word it stands for. */
  via?: string;
}

/** One selected tool. */
export interface SelectedTool {
  id: string;
  /** Ranking score (lexical BM25F, times the session prior; a fusion score when dense retrieval is on). */
  score: number;
  why: WhyTerm[];
  entry: ToolEntry;
  /** Lexical score alone. */
  lexical: number;
  /** Why it is here without ranking: the query named it (`exact`) or the config pins it (`pinned`). */
  reason?: 'exact' | 'pinned';
  /** Cosine similarity, when dense retrieval is on. */
  dense?: number;
  /** It deletes, archives, sends, pays … and the query did not ask for that: its score was multiplied by `factor`. */
  demoted?: Demotion;
}

/** One tool's standing for a query (`Selector.explain`, `eval --report`). */
export interface ToolWhy {
  id: string;
  /** 1-based rank by score among the tools the caller may use; null when it matches nothing of the query. */
  rank: number | null;
  score: number;
  why: WhyTerm[];
}

/** What `selectTools` returns. */
export interface Selection {
  query: string;
  results: SelectedTool[];
  /** Prompt tokens of all the caller's tools (full binding) and of the selected ones. Only with `tokens: true`. */
  tokens?: { full: number; selected: number };
  /** For people: broken contracts skipped, dense retrieval unavailable, … */
  warnings: string[];
  /** The earlier queries of the session that informed this one, most recent first. */
  history?: string[];
  /**
   * Tools that fit the query (above its cut-off) but the caller may not use (permissions): why a
   * role-filtered list is short or empty. Only their ids, and only to the caller that asked.
   */
  withheld?: string[];
  /** Why no tool was ranked (pinned tools aside): small talk, no match, permissions, cut-off. */
  empty?: WhyEmpty;
  /** Where the tools of SelectOptions.explain stand, and why they are not in the list. */
  explained?: ToolVerdict[];
}

export type { LeaveOut } from './leave-out.js';
export type { ToolVerdict, WhyEmpty } from './why-empty.js';

/** What Selector.rank returns. */
export interface Ranked {
  results: SelectedTool[];
  warnings: string[];
  history: string[];
  /** Tools above the query's cut-off that the caller may not use. */
  withheld?: string[];
  /** Why no tool was ranked (pinned tools aside). */
  empty?: WhyEmpty;
  /** The gate's verdict when the query is small talk. */
  gate?: TaskWeight;
  /** The lexical scores and covers of every tool, for verdicts(). */
  scored?: { lexical: Float64Array; cover: Float64Array; allow?: (doc: number) => boolean; top: number };
}

export interface RankOptions extends CutOptions {
  /** Tools to score from these statistics instead of their postings (see LeaveOut). */
  leaveOut?: readonly LeaveOut[];
  /** At most how many ranked tools (default: config `select.top`, else 5); pinned tools come on top of these. */
  top?: number;
  /** Ranking constants (default RANK; the bench sweeps them). The index must be built with the same. */
  params?: RankParams;
  caller?: Caller;
  /** Session history to take into account (see context.ts). */
  session?: Session;
  /** Use the configured embeddings endpoint (default: when configured). */
  dense?: boolean;
  /** Environment for the embeddings API key. */
  env?: Env;
  signal?: AbortSignal;
}

export interface SelectOptions extends Omit<RankOptions, 'session'> {
  /** Session id: earlier selections and runs inform this query, and this one is recorded. */
  session?: string;
  /** Count prompt tokens (loads gpt-tokenizer). */
  tokens?: boolean;
  /** Record this selection in the session (default true when `session` is given). */
  record?: boolean;
  /** Tool ids to explain: where each stands and why it is not in the list. */
  explain?: readonly string[];
}

/** How many lexical candidates the dense score may reorder (never add to). */
const DENSE_DEPTH = 20;

// What holds for a decoded tool list as long as it lives: a long-lived process (daemon, serve) makes
// a Selector per request over the same list, and at 50k tools each of these is a pass over all of them.
interface ToolFacts {
  byId?: Map<string, number>;
  /** No tool has its own permissions. */
  open?: boolean;
  /** Prompt tokens of all tools. */
  full?: number;
}
const toolFacts = new WeakMap<readonly unknown[], ToolFacts>();
const factsOf = (tools: readonly unknown[]): ToolFacts => {
  let f = toolFacts.get(tools);
  if (!f) toolFacts.set(tools, (f = {}));
  return f;
};

/** A registry's index plus the project's config: rank many queries without reopening anything. */
export class Selector {
  constructor(
    readonly project: Project,
    readonly index: SelectIndex,
  ) {}

  /** Warnings that hold for every query (broken contract files). */
  warnings(): string[] {
    const w = brokenFilesWarning(this.index.broken, this.project.root);
    return w ? [w] : [];
  }

  /** Whether the caller may use tool number `doc` (undefined: every tool is open to everyone). */
  allowed(caller?: Caller): ((doc: number) => boolean) | undefined {
    const config = this.project.config;
    const tools = this.index.tools;
    if (!config.permissions?.tools && (factsOf(tools).open ??= tools.every((t) => !t.permissions))) return undefined;
    const memo = new Map<number, boolean>();
    return (doc) => {
      let ok = memo.get(doc);
      if (ok === undefined) {
        const t = this.index.tools[doc]!;
        ok = canUse({ id: t.id, permissions: t.permissions } as ToolEntry['contract'], caller ?? {}, config);
        memo.set(doc, ok);
      }
      return ok;
    };
  }

  async rank(query: string, opts: RankOptions = {}): Promise<Ranked> {
    const top = opts.top ?? this.project.config.select?.top ?? 5;
    const allow = this.allowed(opts.caller);
    const warnings: string[] = [];
    const explicit = explicitIds(query);
    if (explicit) return { results: this.named(explicit, allow, warnings), warnings, history: [] };
    const gate = opts.cutoff !== false ? smallTalk(query, opts.session, (id) => this.doc(id) !== undefined) : undefined;
    if (gate)
      return { results: this.pinned([], allow, warnings), warnings, history: [], empty: smallTalkWhy(gate), gate };
    const ctx = contextQuery(query, opts.session, (opts.params ?? RANK).derived);
    correctTypos(ctx.query, this.index.lex, (opts.params ?? RANK).typos, query);
    const cover = new Float64Array(this.index.tools.length);
    const lexical = scoreAll(this.index.lex, ctx.query, opts.params ?? RANK, cover);
    scoreLeftOut(this.index.lex, opts.leaveOut, ctx.query, lexical, cover, opts.params);
    if (ctx.prior.size) {
      this.index.tools.forEach((t, i) => {
        const p = ctx.prior.get(t.id);
        if (p) lexical[i] *= p;
      });
    }
    // No padding: the list stops where the lexical scores fall off, before any reranking. The cut-off
    // is the query's, drawn over every tool, and only then are the tools the caller may not use taken
    // out: drawn after that filter, a guest asking for what only an admin tool does got the best of the
    // rest (five unrelated tools) instead of nothing.
    const fitting = cutOff(
      topK(lexical, Math.max(top, DENSE_DEPTH), opts.cutoff === false ? allow : undefined),
      lexical,
      cover,
      opts,
    );
    let order = allow ? fitting.filter(allow) : fitting;
    // A tool that deletes, archives, sends, pays … leads only when the query asks for that action.
    const demoted = demoteDestructive(
      query,
      order,
      lexical,
      (d) => this.index.contract(d),
      (opts.params ?? RANK).destructive ?? 1,
      (opts.params ?? RANK).write ?? 1,
    );
    const withheld = allow ? fitting.filter((d) => !allow(d)).map((d) => this.index.tools[d]!.id) : [];
    let final: ArrayLike<number> = lexical;
    let dense: Float64Array | undefined;
    if (opts.dense !== false && order.length > 1) {
      try {
        // Your own config.yaml's, never the project's: it says where your queries go (policy/user-settings.ts).
        const cfg = userSettingsFor(this.project).embeddings as EmbeddingsConfig | undefined;
        if (!cfg?.url) throw NO_DENSE;
        dense = await denseScores(this.project, this.index, query, cfg, opts.env ?? {}, opts.signal);
        ({ order, scores: final } = rerank(order, lexical, dense, cfg.weight));
      } catch (e) {
        if (e !== NO_DENSE) warnings.push(`dense retrieval unavailable, lexical ranking only: ${(e as Error).message}`);
      }
    }
    // A query that is a tool's id or name gets that tool first (its name can only be among the matches).
    const exact = this.exactDoc(query, order.slice(0, 10));
    if (exact !== undefined && (!allow || allow(exact))) order = [exact, ...order.filter((d) => d !== exact)];
    const results: SelectedTool[] = order.slice(0, top).map((doc) => ({
      id: this.index.tools[doc]!.id,
      score: final[doc]!,
      why: whyMatched(this.index.lex, doc, ctx.query, opts.leaveOut, opts.params).map((w) => {
        const via = ctx.query.source.get(w.term);
        return { ...w, ...(ctx.fromSession.has(w.term) ? { session: true } : {}), ...(via ? { via } : {}) };
      }),
      entry: this.index.entry(doc),
      lexical: lexical[doc]!,
      ...(dense ? { dense: dense[doc]! } : {}),
      ...(doc === exact ? { reason: 'exact' as const } : {}),
      ...(demoted.has(doc) ? { demoted: demoted.get(doc)! } : {}),
    }));
    const empty = results.length
      ? undefined
      : whyNothing(lexical, cover, allow, (d) => this.index.tools[d]!.id, withheld);
    return {
      results: this.pinned(results, allow, warnings),
      warnings,
      history: ctx.history,
      ...(withheld.length ? { withheld } : {}),
      ...(empty ? { empty } : {}),
      scored: { lexical, cover, allow, top },
    };
  }

  /**
   * Where each named tool stands for `query` and why it is not in the list `ranked` (what rank()
   * returned for the same query and options): unknown, small talk, not allowed, no word matched,
   * only single characters, under the relative cut-off or --min-score, or after the top K.
   */
  verdicts(ranked: Ranked, ids: readonly string[], opts: { minScore?: number } = {}): ToolVerdict[] {
    const ranks = ranked.results.filter((r) => r.reason !== 'pinned');
    const listed = ranks.map((r) => r.id);
    return ids.map((id) => {
      const v = verdict(id, this.doc(id), {
        listed,
        gate: ranked.gate,
        lexical: ranked.scored?.lexical,
        cover: ranked.scored?.cover,
        allow: ranked.scored?.allow,
        top: ranked.scored?.top ?? 0,
        minScore: opts.minScore,
      });
      const d = ranks.find((r) => r.id === id)?.demoted;
      return d ? { ...v, detail: `${v.detail}; ${demotionText(d)}`, demoted: d } : v;
    });
  }

  /** `results` and then the pinned tools (config `select.always`) not among them. */
  private pinned(
    results: SelectedTool[],
    allow: ((doc: number) => boolean) | undefined,
    warnings: string[],
  ): SelectedTool[] {
    const have = new Set(results.map((r) => r.id));
    const pins = (this.project.config.select?.always ?? []).filter((id) => !have.has(id));
    return [...results, ...this.named(pins, allow, warnings, 'pinned')];
  }

  /**
   * Where each of `ids` stands for `query` whether or not it made the list: its rank by lexical
   * score among the tools the caller may use (null when it matches no word of the query, or is not
   * a tool the caller may use), the score and why. What `eval --report` shows for the tools a
   * missed query wanted. Unknown ids are left out.
   */
  explain(
    query: string,
    ids: readonly string[],
    opts: { caller?: Caller; params?: RankParams; leaveOut?: readonly LeaveOut[] } = {},
  ): ToolWhy[] {
    const params = opts.params ?? RANK;
    const q = contextQuery(query, undefined, params.derived).query;
    correctTypos(q, this.index.lex, params.typos, query);
    const scores = scoreAll(this.index.lex, q, params);
    scoreLeftOut(this.index.lex, opts.leaveOut, q, scores, undefined, params);
    const allow = this.allowed(opts.caller);
    const out: ToolWhy[] = [];
    for (const id of ids) {
      const doc = this.doc(id);
      if (doc === undefined) continue;
      const s = scores[doc]!;
      let rank: number | null = null;
      if (s > 0 && (!allow || allow(doc))) {
        rank = 1;
        for (let i = 0; i < scores.length; i++)
          if ((scores[i]! > s || (scores[i] === s && i < doc)) && (!allow || allow(i))) rank++;
      }
      const why = whyMatched(this.index.lex, doc, q, opts.leaveOut, params).map((w) => {
        const via = q.source.get(w.term);
        return via ? { ...w, via } : w;
      });
      out.push({ id, rank, score: s, why });
    }
    return out;
  }

  /** Tool number of `id`, if the registry has it. */
  doc(id: string): number | undefined {
    return this.ids().get(id);
  }

  /** Tool numbers by id, per tool list (10k ids: ~1.5 ms a request if made per Selector). */
  private ids(): Map<string, number> {
    const tools = this.index.tools;
    const f = factsOf(tools);
    return (f.byId ??= new Map(tools.map((t, i) => [t.id, i])));
  }

  /** The tool whose id is the query (any tool), or whose name is (among `candidates`). */
  private exactDoc(query: string, candidates: number[]): number | undefined {
    const byId = this.doc(query.trim());
    if (byId !== undefined) return byId;
    for (const d of candidates) {
      const t = this.index.tools[d]!;
      if (isExactName(query, t.id, this.index.contract(d).name)) return d;
    }
    return undefined;
  }

  /** The tools named by id (unknown or not allowed ones are skipped with a warning). */
  private named(
    ids: string[],
    allow: ((doc: number) => boolean) | undefined,
    warnings: string[],
    reason: 'exact' | 'pinned' = 'exact',
  ): SelectedTool[] {
    const out: SelectedTool[] = [];
    for (const id of ids) {
      const doc = this.doc(id);
      if (doc === undefined || (allow && !allow(doc))) {
        warnings.push(`${reason === 'pinned' ? 'pinned tool' : 'tool'} '${id}' is not in the registry or not allowed`);
        continue;
      }
      out.push({ id, score: 0, why: [], entry: this.index.entry(doc), lexical: 0, reason });
    }
    return out;
  }

  /** Prompt tokens of every tool the caller may use, and of `ids`. Needs an index opened with `tokens`. */
  tokens(ids: string[], caller?: Caller): { full: number; selected: number } {
    const allow = this.allowed(caller);
    const want = new Set(ids);
    const tools = this.index.tools;
    const byId = this.ids();
    if (!allow && byId.size === tools.length) {
      // Every tool counts and ids are unique: the total is the list's, the selected ones are looked up.
      const f = factsOf(tools);
      f.full ??= tools.reduce((n, t) => n + Math.max(0, t.tok), 0);
      let selected = 0;
      for (const id of want) {
        const d = byId.get(id);
        if (d !== undefined) selected += Math.max(0, tools[d]!.tok);
      }
      return { full: f.full, selected };
    }
    let full = 0;
    let selected = 0;
    this.index.tools.forEach((t, i) => {
      if (allow && !allow(i)) return;
      full += Math.max(0, t.tok);
      if (want.has(t.id)) selected += Math.max(0, t.tok);
    });
    return { full, selected };
  }
}

const isRegistry = (x: Project | Registry): x is Registry => 'entries' in x && 'project' in x;

/** Open a selector on a project (or an already loaded registry). */
export async function openSelector(
  target: Project | Registry,
  opts: { tokens?: boolean; cache?: boolean; full?: boolean } = {},
): Promise<Selector> {
  const project = isRegistry(target) ? target.project : target;
  const index = await openIndex(project, { registry: isRegistry(target) ? target : undefined, ...opts });
  return new Selector(project, index);
}

/**
 * Rank the registry's tools for `query`: the top tools the caller may use, each with its score and
 * why it matched. Broken contracts are skipped (one warning names them). With `session`, earlier
 * turns inform the query and this turn is recorded under `.toolbox/sessions/`.
 */
export async function selectTools(
  target: Project | Registry,
  query: string,
  opts: SelectOptions = {},
): Promise<Selection> {
  let selector = await openSelector(target, { tokens: opts.tokens });
  const project = selector.project;
  const early: string[] = [];
  let session: Session | undefined;
  try {
    session = opts.session ? readSession(project, opts.session) : undefined;
  } catch (e) {
    // A session folder toolbox does not own (a planted link): ranked without history, and said.
    if (!isStateUnsafe(e)) throw e;
    early.push(`session history not read: ${e.message}`);
  }
  let ranked = await selector.rank(query, { ...opts, session });
  // A large registry's index is trusted on its folders' fingerprints: check the answer's own files
  // (an in-place edit leaves the folder alone), and answer again from an updated index if one changed.
  const ix = selector.index;
  if (ix.stale?.(ranked.results.map((r) => ix.tools.findIndex((t) => t.id === r.id)))) {
    selector = await openSelector(target, { tokens: opts.tokens, full: true });
    ranked = await selector.rank(query, { ...opts, session });
  }
  const { results, warnings, history } = ranked;
  warnings.unshift(...early);
  if (opts.session && opts.record !== false && early.length === 0) {
    try {
      recordSessionEvent(project, opts.session, { kind: 'selected', query, tools: results.map((r) => r.id) });
    } catch (e) {
      warnings.push(`could not record the session: ${(e as Error).message}`);
    }
  }
  return {
    query,
    results,
    ...(opts.tokens
      ? {
          tokens: selector.tokens(
            results.map((r) => r.id),
            opts.caller,
          ),
        }
      : {}),
    warnings: [...selector.warnings(), ...warnings],
    ...(session ? { history } : {}),
    ...(ranked.withheld ? { withheld: ranked.withheld } : {}),
    ...(ranked.empty ? { empty: ranked.empty } : {}),
    ...(opts.explain?.length ? { explained: selector.verdicts(ranked, opts.explain, opts) } : {}),
  };
}
