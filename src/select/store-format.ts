// The query-ready index on disk: one file, read in one go. Everything per tool or per term is
// columnar (typed arrays, or strings joined by '\n'), so that opening the index of 10,000 tools
// parses only a tiny JSON header; a contract is decoded only when it is among the results.
import type { Permissions, ToolContract } from '../contract/types.js';
import { STATS_KEY, type LexicalIndex } from './model.js';

// 06: issue 10's ranking constants; 07: token estimates, drift, blobs by offset. The last two
// characters are the analysis version (STATS_KEY): an index of terms analysed otherwise (e.g.
// before traditional Chinese was folded) is another format, built again.
const MAGIC = `TBXS07${String(STATS_KEY).padStart(2, '0')}`;

/** One tool as the index remembers it. */
export interface ToolRecord {
  id: string;
  /** Contract file, relative to the registry folder. */
  rel: string;
  line?: number;
  permissions?: Permissions | string[];
  /** o200k tokens of its definition; -1 when not counted yet. */
  tok: number;
}

/** Fingerprints of every contract file the index was built from, in discovery order. */
export interface FileList {
  rel: string[];
  mtime: Float64Array;
  size: Float64Array;
  ctime: Float64Array;
}

export interface IndexData {
  registryDir: string;
  files: FileList;
  /** Tools whose token count is an estimate (changed since the last exact count). */
  est: number[];
  /** Tools changed by incremental updates since the last full build (see incremental.ts). */
  drift: number;
  /** Broken contract files (relative). */
  broken: string[];
  tools: ToolRecord[];
  lex: LexicalIndex;
  /** Each tool's contract as JSON: one text each, or all of them packed in one buffer. */
  contracts: (string | Uint8Array)[] | PackedBlobs;
  /** Hash of each tool's searchable text (the dense-embedding cache key). */
  hashes: string[];
}

/** Texts one after the other: text `i` is bytes[offsets[i]..offsets[i + 1]). */
export interface PackedBlobs {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

export interface StoredIndex extends Omit<IndexData, 'contracts' | 'hashes'> {
  contract(i: number): ToolContract;
  /** Tool `i`'s contract as stored (JSON bytes), to carry over unchanged. */
  blob(i: number): Uint8Array;
  hash(i: number): string;
}

const align8 = (n: number) => (n + 7) & ~7;
const join = (xs: string[]) => xs.join('\n');
const split = (s: string) => (s === '' ? [] : s.split('\n'));

/** Serialise an index. */
export function encodeIndex(d: IndexData): Uint8Array {
  const { tools, lex } = d;
  const terms = [...lex.terms.keys()];
  const perms: Record<number, unknown> = {};
  tools.forEach((t, i) => {
    if (t.permissions) perms[i] = t.permissions;
  });
  const head = Buffer.from(
    JSON.stringify({
      registryDir: d.registryDir,
      broken: d.broken,
      est: d.est,
      drift: d.drift,
      avg: lex.avg,
      n: lex.n,
      perms,
      files: join(d.files.rel),
      ids: join(tools.map((t) => t.id)),
      h: join(d.hashes),
      terms: join(terms),
    }),
    'utf8',
  );
  const asBuffer = (c: Uint8Array) => Buffer.from(c.buffer, c.byteOffset, c.byteLength);
  let blobs: Buffer[];
  let offsets: Uint32Array;
  if (Array.isArray(d.contracts)) {
    blobs = d.contracts.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : asBuffer(c)));
    offsets = new Uint32Array(blobs.length + 1);
    blobs.forEach((b, i) => {
      offsets[i + 1] = offsets[i]! + b.length;
    });
  } else {
    offsets = d.contracts.offsets;
    blobs = [asBuffer(d.contracts.bytes.subarray(0, offsets[tools.length]))];
  }
  const idf = new Float64Array(terms.length);
  const off = new Uint32Array(terms.length);
  const cnt = new Uint32Array(terms.length);
  terms.forEach((term, i) => {
    const e = lex.terms.get(term)!;
    idf[i] = e.idf;
    off[i] = e.off;
    cnt[i] = e.n;
  });
  // Each tool's file as a number in the file list (a tool's file is always listed).
  const fileNo = new Map(d.files.rel.map((r, i) => [r, i]));
  const sections: ArrayBufferView[] = [
    d.files.mtime,
    d.files.size,
    d.files.ctime,
    idf,
    Uint32Array.from(tools, (t) => fileNo.get(t.rel) ?? 0),
    Int32Array.from(tools, (t) => t.tok),
    Uint32Array.from(tools, (t) => t.line ?? 0),
    off,
    cnt,
    lex.docs,
    lex.sat,
    offsets,
  ];
  const prefix = Buffer.alloc(24);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(head.length, 8);
  prefix.writeUInt32LE(lex.docs.length, 12);
  prefix.writeUInt32LE(tools.length, 16);
  prefix.writeUInt32LE(terms.length, 20);
  const parts: Buffer[] = [prefix, head];
  let pos = prefix.length + head.length;
  for (const s of sections) {
    const pad = align8(pos) - pos;
    if (pad) parts.push(Buffer.alloc(pad));
    parts.push(Buffer.from(s.buffer, s.byteOffset, s.byteLength));
    pos += pad + s.byteLength;
  }
  parts.push(...blobs);
  return Buffer.concat(parts);
}

