// A full build of the selection index, streamed: each contract is analysed as it is read (term
// statistics, text hash, token count, its JSON packed into one growable buffer) and nothing of it
// is kept but what the index file needs (an exact-count build also keeps each tool's definition and
// statistics JSON until the tokenizer has counted them). The per-tool statistics cache is written as it goes.
// On 50,000 contracts this keeps the live heap small, so V8 does not grow it to ~1 GB.
import { dirname } from 'node:path';
import type { ToolContract } from '../contract/types.js';
import { AtomicWriter, sweepTemps } from '../util/fs.js';
import { nodeCrypto } from '../util/builtins.js';
import { fieldsOf, fieldTexts, toolTextOf } from './fields.js';
import { LexBuilder } from './lex-build.js';
import { docStatsOf, type DocStats } from './model.js';
import type { FileList, IndexData, ToolRecord } from './store-format.js';
import { countTokens, toolDefinition } from './tokens.js';

type Fp = [number, number, number];
/** Per-tool term statistics and token counts, keyed by contract file and its fingerprint. */
export interface StatsCache {
  registryDir: string;
  files: Record<string, { fp: Fp; id: string; stats: DocStats; tok: number }>;
}

/**
 * A quick estimate of a definition's o200k tokens: ~4 characters per token for ASCII JSON (4.1 measured on
 * generated contracts, 3.5 on the shipped ones), one per other character (CJK is about one token per character).
 */
export function estimateTokens(c: ToolContract): number {
  const json = JSON.stringify(toolDefinition(c));
  // Characters past ASCII take 2-3 UTF-8 bytes (CJK 3): about (bytes - length) / 2 of them.
  const other = Math.round((Buffer.byteLength(json, 'utf8') - json.length) / 2);
  return Math.ceil((json.length - other) / 4) + other;
}

/** What the index needs of one tool beyond its contract: statistics, text hash, token count. */
interface Analysis {
  stats: DocStats;
  /** Hash of the searchable text (the dense-embedding cache key). */
  hash: string;
  /** Definition tokens: the last count, an estimate when `est`, or -1 (not counted yet). */
  tok: number;
  est: boolean;
}

/** The index's hash of a tool's searchable text (the dense-embedding cache key): 20 hex digits of SHA-1. */
export function textHash(c: ToolContract, texts: string[]): string {
  const crypto = nodeCrypto();
  const text = toolTextOf(c, texts);
  // crypto.hash (Node >= 20.12) is a one-shot digest, ~3x faster than a Hash object on short texts.
  const hex = crypto.hash ? crypto.hash('sha1', text, 'hex') : crypto.createHash('sha1').update(text).digest('hex');
  return hex.slice(0, 20);
}

export interface BuildOptions {
  registryDir: string;
  files: FileList;
  /** Count (or estimate) every tool's definition tokens. */
  tokens: boolean;
  /** Estimate token counts instead of counting them (the background verifier counts them). */
  estimate: boolean;
  /** The last build's statistics: reused for files whose fingerprint and id are unchanged. */
  old?: StatsCache;
  /** Where to write this build's statistics cache (none: not written). */
  statsFile?: string;
}

/** Builds the data of an index file from the valid contracts, in registry order. */
export class IndexBuilder {
  /** How many tools had their statistics computed (not reused). */
  rebuilt = 0;
  private readonly tools: ToolRecord[] = [];
  private readonly lex = new LexBuilder();
  private readonly hashes: string[] = [];
  private readonly est: number[] = [];
  private bytes = Buffer.allocUnsafe(1 << 20);
  private offsets = new Uint32Array(1024);
  private readonly fpOf = new Map<string, number>();
  /** Tools whose exact count waits for the tokenizer: [tool, definition JSON, statistics JSON]. */
  private readonly pending: [number, string, string][] = [];
  private stats: AtomicWriter | undefined;
  private sep = '';

  constructor(private readonly o: BuildOptions) {
    o.files.rel.forEach((r, i) => this.fpOf.set(r, i));
    if (o.statsFile) {
      sweepTemps(dirname(o.statsFile)); // left by an interrupted build
      try {
        this.stats = new AtomicWriter(o.statsFile);
        this.stats.write(`{"registryDir":${JSON.stringify(o.registryDir)},"files":{`);
      } catch {
        this.stats = undefined; // read-only project: still works, only slower
      }
    }
  }

