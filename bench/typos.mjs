#!/usr/bin/env node
// Typo tolerance (issue 35 item 3), measured on the shared sets: every query with seeded keyboard
// slips (a neighbouring key, a dropped or doubled letter, two neighbouring letters swapped) in its
// Latin words, against the same query clean. For toolbox (each candidate typo setting) and BM25
// (ndp+split replica): NDCG@10 clean and with typos, and the cost (clean − typos). The target: the
// typos cost toolbox at most 0.6 of what they cost BM25, with no loss on clean queries. Constants
// are chosen leave-one-set-out: per held-out set, the candidate with the best mean of (typo NDCG +
// clean NDCG) on the other sets, among those that lose no clean NDCG (≤ 0.001) on any of them.
// Usage: node bench/typos.mjs [--sets a,b] [--rate 0.3] [--json out.json]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalBaseline, evalToolbox, loadSet, sets } from './quality.mjs';
import { REPO } from './lib.mjs';
import { rng } from './gen-registry.mjs';

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const NEIGHBOURS = {};
for (let r = 0; r < ROWS.length; r++)
  for (let c = 0; c < ROWS[r].length; c++) {
    const n = [];
    for (const [dr, dc] of [
      [0, -1],
      [0, 1],
      [-1, 0],
      [-1, 1],
      [1, -1],
      [1, 0],
    ]) {
      const ch = ROWS[r + dr]?.[c + dc];
      if (ch) n.push(ch);
    }
    NEIGHBOURS[ROWS[r][c]] = n;
  }

const seedOf = (s) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** One keyboard slip in `w` (lower-case letters only are touched). */
function slipWord(w, r) {
  const i = 1 + Math.floor(r() * (w.length - 1)); // the first letter is rarely mistyped
  const kind = Math.floor(r() * 4);
  const ch = w[i];
  const near = NEIGHBOURS[ch.toLowerCase()];
  if (kind === 0 && near?.length) return w.slice(0, i) + near[Math.floor(r() * near.length)] + w.slice(i + 1);
  if (kind === 1) return w.slice(0, i) + w.slice(i + 1);
  if (kind === 2) return w.slice(0, i) + ch + w.slice(i);
  if (i < w.length - 1) return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  return w.slice(0, i) + w.slice(i + 1);
}

/** `query` with seeded slips: each Latin word of 4+ letters with probability `rate`, at least one per query. */
export function slip(query, key, rate = 0.3) {
  const r = rng(seedOf(key));
  const words = [...query.matchAll(/[A-Za-z]{4,}/g)];
  if (!words.length) return query;
  const pick = new Set(words.filter(() => r() < rate).map((m) => m.index));
  if (!pick.size) pick.add(words[Math.floor(r() * words.length)].index);
  let out = '';
  let at = 0;
  for (const m of words) {
    out += query.slice(at, m.index) + (pick.has(m.index) ? slipWord(m[0], r) : m[0]);
    at = m.index + m[0].length;
  }
  return out + query.slice(at);
}

