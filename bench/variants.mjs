// Issue 26's evaluation variants, built at bench time from the shared sets (never stored): the
// same queries and tools written the other ways people write Chinese, small talk, and tasks
// wrapped in small talk. Only the words lists below (code-mixing, small-talk wrappers) and
// test/fixtures/select/small-talk.jsonl are our own writing; everything else is derived from the
// shared sets in memory.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as OpenCC from 'opencc-js';
import { REPO } from './lib.mjs';
import { contract, contractId, DATA, jl, SHARED } from './convert-sets.mjs';

const dist = (p) => import(join(REPO, 'dist', 'select', p));

/**
 * opencc-js converters from simplified (mainland) Chinese: `tw` Taiwan characters, `hk` Hong Kong
 * characters, `twp` Taiwan characters and Taiwan vocabulary (软件 → 軟體, 文件 → 檔案, 设置 → 設定).
 */
const converters = {};
export const toScript = (to) => (converters[to] ??= OpenCC.Converter({ from: 'cn', to }));

/** Every string in a JSON value (keys too) through `f`. */
function deep(v, f) {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => deep(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [f(k), deep(x, f)]));
  return v;
}

/**
 * A set as contracts and cases, from the shared folders: tools of `tools`, queries of `queries`
 * (default: the same set). The ultratool halves share tool ids, qids and gold, so the Chinese
 * queries of ultratool_zh2en against the Chinese tools of ultratool_en2zh are a Chinese → Chinese
 * set ("ultratool_zh2zh"). `toolScript` / `queryScript`: an opencc-js target for the Chinese text.
 */
export async function buildSet({ name, tools, queries = tools, toolScript, queryScript, mapQuery }) {
  const { docStats, STATS_KEY } = await dist('model.js');
  const conv = toolScript ? toScript(toolScript) : (s) => s;
  const raw = jl(join(SHARED, tools, 'tools.jsonl')).map((t) => deep(t, conv));
  const contracts = raw.map((t) => contract(t, contractId(t.id)));
  const map = new Map(raw.map((t, i) => [t.id, contracts[i].id]));
  const qconv = queryScript ? toScript(queryScript) : (s) => s;
  const cases = jl(join(SHARED, queries, 'queries.jsonl')).map((q, i) => ({
    query: (mapQuery ?? ((s) => s))(qconv(q.query), i, q.lang),
    relevant: q.relevant.map((r) => map.get(r) ?? contractId(r)),
    lang: q.lang,
    qid: q.qid,
  }));
  const key = createHash('sha1')
    .update(String(STATS_KEY))
    .update(JSON.stringify(contracts))
    .update(readFileSync(join(REPO, 'data', 'cedict-t2s.tsv')))
    .digest('hex')
    .slice(0, 12);
  const file = join(DATA, 'variants', `stats-${key}.json`);
  let stats;
  if (existsSync(file)) stats = JSON.parse(readFileSync(file, 'utf8'));
  else {
    stats = contracts.map((c) => docStats(c));
    mkdirSync(join(DATA, 'variants'), { recursive: true });
    writeFileSync(file, JSON.stringify(stats));
  }
  return { set: name, contracts, cases, stats };
}

/**
 * Code-mixing: Chinese words people often type in English inside a Chinese sentence ("帮我把这个
 * file 上传到 cloud"). Our own list of common office/IT/travel nouns and verbs, not taken from any set.
 */
export const MIXED = [
  ['文件', 'file'],
  ['上传', 'upload'],
  ['下载', 'download'],
  ['云端', 'cloud'],
  ['邮件', 'email'],
  ['邮箱', 'email'],
  ['链接', 'link'],
  ['密码', 'password'],
  ['账号', 'account'],
  ['账户', 'account'],
  ['会议', 'meeting'],
  ['日程', 'schedule'],
  ['项目', 'project'],
  ['报告', 'report'],
  ['照片', 'photo'],
  ['图片', 'picture'],
  ['视频', 'video'],
  ['消息', 'message'],
  ['备份', 'backup'],
  ['登录', 'login'],
  ['订单', 'order'],
  ['酒店', 'hotel'],
  ['航班', 'flight'],
  ['代码', 'code'],
  ['数据库', 'database'],
  ['列表', 'list'],
  ['打印', 'print'],
  ['分享', 'share'],
  ['搜索', 'search'],
  ['数据', 'data'],
  ['表格', 'spreadsheet'],
  ['提醒', 'reminder'],
  ['任务', 'task'],
  ['客户', 'client'],
  ['价格', 'price'],
  ['翻译', 'translate'],
  ['服务器', 'server'],
  ['应用', 'app'],
  ['天气', 'weather'],
  ['股票', 'stock'],
];

/** `query` with its first `max` MIXED words in English (spaced as people type them), or undefined when none. */
export function mixWords(query, max = 2) {
  let out = query;
  let n = 0;
  for (const [zh, en] of MIXED) {
    if (n >= max) break;
    const at = out.indexOf(zh);
    if (at < 0) continue;
    out = `${out.slice(0, at)} ${en} ${out.slice(at + zh.length)}`;
    n++;
  }
  return n ? out.replace(/\s+/g, ' ').trim() : undefined;
}

/** Small talk around a task (our own wording), per language: `{q}` is the task. */
export const WRAPPERS = {
  en: [
    'hi! could you {q}? thanks',
    'Hello there, {q} Thank you so much!',
    'hey, hope you are doing well. {q} thanks in advance',
    'Good morning! {q} Cheers',
  ],
  zh: ['你好，{q}，谢谢', '您好！{q} 辛苦了，谢谢！', '嗨，{q}，麻烦你了', '早上好，{q} 多谢啦'],
};

