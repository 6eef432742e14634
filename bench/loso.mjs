#!/usr/bin/env node
// Leave-one-set-out choice of the ranking constants (issues 10 and 26). Each candidate is a flat
// setting: the shipped constants and one-step departures from them. For every held-out set, the
// admissible candidate (no same-language set more than 0.005 NDCG@10 below its figure before issue
// 26) with the best mean NDCG@10 on the other seven is chosen, and its NDCG@10 on the held-out set
// recorded, with its gain over BM25 there (the lead on data the choice never saw).
// Prints per candidate and set NDCG@10, the choice per fold (with and without the rule), held-out
// NDCG@10, and the regret (best candidate on the held-out set minus the chosen one). Run under
// `nice -n 10`; tokenised sets are cached in bench/.data/.
// Usage: node bench/loso.mjs [--sets a,b] [--json out.json] [--from saved.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalBaseline, evalToolbox, loadSet, sets } from './quality.mjs';
import { REPO } from './lib.mjs';

/** NDCG@10 of the ranking before issue 10 (commit 3e8da4f), measured with bench/quality.mjs. */
export const BEFORE = {
  acebench_en: 0.9211,
  bfcl: 0.7573,
  metatool: 0.5769,
  seal_tools: 0.9226,
  ultratool_en2zh: 0.6303,
  ultratool_en2zh_opaque: 0.0531,
  ultratool_zh2en: 0.0152,
  ultratool_zh2en_opaque: 0.0197,
};
/** NDCG@10 of the ranking before issue 26 (commit 62418f0), measured with bench/quality.mjs. */
export const BEFORE_26 = {
  acebench_en: 0.9255,
  bfcl: 0.7637,
  metatool: 0.5734,
  seal_tools: 0.9221,
  ultratool_en2zh: 0.7012,
  ultratool_en2zh_opaque: 0.6201,
  ultratool_zh2en: 0.6193,
  ultratool_zh2en_opaque: 0.566,
};
export const SAME_LANGUAGE = ['acebench_en', 'bfcl', 'metatool', 'seal_tools'];
/** The issues' rule: no same-language set may lose more than this NDCG@10 against BEFORE_26. */
export const SAME_LANGUAGE_MAX_LOSS = 0.005;

