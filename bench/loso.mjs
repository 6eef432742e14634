#!/usr/bin/env node
// Leave-one-set-out choice of the ranking constants (issue 10). Each candidate is a flat setting
// (bench/loso-candidates.json or the built-in list); for every held-out set the candidate with the
// best mean NDCG@10 on the other seven is chosen and its score on the held-out set recorded. Prints
// per candidate and set NDCG@10, the LOSO choice per fold, and the spread (max − min, over folds,
// of held-out NDCG@10 minus that set's best). Run under `nice -n 10`; sets are tokenised once and
// cached in bench/.data/. Usage: node bench/loso.mjs [--sets a,b] [--json out.json]
import { writeFileSync } from 'node:fs';
import { evalToolbox, loadSet, sets } from './quality.mjs';
import { REPO } from './lib.mjs';
import { join } from 'node:path';

const { RANK } = await import(join(REPO, 'dist', 'select', 'model.js'));
const f = (over) => ({ ...RANK.fields, ...over });
/** Flat candidates: the shipped constants and one-step departures from them. */
export const CANDIDATES = {
  shipped: RANK,
  'v1 (name×3, params×0.5 b0.75, no coord)': {
    ...RANK,
    fields: f({ name: { w: 3, b: 0.5 }, parameters: { w: 0.5, b: 0.75 } }),
    coord: 0,
  },
  'v1 + coord 0.1': { ...RANK, fields: f({ name: { w: 3, b: 0.5 }, parameters: { w: 0.5, b: 0.75 } }), coord: 0.1 },
  'v1 + coord 0.25': { ...RANK, fields: f({ name: { w: 3, b: 0.5 }, parameters: { w: 0.5, b: 0.75 } }) },
  'name×4 + coord 0.1': { ...RANK, fields: f({ name: { w: 4, b: 0.5 }, parameters: { w: 0.5, b: 0.75 } }), coord: 0.1 },
  'name×3 params×0.75 b0.4 coord 0.1': { ...RANK, fields: f({ name: { w: 3, b: 0.5 } }), coord: 0.1 },
  'name×2 params×0.5 b0.75 coord 0.1': { ...RANK, fields: f({ parameters: { w: 0.5, b: 0.75 } }), coord: 0.1 },
  'no coord': { ...RANK, coord: 0 },
};

const arg = (k) => {
  const i = process.argv.indexOf(k);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = arg('--sets')?.split(',');
const names = arg('--only')?.split('|') ?? Object.keys(CANDIDATES);
const all = sets().filter((s) => !only || only.includes(s));
const table = {}; // candidate -> set -> ndcg
for (const set of all) {
  const s = await loadSet(set);
  for (const name of names) {
    const m = await evalToolbox(s, CANDIDATES[name]);
    (table[name] ??= {})[set] = m['ndcg@10'];
    process.stderr.write(`${name} ${set} ${m['ndcg@10'].toFixed(4)}\n`);
  }
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(['candidate', ...all, 'mean'].join('\t'));
for (const n of names)
  console.log([n, ...all.map((s) => table[n][s].toFixed(4)), mean(all.map((s) => table[n][s])).toFixed(4)].join('\t'));
const folds = all.map((held) => {
  const train = all.filter((s) => s !== held);
  const pick = names.reduce((a, b) =>
    mean(train.map((s) => table[b][s])) > mean(train.map((s) => table[a][s])) ? b : a,
  );
  const best = Math.max(...names.map((n) => table[n][held]));
  return { held, pick, ndcg: table[pick][held], regret: best - table[pick][held] };
});
console.log('\nfold\tchosen on the other sets\tNDCG@10 held out\tregret vs best on it');
for (const x of folds) console.log(`${x.held}\t${x.pick}\t${x.ndcg.toFixed(4)}\t${x.regret.toFixed(4)}`);
const r = folds.map((x) => x.regret);
console.log(
  `\nLOSO spread: regret ${Math.min(...r).toFixed(4)}..${Math.max(...r).toFixed(4)}; folds choosing each: ${JSON.stringify(folds.reduce((a, x) => ((a[x.pick] = (a[x.pick] ?? 0) + 1), a), {}))}`,
);
const out = arg('--json');
if (out) writeFileSync(out, JSON.stringify({ table, folds }, null, 1));
