import { readFileSync } from 'node:fs';
import type { Project } from '../config.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { loadRegistry } from '../registry/registry.js';
import type { Caller } from '../policy/permissions.js';
import type { ToolContract } from '../contract/types.js';
import { toolPrints, type EvalQuery, type ToolPrints } from './compare.js';
export type { EvalQuery } from './compare.js';
import { BaselineRanker } from './baseline.js';
import { meanMetrics, queryMetrics, type Metrics } from './metrics.js';
import { openSelector, type LeaveOut, type ToolWhy } from './index.js';
import { docStats } from './model.js';

/** One labelled query: a line of a cases file, or a contract's routing example. */
export interface EvalCase {
  query: string;
  relevant: string[];
  /** Line in the cases file (0 for an example). */
  line: number;
  /** Where it came from (default: the cases file). */
  source?: 'cases' | 'example';
  /** The cases file, as the user named it (eval takes several). */
  file?: string;
}

/** A query whose first-ranked tool is not relevant. */
export interface EvalMiss {
  /** The cases file it came from (absent for a contract's example). */
  file?: string;
  line: number;
  query: string;
  relevant: string[];
  /** What ranked first instead (up to three), best first. */
  got: string[];
  /** Rank of the first relevant tool within the ranking depth, or null. */
  rank: number | null;
  /**
   * With `explain` (toolbox ranker): the tools ranked above the first relevant one (all of the
   * ranking when none is in it) and every relevant tool, each with its score and why.
   */
  detail?: { above: ToolWhy[]; wanted: ToolWhy[] };
}

/** The outcome of `toolbox eval`. */
export interface EvalReport {
  metrics: Metrics;
  queries: number;
  misses: EvalMiss[];
  ranker: Ranker;
  /** Relevant ids that are not tools of the registry (probably typos in the cases file). */
  unknown: string[];
  /** Every query with its ranking (what `eval --compare` compares). */
  results: EvalQuery[];
  /** Fingerprints of the registry's contracts (to name the contract change behind a changed query). */
  tools: ToolPrints;
}

/** Every contract's routing examples as labelled queries (each example wants its own tool). */
export function exampleCases(contracts: readonly ToolContract[]): EvalCase[] {
  return contracts.flatMap((c) =>
    (Array.isArray(c.examples) ? c.examples : [])
      .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
      .map((query) => ({ query, relevant: [c.id], line: 0, source: 'example' as const })),
  );
}

/** The contracts of a project's registry (from the selection index: no YAML parsed when it is warm). */
export async function registryContracts(project: Project): Promise<ToolContract[]> {
  const sel = await openSelector(project);
  return sel.index.tools.map((_, i) => sel.index.contract(i));
}

/**
 * For each query that is word for word (after trimming) one of a contract's routing examples: that
 * tool with the example left out, so that the example is graded on the rest of its contract, as the
 * routing check does. Otherwise every example would find itself in its tool's `examples` field (an
 * unrelated example would still select its tool, and a registry's examples alone would score 1.000).
 */
export function leaveOutExamples(contracts: readonly ToolContract[]): (query: string) => LeaveOut[] {
  const at = new Map<string, { doc: number; j: number }[]>();
  contracts.forEach((c, doc) => {
    if (!Array.isArray(c.examples)) return;
    c.examples.forEach((e, j) => {
      if (typeof e !== 'string' || !e.trim()) return;
      const k = e.trim();
      at.set(k, [...(at.get(k) ?? []), { doc, j }]);
    });
  });
  const memo = new Map<string, LeaveOut[]>();
  return (query) => {
    const k = query.trim();
    let out = memo.get(k);
    if (!out) {
      out = (at.get(k) ?? []).map(({ doc, j }) => {
        const c = contracts[doc]!;
        return { doc, stats: docStats({ ...c, examples: c.examples!.filter((_, i) => i !== j) }) };
      });
      memo.set(k, out);
    }
    return out;
  };
}

export const RANKERS = ['toolbox', 'bm25-baseline'] as const;
export type Ranker = (typeof RANKERS)[number];

/** Parse a JSONL cases file; a bad line is a located usage error (exit 2). Blank lines are skipped. */
export function parseCases(file: string, text: string, label?: string): EvalCase[] {
  const out: EvalCase[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    const bad = (why: string): never => {
      throw new ToolboxError('invalid_case', `${file}:${line}: ${why}`, {
        exitCode: ExitCode.usage,
        location: { file, line, column: 1 },
        hint: 'Each line must be a JSON object: {"query": "…", "relevant": ["tool_id", …]}.',
      });
    };
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (e) {
      bad(`not valid JSON (${(e as Error).message})`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) bad('expected a JSON object');
    const o = v as Record<string, unknown>;
    if (typeof o.query !== 'string' || !o.query.trim()) bad('"query" must be a non-empty string');
    if (!Array.isArray(o.relevant) || !o.relevant.length || !o.relevant.every((x) => typeof x === 'string'))
      bad('"relevant" must be a non-empty array of tool ids');
    out.push({ query: o.query as string, relevant: o.relevant as string[], line, ...(label ? { file: label } : {}) });
  });
  return out;
}

