// Small statistics for the reports: a seeded bootstrap interval and the language of a query (the
// nearest-rank percentile is runtime/stats.ts's, the one `toolbox stats` uses).
import type { Metrics } from '../select/metrics.js';

export const METRIC_KEYS: readonly (keyof Metrics)[] = ['r@1', 'r@5', 'r@10', 'p@1', 'ndcg@10', 'mrr'];

/** A deterministic generator (mulberry32): the same data gives the same interval on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 95% percentile-bootstrap interval of each metric's mean over `per` (one Metrics per query):
 * how much the figure could move with another sample of queries like these. `rounds` resamples,
 * seeded, so a report is reproducible.
 */
export function bootstrap(per: readonly Metrics[], rounds = 1000): Record<keyof Metrics, [number, number]> {
  const n = per.length;
  const out = {} as Record<keyof Metrics, [number, number]>;
  if (n === 0) {
    for (const k of METRIC_KEYS) out[k] = [0, 0];
    return out;
  }
  const cols = METRIC_KEYS.map((k) => Float64Array.from(per, (m) => m[k]));
  const means = METRIC_KEYS.map(() => new Float64Array(rounds));
  const rnd = random(0x5eed ^ n);
  for (let b = 0; b < rounds; b++) {
    const sums = new Float64Array(cols.length);
    for (let i = 0; i < n; i++) {
      const j = Math.floor(rnd() * n);
      for (let c = 0; c < cols.length; c++) sums[c]! += cols[c]![j]!;
    }
    for (let c = 0; c < cols.length; c++) means[c]![b] = sums[c]! / n;
  }
  METRIC_KEYS.forEach((k, c) => {
    const s = means[c]!.sort();
    out[k] = [s[Math.floor(0.025 * (rounds - 1))]!, s[Math.ceil(0.975 * (rounds - 1))]!];
  });
  return out;
}

/** The language of a query, by script: zh, ja (kana), ko, en (Latin words), mixed (Han and Latin), other. */
export function queryLang(q: string): string {
  const han = /\p{Script=Han}/u.test(q);
  const latin = /[A-Za-z]{2,}/.test(q);
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(q)) return 'ja';
  if (/\p{Script=Hangul}/u.test(q)) return 'ko';
  if (han) return latin ? 'mixed' : 'zh';
  return latin ? 'en' : 'other';
}

/**
 * The report's UI language: the user's locale when it names one (LC_ALL, LC_MESSAGES, LANG), else
 * the language of most of the texts (Chinese when more than half contain Han characters).
 */
export function uiLang(env: Record<string, string | undefined>, texts: readonly string[]): 'en' | 'zh' {
  const loc = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  if (/^zh/i.test(loc)) return 'zh';
  if (/^[a-z]{2,3}([_.@-]|$)/i.test(loc) && !/^(c|posix)([_.@-]|$)/i.test(loc)) return 'en';
  const zh = texts.filter((t) => /\p{Script=Han}/u.test(t)).length;
  return zh * 2 > texts.length ? 'zh' : 'en';
}