/** The candidates (`quick`: the shipped constants and the four departures that matter most). */
export async function candidates({ quick = false } = {}) {
  const { RANK } = await import(join(REPO, 'dist', 'select', 'model.js'));
  const f = (over) => ({ ...RANK.fields, ...over });
  const all = {
    shipped: RANK,
    'translated field ×0.5, query ×0.7': { ...RANK, fields: f({ translated: { w: 0.5, b: 0.75 } }), derived: 0.7 },
    'translated field ×0.3': { ...RANK, fields: f({ translated: { w: 0.3, b: 0.75 } }) },
    'translated query ×0.5': { ...RANK, derived: 0.5 },
    'coord 0.1': { ...RANK, coord: 0.1 },
    'coord 0.25': { ...RANK, coord: 0.25 },
    'name ×2': { ...RANK, fields: f({ name: { w: 2, b: 0.5 } }) },
    'params ×0.3': { ...RANK, fields: f({ parameters: { w: 0.3, b: 0.75 } }) },
    'params ×0.75': { ...RANK, fields: f({ parameters: { w: 0.75, b: 0.75 } }) },
    'params ×1': { ...RANK, fields: f({ parameters: { w: 1, b: 0.75 } }) },
    'params ×0.75 b 0.4': { ...RANK, fields: f({ parameters: { w: 0.75, b: 0.4 } }) },
  };
  const keep = ['shipped', 'coord 0.1', 'coord 0.25', 'name ×2', 'params ×0.75'];
  return quick ? Object.fromEntries(keep.map((k) => [k, all[k]])) : all;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** NDCG@10 of every candidate on every set, then the folds. */
export async function loso({ only, table: given, quick = false, log = () => {} } = {}) {
  const cands = await candidates({ quick });
  const names = Object.keys(cands);
  const all = sets().filter((s) => !only || only.includes(s));
  const table = given ?? {};
  if (!given)
    for (const set of all) {
      const s = await loadSet(set);
      for (const name of names) {
        (table[name] ??= {})[set] = (await evalToolbox(s, cands[name]))['ndcg@10'];
        log(`${name} ${set} ${table[name][set].toFixed(4)}\n`);
      }
    }
  const admissible = (n) =>
    SAME_LANGUAGE.every((s) => table[n][s] === undefined || table[n][s] >= BEFORE_26[s] - SAME_LANGUAGE_MAX_LOSS);
  const choose = (pool, held) => {
    const train = all.filter((s) => s !== held);
    return pool.reduce((a, b) => (mean(train.map((s) => table[b][s])) > mean(train.map((s) => table[a][s])) ? b : a));
  };
  const pool = names.filter(admissible).length ? names.filter(admissible) : names;
  const bm25 = {};
  for (const set of all) bm25[set] = given?.bm25?.[set] ?? (await evalBaseline(await loadSet(set)))['ndcg@10'];
  const folds = all.map((held) => {
    const pick = choose(pool, held);
    const best = Math.max(...names.map((n) => table[n][held]));
    const ndcg = table[pick][held];
    return { held, pick, free: choose(names, held), ndcg, regret: best - ndcg, gain: ndcg - bm25[held] };
  });
  return { names, sets: all, table, bm25, admissible: names.filter(admissible), folds };
}

/** Print the table and the folds. */
export function printLoso(r, out = (s) => process.stdout.write(s)) {
  out(['candidate', ...r.sets, 'mean'].join('\t') + '\n');
  for (const n of r.names)
    out(
      [n, ...r.sets.map((s) => r.table[n][s].toFixed(4)), mean(r.sets.map((s) => r.table[n][s])).toFixed(4)].join(
        '\t',
      ) + '\n',
    );
  out(
    `\nadmissible (no same-language set below its NDCG@10 before issue 26 − ${SAME_LANGUAGE_MAX_LOSS}): ${r.admissible.join('; ')}\n`,
  );
  out('\nheld-out set\tchosen on the other sets\t(without the rule)\tNDCG@10 held out\tregret\tgain over BM25\n');
  for (const x of r.folds)
    out(
      `${x.held}\t${x.pick}\t${x.free}\t${x.ndcg.toFixed(4)}\t${x.regret.toFixed(4)}\t${x.gain >= 0 ? '+' : ''}${x.gain.toFixed(4)}\n`,
    );
  const same = r.folds.filter((x) => SAME_LANGUAGE.includes(x.held));
  const gains = (g) =>
    `mean gain over BM25 ${(g.reduce((a, b) => a + b, 0) / g.length).toFixed(4)}, lowest ${Math.min(...g).toFixed(4)}`;
  if (same.length) {
    out(`\nheld-out same-language sets, constants chosen per fold: ${gains(same.map((x) => x.gain))}\n`);
    out(`same-language sets, shipped constants: ${gains(same.map((x) => r.table.shipped[x.held] - r.bm25[x.held]))}\n`);
  }
  const g = r.folds.map((x) => x.regret);
  const count = r.folds.reduce((a, x) => ((a[x.pick] = (a[x.pick] ?? 0) + 1), a), {});
  out(
    `\nLOSO spread: regret ${Math.min(...g).toFixed(4)} to ${Math.max(...g).toFixed(4)} NDCG@10; folds choosing each: ${Object.entries(
      count,
    )
      .map(([k, v]) => `${k} ${v}/${r.folds.length}`)
      .join(', ')}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const from = arg('--from');
  const r = await loso({
    only: arg('--sets')?.split(','),
    table: from ? JSON.parse(readFileSync(from, 'utf8')).table : undefined,
    log: (s) => process.stderr.write(s),
  });
  printLoso(r);
  if (arg('--json')) writeFileSync(arg('--json'), JSON.stringify(r, null, 1));
}
