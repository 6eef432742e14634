// What `eval --report` shows, computed from eval's typed result (never from its printed text):
// headline metrics with a bootstrap interval, the same per case file and per language, the R@k
// curve, every missed query with the why of the tools involved, the pairs of tools that take first
// place from each other, the `--compare` changes and what the selected tools cost in tokens.
import type { Project } from '../config.js';
import { descriptionSimilarity } from '../lint/rules/description-similar.js';
import type { Caller } from '../policy/permissions.js';
import type { QueryChange } from '../select/compare.js';
import type { EvalMiss, EvalReport } from '../select/evaluate.js';
import { FIELDS } from '../select/fields.js';
import { openSelector, type ToolWhy } from '../select/index.js';
import { meanMetrics, queryMetrics, type Metrics } from '../select/metrics.js';
import { surfaceWords } from '../select/tokenize.js';
import { percentile } from '../runtime/stats.js';
import { bootstrap, queryLang } from './numbers.js';

/**
 * A tool's standing for a query: [tool, rank or null, score, why: [word as the user wrote it, field
 * bits, score], or null when the ranker explains nothing (bm25-baseline)].
 */
type Standing = [number, number | null, number, [string, number, number][] | null];

/** One group of queries (a case file, the contracts' examples, a language). */
export interface EvalGroup {
  by: 'file' | 'lang';
  name: string;
  queries: number;
  metrics: Metrics;
  spread: Record<keyof Metrics, [number, number]>;
  /** R@k for k = 1..top. */
  curve: number[];
}

/** The data of an eval report page (tools are referred to by their index in `tools`). */
export interface EvalReportData {
  kind: 'eval';
  generated: string;
  registry: string;
  ranker: string;
  top: number;
  queries: number;
  metrics: Metrics;
  spread: Record<keyof Metrics, [number, number]>;
  curve: number[];
  groups: EvalGroup[];
  /** The why fields, by bit. */
  fields: readonly string[];
  /** [id, name, description, prompt tokens] of every tool the page mentions. */
  tools: [string, string, string, number][];
  misses: {
    q: string;
    file: string;
    line: number;
    lang: string;
    want: number[];
    rank: number | null;
    above: Standing[];
    wanted: Standing[];
  }[];
  confusable: { a: number; b: number; ab: number; ba: number; sim: number }[];
  similar: { on: boolean; threshold: number };
  compare?: { against: string; before?: Metrics; changes: (Omit<QueryChange, 'source'> & { file: string })[] };
  tokens: { full: number; top: number; perQuery: number[]; mean: number; median: number; p95: number };
}

/** At most this many confusable pairs (the most frequent). */
const MAX_PAIRS = 100;
/** At most this many why terms per tool. */
const MAX_WHY = 6;

/** The inputs `buildEvalData` reads. */
export interface EvalDataInput {
  project: Project;
  report: EvalReport;
  top: number;
  caller?: Caller;
  registryLabel: string;
  compare?: { against: string; before?: Metrics; changes: QueryChange[] };
  now?: Date;
}