export async function candidates() {
  const { RANK } = await import(join(REPO, 'dist', 'select', 'model.js'));
  const t = (over) => ({ ...RANK, typos: { ...RANK.typos, ...over } });
  return {
    off: t({ weight: 0 }),
    'w0.3 min5': t({ weight: 0.3, min1: 5 }),
    'w0.5 min5': t({ weight: 0.5, min1: 5 }),
    'w0.7 min5': t({ weight: 0.7, min1: 5 }),
    'w0.5 min4': t({ weight: 0.5, min1: 4 }),
    'w0.7 min4': t({ weight: 0.7, min1: 4 }),
    'w0.9 min4': t({ weight: 0.9, min1: 4 }),
    'w0.7 min5, every word': t({ weight: 0.7, min1: 5, common: 0 }),
  };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function typos({ only, rate = 0.3, log = () => {} } = {}) {
  const cands = await candidates();
  const names = Object.keys(cands);
  const all = sets().filter((s) => !only || only.includes(s));
  const clean = {};
  const typo = {};
  const bm25 = {};
  for (const set of all) {
    const s = await loadSet(set);
    const t = { ...s, cases: s.cases.map((c) => ({ ...c, query: slip(c.query, `${set}:${c.qid}`, rate) })) };
    bm25[set] = { clean: (await evalBaseline(s))['ndcg@10'], typo: (await evalBaseline(t))['ndcg@10'] };
    for (const n of names) {
      (clean[n] ??= {})[set] = (await evalToolbox(s, cands[n]))['ndcg@10'];
      (typo[n] ??= {})[set] = (await evalToolbox(t, cands[n]))['ndcg@10'];
      log(`${n}\t${set}\tclean ${clean[n][set].toFixed(4)}\ttypos ${typo[n][set].toFixed(4)}\n`);
    }
    log(`BM25\t${set}\tclean ${bm25[set].clean.toFixed(4)}\ttypos ${bm25[set].typo.toFixed(4)}\n`);
  }
  const folds = all.map((held) => {
    const train = all.filter((s) => s !== held);
    const ok = names.filter((n) => train.every((s) => clean[n][s] >= clean.off[s] - 0.001));
    const pool = ok.length ? ok : ['off'];
    const pick = pool.reduce((a, b) =>
      mean(train.map((s) => typo[b][s] + clean[b][s])) > mean(train.map((s) => typo[a][s] + clean[a][s])) ? b : a,
    );
    const cost = clean[pick][held] - typo[pick][held];
    const bmCost = bm25[held].clean - bm25[held].typo;
    return {
      held,
      pick,
      clean: clean[pick][held],
      typo: typo[pick][held],
      cleanLoss: clean.off[held] - clean[pick][held],
      cost,
      bmCost,
      ratio: bmCost > 0 ? cost / bmCost : NaN,
    };
  });
  return { names, sets: all, clean, typo, bm25, folds, rate };
}

export function printTypos(r, out = (s) => process.stdout.write(s)) {
  out(`NDCG@10 clean / with typos (each Latin word of 4+ letters slipped with p=${r.rate}, ≥1 per query)\n`);
  out(['candidate', ...r.sets].join('\t') + '\n');
  for (const n of r.names)
    out([n, ...r.sets.map((s) => `${r.clean[n][s].toFixed(3)}/${r.typo[n][s].toFixed(3)}`)].join('\t') + '\n');
  out(['BM25', ...r.sets.map((s) => `${r.bm25[s].clean.toFixed(3)}/${r.bm25[s].typo.toFixed(3)}`)].join('\t') + '\n');
  out('\nheld-out set\tchosen on the others\tclean\ttypos\tclean loss vs off\ttypo cost\tBM25 cost\tratio\n');
  for (const f of r.folds)
    out(
      `${f.held}\t${f.pick}\t${f.clean.toFixed(4)}\t${f.typo.toFixed(4)}\t${f.cleanLoss.toFixed(4)}\t${f.cost.toFixed(4)}\t${f.bmCost.toFixed(4)}\t${Number.isNaN(f.ratio) ? '-' : f.ratio.toFixed(2)}\n`,
    );
  const latin = r.folds.filter((f) => f.bmCost > 0.01);
  if (latin.length)
    out(
      `\nsets where typos cost BM25 > 0.01: typo cost ratio toolbox/BM25 mean ${mean(latin.map((f) => f.ratio)).toFixed(2)}, ` +
        `spread ${Math.min(...latin.map((f) => f.ratio)).toFixed(2)} to ${Math.max(...latin.map((f) => f.ratio)).toFixed(2)} (target ≤ 0.6)\n`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const r = await typos({
    only: arg('--sets')?.split(','),
    rate: Number(arg('--rate') ?? 0.3),
    log: (s) => process.stderr.write(s),
  });
  printTypos(r);
  const json = arg('--json');
  if (json) writeFileSync(json, JSON.stringify(r, null, 1));
}