  /** Add the next tool: its file (relative), the line of its id, its contract, and that as JSON. */
  add(rel: string, line: number | undefined, c: ToolContract, json: string): void {
    const fp = this.fp(rel);
    const prev = this.o.old?.files[rel];
    let a: Analysis;
    if (prev && prev.id === c.id && prev.fp[0] === fp[0] && prev.fp[1] === fp[1] && prev.fp[2] === fp[2])
      a = { stats: prev.stats, hash: textHash(c, fieldTexts(c)), tok: prev.tok, est: false };
    else {
      this.rebuilt++;
      const { texts, nameTerms } = fieldsOf(c); // once for the statistics and the hash
      a = { stats: docStatsOf(texts, nameTerms), hash: textHash(c, texts), tok: -1, est: false };
    }
    if (this.o.tokens && a.tok < 0) {
      if (this.o.estimate) a = { ...a, tok: estimateTokens(c), est: true };
      else this.pending.push([this.tools.length, JSON.stringify(toolDefinition(c)), JSON.stringify(a.stats)]);
    }
    this.fold(rel, line, c, json, a);
  }

  private fold(rel: string, line: number | undefined, c: ToolContract, json: string, a: Analysis): void {
    const doc = this.tools.length;
    if (a.est) this.est.push(doc);
    this.lex.add(a.stats);
    this.tools.push({ id: c.id, rel, line, tok: a.tok, ...(c.permissions ? { permissions: c.permissions } : {}) });
    this.hashes.push(a.hash);
    this.pack(json);
    // An estimate is not remembered as a count: the next build counts (or estimates) it again.
    if (this.pending[this.pending.length - 1]?.[0] !== doc) {
      this.statsEntry(rel, this.fp(rel), c.id, JSON.stringify(a.stats), a.est ? -1 : a.tok);
    }
  }

  private fp(rel: string): Fp {
    const i = this.fpOf.get(rel);
    const { files } = this.o;
    return i === undefined ? [0, 0, 0] : [files.mtime[i]!, files.size[i]!, files.ctime[i]!];
  }

  /** The index data, once every tool was added; `broken` are the broken files (relative). */
  async finish(broken: string[]): Promise<IndexData> {
    for (const [doc, definition, stats] of this.pending) {
      const t = this.tools[doc]!;
      t.tok = await countTokens(definition);
      this.statsEntry(t.rel, this.fp(t.rel), t.id, stats, t.tok);
    }
    try {
      this.stats?.write('}}');
      this.stats?.commit();
    } catch {
      /* read-only project */
    }
    const n = this.tools.length;
    return {
      registryDir: this.o.registryDir,
      files: this.o.files,
      broken,
      tools: this.tools,
      lex: this.lex.finish(),
      contracts: { bytes: this.bytes, offsets: this.offsets.subarray(0, n + 1) },
      hashes: this.hashes,
      est: this.est,
      drift: 0,
    };
  }

  /** Give up (a failed read): the statistics cache is not written. */
  abort(): void {
    this.stats?.abort();
    this.stats = undefined;
  }

  private statsEntry(rel: string, fp: Fp, id: string, stats: string, tok: number): void {
    if (!this.stats) return;
    try {
      this.stats.write(
        `${this.sep}${JSON.stringify(rel)}:{"fp":${JSON.stringify(fp)},"id":${JSON.stringify(id)},"stats":${stats},"tok":${tok}}`,
      );
      this.sep = ',';
    } catch {
      this.stats = undefined;
    }
  }

  /** Append one contract's JSON to the packed blobs. */
  private pack(json: string): void {
    const doc = this.tools.length - 1;
    const at = this.offsets[doc]!;
    const len = Buffer.byteLength(json, 'utf8');
    if (at + len > this.bytes.length) {
      const b = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, at + len));
      this.bytes.copy(b, 0, 0, at);
      this.bytes = b;
    }
    this.bytes.write(json, at, 'utf8');
    if (doc + 2 > this.offsets.length) {
      const o = new Uint32Array(this.offsets.length * 2);
      o.set(this.offsets);
      this.offsets = o;
    }
    this.offsets[doc + 1] = at + len;
  }
}
