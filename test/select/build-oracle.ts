// For the index-build tests: the straightforward lexical index build that the streamed one
// replaced (the oracle), and varied generated contracts from a seeded generator (same contracts every
// run) that cover every searchable field, Chinese text (the translated field), numbers, empty
// fields, permissions, nested schemas.
import type { ToolContract } from '../../src/contract/types.js';
import { FIELDS } from '../../src/select/fields.js';
import {
  fieldParams,
  idf,
  pseudoTf,
  RANK,
  saturate,
  type DocStats,
  type LexicalIndex,
  type RankParams,
} from '../../src/select/model.js';

/** The lexical index as it was built before streaming: Maps of arrays, then one pass per term. */
export function oracle(stats: DocStats[], p: RankParams = RANK): LexicalIndex {
  const fp = fieldParams(p);
  const n = stats.length;
  const avg = FIELDS.map((_, f) => (n ? stats.reduce((a, d) => a + d.len[f]!, 0) / n : 0));
  const post = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const seen = new Set<string>();
    for (const field of stats[i]!.tf) for (const t in field) seen.add(t);
    for (const t of seen) {
      let list = post.get(t);
      if (!list) post.set(t, (list = []));
      list.push(i);
    }
  }
  let total = 0;
  for (const l of post.values()) total += l.length;
  const docs = new Uint32Array(total);
  const sat = new Float32Array(total);
  const terms: LexicalIndex['terms'] = new Map();
  let off = 0;
  for (const [t, list] of post) {
    terms.set(t, { idf: idf(n, list.length), off, n: list.length });
    for (const i of list) {
      const { tf, mask } = pseudoTf(stats[i]!, t, avg, fp);
      docs[off] = (i | (mask << 24)) >>> 0;
      sat[off] = saturate(tf, p.k1);
      off++;
    }
  }
  return { n, avg, terms, docs, sat };
}

const WORDS = [
  'weather',
  'forecast',
  'invoice',
  'flight',
  'hotel',
  'ticket',
  'stock',
  'email',
  'recipe',
  'city',
  'price',
  'booking',
  'refund',
  'calendar',
  'meeting',
  'translate',
  'report',
  'summary',
  'search',
  'upload',
  'image',
  'playlist',
  'shipment',
  'parcel',
  'balance',
  'account',
  'payment',
  'currency',
  'rate',
  'news',
];
const ZH = ['天气', '查询', '股票价格', '北京', '航班', '酒店', '发票', '邮件'];
const NUMS = ['2024', '7', '0', '42', '12', '1000'];

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` varied contracts, as objects (valid against the contract schema). */
export function genContracts(n: number, seed = 1): ToolContract[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const words = (k: number) => Array.from({ length: k }, () => (r() < 0.1 ? pick(NUMS) : pick(WORDS))).join(' ');
  const out: ToolContract[] = [];
  for (let i = 0; i < n; i++) {
    const zh = r() < 0.15 ? ` ${pick(ZH)}${pick(ZH)}。` : '';
    const props: Record<string, unknown> = {};
    for (let p = 0; p < Math.floor(r() * 4); p++) {
      const kind = r();
      props[`${pick(WORDS)}_${p}`] =
        kind < 0.3
          ? { type: 'string', enum: [pick(WORDS), pick(NUMS), `${pick(WORDS)}-${p}`], description: words(3) }
          : kind < 0.5
            ? { type: 'object', properties: { inner: { type: 'string', description: `${words(2)}${zh}` } } }
            : { type: 'string', description: words(1 + Math.floor(r() * 6)) };
    }
    const c: Record<string, unknown> = {
      id: `tool_${i}_${pick(WORDS)}`,
      description: `${words(4 + Math.floor(r() * 12))}.${zh}`,
      schema: { type: 'object', properties: props },
      loader: 'command',
      loader_config: { argv: ['echo', 'x'] },
    };
    c.name = r() < 0.5 ? `${pick(WORDS)} ${pick(WORDS)}` : String(c.id);
    if (r() < 0.5) c.tags = [pick(WORDS), ...(r() < 0.3 ? [pick(NUMS)] : [])];
    if (r() < 0.3) c.examples = [words(5), ...(zh ? [`${pick(ZH)}${pick(ZH)}`] : [])];
    if (r() < 0.2) c.provider = pick(WORDS);
    if (r() < 0.2) c.permissions = r() < 0.5 ? { roles: [pick(WORDS)] } : [pick(WORDS)];
    out.push(c as unknown as ToolContract);
  }
  return out;
}