/** `q` wrapped in the `i`-th wrapper of its language (a trailing '.' or '?' of an English task is dropped inside "could you …?"). */
export function wrap(q, i, lang) {
  const list = WRAPPERS[lang === 'zh' ? 'zh' : 'en'];
  const w = list[i % list.length];
  const task = w.includes('could you {q}?')
    ? q.replace(/[.?!]\s*$/, '').replace(/^(?:please|can you|could you)\s+/i, '')
    : q;
  return w.replace('{q}', task);
}

/** Our own labelled small talk (test/fixtures/select/small-talk.jsonl): `{ text, lang, split }`. */
export const smallTalk = () => jl(join(REPO, 'test', 'fixtures', 'select', 'small-talk.jsonl'));

const f3 = (x) => x.toFixed(3);
const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

/** The Chinese-query pairs (name, tool set, query set) and the Chinese-tool pairs. */
const ZH_QUERIES = [
  ['ultratool_zh2en', 'ultratool_zh2en', 'ultratool_zh2en'],
  ['ultratool_zh2en_opaque', 'ultratool_zh2en_opaque', 'ultratool_zh2en_opaque'],
  ['ultratool_zh2zh', 'ultratool_en2zh', 'ultratool_zh2en'],
  ['ultratool_zh2zh_opaque', 'ultratool_en2zh_opaque', 'ultratool_zh2en_opaque'],
];
const ZH_TOOLS = [
  ['ultratool_en2zh', 'ultratool_en2zh', 'ultratool_en2zh'],
  ['ultratool_en2zh_opaque', 'ultratool_en2zh_opaque', 'ultratool_en2zh_opaque'],
  ['ultratool_zh2zh', 'ultratool_en2zh', 'ultratool_zh2en'],
  ['ultratool_zh2zh_opaque', 'ultratool_en2zh_opaque', 'ultratool_zh2en_opaque'],
];
const SCRIPTS = ['tw', 'hk', 'twp'];

/**
 * NDCG@10 of the same queries and tools written in traditional characters (opencc-js: Taiwan, Hong
 * Kong, Taiwan with Taiwan vocabulary) against simplified: rows [pair, side, simplified, tw, hk, twp, worst Δ].
 */
export async function traditionalRows(ndcg) {
  const rows = [];
  for (const [side, list, key] of [
    ['queries', ZH_QUERIES, 'queryScript'],
    ['tools', ZH_TOOLS, 'toolScript'],
  ]) {
    for (const [name, tools, queries] of list) {
      const base = await ndcg(await buildSet({ name, tools, queries }));
      const by = [];
      for (const sc of SCRIPTS) by.push(await ndcg(await buildSet({ name, tools, queries, [key]: sc })));
      rows.push([name, side, f3(base), ...by.map(f3), signed(Math.min(...by) - base)]);
    }
  }
  return rows;
}

/** Code-mixed queries (MIXED) against the same queries in pure Chinese: rows [pair, n, pure, mixed, Δ]. */
export async function mixedRows(ndcg) {
  const rows = [];
  for (const [name, tools, queries] of ZH_QUERIES) {
    const s = await buildSet({ name, tools, queries });
    const mixed = s.cases.map((c) => ({ ...c, query: mixWords(c.query) })).filter((c) => c.query);
    const keep = new Set(mixed.map((c) => c.qid));
    const pure = await ndcg({ ...s, cases: s.cases.filter((c) => keep.has(c.qid)) });
    const mix = await ndcg({ ...s, cases: mixed });
    rows.push([name, String(mixed.length), f3(pure), f3(mix), signed(mix - pure)]);
  }
  return rows;
}

/** Every query of a set wrapped in small talk of its language: rows [set, plain, wrapped, Δ]. */
export async function wrappedRows(sets, ndcg) {
  const rows = [];
  for (const s of sets) {
    const plain = await ndcg(s);
    const wrapped = await ndcg({ ...s, cases: s.cases.map((c, i) => ({ ...c, query: wrap(c.query, i, c.lang) })) });
    rows.push([s.set, f3(plain), f3(wrapped), signed(wrapped - plain)]);
  }
  return rows;
}

/**
 * Our small talk against each set's registry: how often nothing is selected, on the part of the list
 * the small-talk words were chosen on (`dev`, `dev2`, `fresh`: written in three rounds, words added
 * after each) and on the last 100 (`fresh2`), written once the word lists were final and never used
 * to choose a word (the rule that small talk costs one content word came after seeing them: 80 % of
 * them selected nothing before it), and the utterances that still selected something.
 */
export async function smallTalkRows(sets, selectorOf) {
  const talk = smallTalk();
  const rows = [];
  const missed = new Map();
  for (const s of sets) {
    const sel = await selectorOf(s);
    const empty = { tuned: 0, fresh: 0 };
    const all = { tuned: 0, fresh: 0 };
    for (const t of talk) {
      const part = t.split === 'fresh2' ? 'fresh' : 'tuned';
      const { results } = await sel.rank(t.text, { top: 5 });
      all[part]++;
      if (!results.length) empty[part]++;
      else missed.set(t.text, (missed.get(t.text) ?? 0) + 1);
    }
    const pct = (a, b) => `${((a / b) * 100).toFixed(1)}%`;
    rows.push([
      s.set,
      `${empty.tuned}/${all.tuned}`,
      `${empty.fresh}/${all.fresh}`,
      pct(empty.tuned + empty.fresh, all.tuned + all.fresh),
    ]);
  }
  return { rows, missed: [...missed].sort((a, b) => b[1] - a[1]) };
}