export async function buildEvalData(input: EvalDataInput): Promise<EvalReportData> {
  const { report, top } = input;
  const sel = await openSelector(input.project, { tokens: true });
  const docOf = new Map(sel.index.tools.map((t, i) => [t.id, i]));
  const toolIx = new Map<string, number>();
  const tools: EvalReportData['tools'] = [];
  const ref = (id: string): number => {
    let i = toolIx.get(id);
    if (i === undefined) {
      const doc = docOf.get(id);
      const c = doc === undefined ? undefined : sel.index.contract(doc);
      const tok = doc === undefined ? 0 : Math.max(0, sel.index.tools[doc]!.tok);
      toolIx.set(id, (i = tools.length));
      tools.push([id, c?.name ?? id, c?.description ?? '', tok]);
    }
    return i;
  };
  // A case's file as the user named it; the contracts' examples are one group of their own.
  const fileOf = (q: { source: string; file?: string }) => q.file ?? (q.source === 'example' ? 'examples' : 'cases');
  const per = report.results.map((r) => queryMetrics(r.ranked, r.relevant));
  const groupsOf = new Map<string, { by: 'file' | 'lang'; name: string; at: number[] }>();
  report.results.forEach((r, i) => {
    for (const [by, name] of [
      ['file', fileOf(r)],
      ['lang', queryLang(r.query)],
    ] as const) {
      const k = `${by}\n${name}`;
      let g = groupsOf.get(k);
      if (!g) groupsOf.set(k, (g = { by, name, at: [] }));
      g.at.push(i);
    }
  });
  const curveOf = (at: number[]) =>
    Array.from({ length: top }, (_, k) => {
      let s = 0;
      for (const i of at) {
        const r = report.results[i]!;
        s += new Set(r.ranked.slice(0, k + 1).filter((id) => r.relevant.includes(id))).size / r.relevant.length;
      }
      return at.length ? s / at.length : 0;
    });
  const all = report.results.map((_, i) => i);
  const groups: EvalGroup[] = [...groupsOf.values()]
    .sort((a, b) => (a.by === b.by ? b.at.length - a.at.length : a.by === 'file' ? -1 : 1))
    .map((g) => {
      const ms = g.at.map((i) => per[i]!);
      return {
        by: g.by,
        name: g.name,
        queries: g.at.length,
        metrics: meanMetrics(ms),
        spread: bootstrap(ms),
        curve: curveOf(g.at),
      };
    });

  const standing = (q: string) => {
    const words = surfaceWords(q);
    // Terms shown as the user's words: several terms can be one word (a Chinese word and the English
    // stems it was translated to), so they are merged, their fields and scores added up.
    const byWord = (why: ToolWhy['why']) => {
      const out = new Map<string, [string, number, number]>();
      for (const w of why) {
        const word = w.via ?? words.get(w.term) ?? w.term;
        const mask = w.fields.reduce((m, f) => m | (1 << FIELDS.indexOf(f)), 0);
        const had = out.get(word);
        if (had) {
          had[1] |= mask;
          had[2] += w.score;
        } else out.set(word, [word, mask, w.score]);
      }
      return [...out.values()]
        .sort((a, b) => b[2] - a[2])
        .slice(0, MAX_WHY)
        .map(([word, mask, score]): [string, number, number] => [word, mask, round(score)]);
    };
    return (t: ToolWhy | Omit<ToolWhy, 'why'>): Standing => [
      ref(t.id),
      t.rank,
      round(t.score),
      'why' in t ? byWord(t.why) : null,
    ];
  };
  const misses = report.misses.map((m: EvalMiss) => {
    const st = standing(m.query);
    return {
      q: m.query,
      file: fileOf({ source: m.file || m.line ? 'cases' : 'example', file: m.file }),
      line: m.line,
      lang: queryLang(m.query),
      want: m.relevant.map(ref),
      rank: m.rank,
      above: (m.detail?.above ?? m.got.map((id, i) => ({ id, rank: i + 1, score: 0 }))).map(st),
      wanted: (m.detail?.wanted ?? []).map(st),
    };
  });

  // Confusable: who took first place from a wanted tool, counted per unordered pair and direction.
  const pairs = new Map<string, { a: string; b: string; ab: number; ba: number }>();
  for (const r of report.results) {
    const first = r.ranked[0];
    if (first === undefined || r.relevant.includes(first)) continue;
    for (const want of new Set(r.relevant)) {
      const [a, b] = first < want ? [first, want] : [want, first];
      const k = `${a}\n${b}`;
      let p = pairs.get(k);
      if (!p) pairs.set(k, (p = { a, b, ab: 0, ba: 0 }));
      if (first === a) p.ab++;
      else p.ba++;
    }
  }
  const confusable = [...pairs.values()]
    .sort((x, y) => y.ab + y.ba - (x.ab + x.ba) || Math.min(y.ab, y.ba) - Math.min(x.ab, x.ba) || (x.a < y.a ? -1 : 1))
    .slice(0, MAX_PAIRS)
    .map((p) => {
      const a = ref(p.a);
      const b = ref(p.b);
      return { a, b, ab: p.ab, ba: p.ba, sim: round(descriptionSimilarity(tools[a]![2], tools[b]![2])) };
    });

  const cfg = input.project.config;
  const opt = cfg.lint?.options?.['description-similar']?.threshold;
  const similar = {
    on: cfg.lint?.rules?.['description-similar'] !== 'off',
    threshold: typeof opt === 'number' ? opt : 0.8,
  };

  const selectTop = cfg.select?.top ?? 5;
  let full = 0;
  const perQuery = report.results.map((r) => {
    const t = sel.tokens(r.ranked.slice(0, selectTop), input.caller);
    full = t.full;
    return t.selected;
  });
  if (!report.results.length) full = sel.tokens([], input.caller).full;
  const sorted = [...perQuery].sort((a, b) => a - b);
  const mean = perQuery.length ? perQuery.reduce((s, n) => s + n, 0) / perQuery.length : 0;

  const compare = input.compare && {
    against: input.compare.against,
    before: input.compare.before,
    changes: input.compare.changes.map(({ source, ...c }) => {
      for (const id of [...c.relevant, c.before.top1, c.after.top1]) if (id) ref(id);
      return { ...c, file: fileOf({ source, file: c.file }) };
    }),
  };

  return {
    kind: 'eval',
    generated: (input.now ?? new Date()).toISOString(),
    registry: input.registryLabel,
    ranker: report.ranker,
    top,
    queries: report.queries,
    metrics: report.metrics,
    spread: bootstrap(per),
    curve: curveOf(all),
    groups,
    fields: FIELDS,
    tools,
    misses,
    confusable,
    similar,
    ...(compare ? { compare } : {}),
    tokens: {
      full,
      top: selectTop,
      perQuery,
      mean: Math.round(mean),
      median: percentile(sorted, 50),
      p95: percentile(sorted, 95),
    },
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