type Ctor<T> = { new (b: ArrayBufferLike, o: number, l: number): T; BYTES_PER_ELEMENT: number };

/** Parse a file written by encodeIndex; undefined when it is not one (or of another version). */
export function decodeIndex(bytes: Uint8Array): StoredIndex | undefined {
  // Uint8Array in the signature: this file's types are reachable from the library's, which must
  // not need @types/node. Same memory, Buffer's readers.
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 24 || buf.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const headLen = buf.readUInt32LE(8);
  const postings = buf.readUInt32LE(12);
  const n = buf.readUInt32LE(16);
  const t = buf.readUInt32LE(20);
  const h = JSON.parse(buf.toString('utf8', 24, 24 + headLen)) as {
    registryDir: string;
    broken: string[];
    est: number[];
    drift: number;
    avg: number[];
    n: number;
    perms: Record<string, Permissions | string[]>;
    files: string;
    ids: string;
    h: string;
    terms: string;
  };
  let pos = 24 + headLen;
  // Typed arrays need aligned offsets; a pooled Buffer may start anywhere, so copy when it does.
  const view = <T>(C: Ctor<T>, len: number): T => {
    pos = align8(pos);
    const start = buf.byteOffset + pos;
    const bytes = len * C.BYTES_PER_ELEMENT;
    pos += bytes;
    return start % C.BYTES_PER_ELEMENT === 0
      ? new C(buf.buffer, start, len)
      : new C(buf.buffer.slice(start, start + bytes), 0, len);
  };
  const rel = split(h.files);
  const files: FileList = {
    rel,
    mtime: view(Float64Array, rel.length),
    size: view(Float64Array, rel.length),
    ctime: view(Float64Array, rel.length),
  };
  const idf = view(Float64Array, t);
  const fileOf = view(Uint32Array, n);
  const tok = view(Int32Array, n);
  const line = view(Uint32Array, n);
  const off = view(Uint32Array, t);
  const cnt = view(Uint32Array, t);
  const docs = view(Uint32Array, postings);
  const sat = view(Float32Array, postings);
  const offsets = view(Uint32Array, n + 1);
  const blobStart = pos;
  const termList = split(h.terms);
  const terms: LexicalIndex['terms'] = new Map();
  for (let i = 0; i < t; i++) terms.set(termList[i]!, { idf: idf[i]!, off: off[i]!, n: cnt[i]! });
  const ids = split(h.ids);
  const tools: ToolRecord[] = ids.map((id, i) => ({
    id,
    rel: rel[fileOf[i]!]!,
    tok: tok[i]!,
    ...(line[i] ? { line: line[i] } : {}),
    ...(h.perms[i] ? { permissions: h.perms[i] } : {}),
  }));
  // Text hashes are only needed for dense retrieval: split them on first use.
  let hashes: string[] | undefined;
  return {
    registryDir: h.registryDir,
    files,
    est: h.est,
    drift: h.drift,
    broken: h.broken,
    tools,
    lex: { n: h.n, avg: h.avg, terms, docs, sat },
    contract: (i) =>
      JSON.parse(buf.toString('utf8', blobStart + offsets[i]!, blobStart + offsets[i + 1]!)) as ToolContract,
    blob: (i) => buf.subarray(blobStart + offsets[i]!, blobStart + offsets[i + 1]!),
    hash: (i) => (hashes ??= split(h.h))[i]!,
  };
}
