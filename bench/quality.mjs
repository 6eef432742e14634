// In-process selection quality on the shared bench sets: the real Selector over an index built in
// memory from each set's tools (no contract files, no cache), and the bm25_baseline.py replica.
// Tokenised tool statistics are cached in bench/.data/<set>/ (gitignored) so that sweeps of the
// ranking constants do not re-tokenise. Used by select.bench.mjs and by `node bench/loso.mjs`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './lib.mjs';
import { contract, contractId, DATA, jl, SHARED, sets } from './convert-sets.mjs';

const dist = (p) => import(join(REPO, 'dist', 'select', p));

export async function loadSet(set) {
  const { docStats, STATS_KEY } = await dist('model.js');
  const tools = jl(join(SHARED, set, 'tools.jsonl'));
  const contracts = tools.map((t) => contract(t, contractId(t.id)));
  const map = new Map(tools.map((t, i) => [t.id, contracts[i].id]));
  const cases = jl(join(SHARED, set, 'queries.jsonl')).map((q) => ({
    query: q.query,
    relevant: q.relevant.map((r) => map.get(r) ?? contractId(r)),
    lang: q.lang,
    qid: q.qid,
  }));
  // The cache key covers the model's analysis version and this file's source.
  const key = createHash('sha1')
    .update(String(STATS_KEY ?? 0))
    .update(readFileSync(join(SHARED, set, 'tools.jsonl')))
    .digest('hex')
    .slice(0, 12);
  const file = join(DATA, set, `stats-${key}.json`);
  let stats;
  if (existsSync(file)) stats = JSON.parse(readFileSync(file, 'utf8'));
  else {
    stats = contracts.map((c) => docStats(c));
    mkdirSync(join(DATA, set), { recursive: true });
    writeFileSync(file, JSON.stringify(stats));
  }
  return { set, contracts, cases, stats };
}

/** A Selector over a set's tools, with optional ranking parameters (see model.ts RankParams). */
export async function setSelector(s, params) {
  const { buildIndex } = await dist('lex-build.js');
  const { Selector } = await dist('index.js');
  const lex = buildIndex(s.stats, params);
  const index = {
    registryDir: '',
    tools: s.contracts.map((c) => ({ id: c.id, rel: '', tok: -1 })),
    broken: [],
    lex,
    rebuilt: 0,
    files: { rel: [], mtime: new Float64Array(), size: new Float64Array(), ctime: new Float64Array() },
    contract: (i) => s.contracts[i],
    entry: (i) => ({ contract: s.contracts[i], file: '' }),
    hash: () => '',
  };
  return new Selector({ root: '', stateDir: '', registryDir: '', config: {} }, index);
}

/** Mean metrics of a set under the toolbox ranking (params) with the full top 10 (`cut: false`: no cut-off). */
export async function evalToolbox(s, params, { cut = true } = {}) {
  const { queryMetrics, meanMetrics } = await dist('metrics.js');
  const sel = await setSelector(s, params);
  const per = [];
  for (const c of s.cases) {
    const { results } = await sel.rank(c.query, { top: 10, params, ...(cut ? {} : { cutoff: false }) });
    per.push(
      queryMetrics(
        results.map((r) => r.id),
        c.relevant,
      ),
    );
  }
  return meanMetrics(per);
}

export async function evalBaseline(s) {
  const { queryMetrics, meanMetrics } = await dist('metrics.js');
  const { BaselineRanker } = await dist('baseline.js');
  const bm = new BaselineRanker(s.contracts);
  return meanMetrics(
    s.cases.map((c) =>
      queryMetrics(
        bm.rank(c.query, 10).map((i) => s.contracts[i].id),
        c.relevant,
      ),
    ),
  );
}

export { sets };

/**
 * The multi-turn queries of a set (qid contains "multi_turn"; user turns joined by newlines):
 * NDCG@10 when the turns are sent as one concatenated query, and when only the last turn is the
 * query and the earlier ones are a `--session` (each recorded with its own first tool).
 */
export async function evalMultiTurn(s, params) {
  const { queryMetrics, meanMetrics } = await dist('metrics.js');
  const sel = await setSelector(s, params);
  const concat = [];
  const session = [];
  for (const c of s.cases.filter((x) => /multi_turn/.test(x.qid ?? ''))) {
    const turns = c.query.split('\n').filter((t) => t.trim());
    const ids = async (q, sess) => (await sel.rank(q, { top: 10, params, session: sess })).results.map((r) => r.id);
    concat.push(queryMetrics(await ids(c.query), c.relevant));
    const events = [];
    for (const t of turns.slice(0, -1)) {
      const first = (await ids(t, events.length ? { id: 'bench', events: [...events] } : undefined)).slice(0, 1);
      events.push({ at: '', kind: 'selected', query: t, tools: first });
    }
    session.push(
      queryMetrics(await ids(turns.at(-1), events.length ? { id: 'bench', events } : undefined), c.relevant),
    );
  }
  return { n: concat.length, concat: meanMetrics(concat), session: meanMetrics(session) };
}