/** Read a cases file; `label` (how the user named it) is kept on each case as `file`. */
export function readCases(file: string, label?: string): EvalCase[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ToolboxError('cases_unreadable', `cannot read cases file ${file}: ${(e as Error).message}`, {
      exitCode: ExitCode.usage,
    });
  }
  const cases = parseCases(file, text, label);
  if (!cases.length)
    throw new ToolboxError('invalid_case', `${file}: no cases`, {
      exitCode: ExitCode.usage,
      hint: 'Add one JSON object per line.',
    });
  return cases;
}

/**
 * Rank every case's query with the registry's selector (or the exact bm25_baseline.py replica)
 * and compute the metrics of ../shared/bench/README.md over the top `top` (default 10).
 */
export async function evaluate(
  project: Project,
  cases: EvalCase[],
  opts: {
    top?: number;
    ranker?: Ranker;
    env?: NodeJS.ProcessEnv;
    caller?: Caller;
    examples?: boolean;
    /** Keep each miss's `detail` (the why of the tools involved): what `eval --report` shows. */
    explain?: boolean;
  } = {},
): Promise<EvalReport> {
  const top = opts.top ?? 10;
  const ranker = opts.ranker ?? 'toolbox';
  let rank: (q: string) => Promise<string[]>;
  // The toolbox ranker's last answer and how to explain a tool outside it (a miss's detail is built
  // from the very ranking the metrics were computed on: a query ranked some other way, such as an
  // example left out of its own tool, must be explained that same way).
  let last: ToolWhy[] = [];
  let explainTools: ((q: string, ids: string[]) => ToolWhy[]) | undefined;
  let ids: Set<string>;
  let contracts: ToolContract[];
  if (ranker === 'bm25-baseline') {
    const reg = loadRegistry(project);
    contracts = reg.entries.map((e) => e.contract);
    const bm = new BaselineRanker(contracts);
    ids = new Set(reg.byId.keys());
    rank = async (q) => bm.rank(q, top).map((i) => contracts[i]!.id);
  } else {
    const sel = await openSelector(project);
    ids = new Set(sel.index.tools.map((t) => t.id));
    contracts = sel.index.tools.map((_, i) => sel.index.contract(i));
    const leaveOut = leaveOutExamples(contracts);
    // Pinned tools (select.always) are offered, not ranked: they are not part of what is measured.
    rank = async (q) => {
      const ranked = (
        await sel.rank(q, { top, env: opts.env, caller: opts.caller, leaveOut: leaveOut(q) })
      ).results.filter((r) => r.reason !== 'pinned');
      if (opts.explain) last = ranked.map((r, i) => ({ id: r.id, rank: i + 1, score: r.score, why: r.why }));
      return ranked.map((r) => r.id);
    };
    if (opts.explain)
      explainTools = (q, wanted) => sel.explain(q, wanted, { caller: opts.caller, leaveOut: leaveOut(q) });
  }
  if (opts.examples) cases = [...cases, ...exampleCases(contracts)];
  const results: EvalQuery[] = [];
  const per: Metrics[] = [];
  const misses: EvalMiss[] = [];
  const unknown = new Set<string>();
  for (const c of cases) {
    for (const id of c.relevant) if (!ids.has(id)) unknown.add(id);
    const ranked = await rank(c.query);
    results.push({
      line: c.line,
      query: c.query,
      relevant: c.relevant,
      ranked,
      source: c.source ?? 'cases',
      ...(c.file ? { file: c.file } : {}),
    });
    per.push(queryMetrics(ranked, c.relevant));
    if (!(ranked.length && c.relevant.includes(ranked[0]!))) {
      const r = ranked.findIndex((id) => c.relevant.includes(id));
      const miss: EvalMiss = {
        ...(c.file ? { file: c.file } : {}),
        line: c.line,
        query: c.query,
        relevant: c.relevant,
        got: ranked.slice(0, 3),
        rank: r >= 0 ? r + 1 : null,
      };
      if (explainTools) {
        const above = r >= 0 ? last.slice(0, r) : last;
        const inList = new Map(last.map((t) => [t.id, t]));
        const outside = explainTools(
          c.query,
          c.relevant.filter((id) => !inList.has(id)),
        );
        const wanted = c.relevant.flatMap((id) => inList.get(id) ?? outside.filter((t) => t.id === id));
        miss.detail = { above, wanted };
      }
      misses.push(miss);
    }
  }
  return {
    metrics: meanMetrics(per),
    queries: cases.length,
    misses,
    ranker,
    unknown: [...unknown],
    results,
    tools: toolPrints(contracts),
  };
}
