// Building the lexical index one tool at a time: each tool's term statistics are folded into a few
// growable typed arrays as soon as they are known, and the tool's dictionaries can be dropped. The
// BM25F weights need every field's average length, so they are computed in `finish`, from the
// compact copy. The result is exactly buildIndex's: the same terms in the same order, the same
// postings, and each weight computed with the same floating-point operations in the same order.
import { FIELDS } from './fields.js';
import { RANK, fieldParams, idf, saturate, type DocStats, type LexicalIndex, type RankParams } from './model.js';

const NF = FIELDS.length;

/** A Uint32Array / Float64Array that grows by doubling. */
class Grow<T extends Uint32Array | Float64Array> {
  n = 0;
  constructor(
    public a: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}
const u32 = () => new Grow(new Uint32Array(1024), (n) => new Uint32Array(n));
const f64 = () => new Grow(new Float64Array(1024), (n) => new Float64Array(n));

/** Folds tools' term statistics, in tool order, into a LexicalIndex. */
export class LexBuilder {
  private readonly ids = new Map<string, number>();
  private readonly df = u32();
  /** Per tool: where its terms end in `terms`. */
  private readonly ends = u32();
  /** Per tool, its distinct terms (term numbers) in the order buildIndex meets them. */
  private readonly terms = u32();
  /** Per tool: where its field counts end in `at` / `cnt`. */
  private readonly cends = u32();
  /** Per field count: (position of the term among the tool's terms) << 3 | field. */
  private readonly at = u32();
  private readonly cnt = f64();
  private readonly lens = f64();
  private n = 0;

  /** Per term number: the last tool that had it, plus one (0: none yet), and its position among that tool's terms. */
  private seen = new Uint32Array(1024);
  private pos = new Uint32Array(1024);

  add(d: DocStats): void {
    // The tool's distinct terms are numbered in the order met (its local positions) without a Map
    // per tool: `seen` marks the terms this tool has had already.
    const mark = this.n + 1;
    let local = 0;
    for (let f = 0; f < d.tf.length; f++) {
      const field = d.tf[f]!;
      for (const t in field) {
        let id = this.ids.get(t);
        if (id === undefined) {
          this.ids.set(t, (id = this.ids.size));
          this.df.push(0);
          if (id === this.seen.length) this.growSeen();
        }
        if (this.seen[id] !== mark) {
          this.seen[id] = mark;
          this.pos[id] = local++;
          this.df.a[id]!++;
          this.terms.push(id);
        }
        this.at.push((this.pos[id]! << 3) | f);
        this.cnt.push(field[t]!);
      }
    }
    for (let f = 0; f < NF; f++) this.lens.push(d.len[f] ?? 0);
    this.ends.push(this.terms.n);
    this.cends.push(this.at.n);
    this.n++;
  }

  private growSeen(): void {
    const seen = new Uint32Array(this.seen.length * 2);
    seen.set(this.seen);
    this.seen = seen;
    const pos = new Uint32Array(this.pos.length * 2);
    pos.set(this.pos);
    this.pos = pos;
  }

  finish(p: RankParams = RANK): LexicalIndex {
    const { n } = this;
    const fp = fieldParams(p);
    const lens = this.lens.a;
    const avg = FIELDS.map((_, f) => {
      if (!n) return 0;
      let s = 0;
      for (let i = 0; i < n; i++) s += lens[i * NF + f]!;
      return s / n;
    });
    const nt = this.ids.size;
    const df = this.df.a;
    const cursor = new Uint32Array(nt);
    const terms: LexicalIndex['terms'] = new Map();
    let total = 0;
    let t = 0;
    for (const term of this.ids.keys()) {
      cursor[t] = total;
      terms.set(term, { idf: idf(n, df[t]!), off: total, n: df[t]! });
      total += df[t++]!;
    }
    const docs = new Uint32Array(total);
    const sat = new Float32Array(total);
    let tf = new Float64Array(64);
    let mask = new Uint8Array(64);
    let k0 = 0;
    let c0 = 0;
    for (let i = 0; i < n; i++) {
      const k1 = this.ends.a[i]!;
      const c1 = this.cends.a[i]!;
      const m = k1 - k0;
      if (m > tf.length) {
        tf = new Float64Array(m * 2);
        mask = new Uint8Array(m * 2);
      }
      tf.fill(0, 0, m);
      mask.fill(0, 0, m);
      for (let c = c0; c < c1; c++) {
        const count = this.cnt.a[c]!;
        if (!count) continue;
        const k = this.at.a[c]! >>> 3;
        const f = this.at.a[c]! & 7;
        const len = lens[i * NF + f]!;
        const norm = avg[f]! > 0 ? 1 - fp[f]!.b + fp[f]!.b * (len / avg[f]!) : 1;
        tf[k]! += (fp[f]!.w * count) / norm;
        mask[k]! |= 1 << f;
      }
      for (let k = 0; k < m; k++) {
        const pos = cursor[this.terms.a[k0 + k]!]!++;
        docs[pos] = (i | (mask[k]! << 24)) >>> 0;
        sat[pos] = saturate(tf[k]!, p.k1);
      }
      k0 = k1;
      c0 = c1;
    }
    return { n, avg, terms, docs, sat };
  }
}

/** The index of tools described by `stats`, in that order. */
export function buildIndex(stats: DocStats[], p: RankParams = RANK): LexicalIndex {
  const b = new LexBuilder();
  for (const d of stats) b.add(d);
  return b.finish(p);
}
