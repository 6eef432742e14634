import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '../config.js';
import type { ToolContract, ToolEntry } from '../contract/types.js';
import type { Registry } from '../registry/registry.js';
import { discoverContractFiles, discoverUnder } from '../registry/discover.js';
import { writeFileAtomic } from '../util/fs.js';
import { cachePath } from '../util/state.js';
import { fieldsOf } from './fields.js';
import { docStatsOf, STATS_KEY, type DocStats, type LexicalIndex } from './model.js';
import { estimateTokens, textHash } from './build.js';
import { buildFull } from './full-build.js';
import { decodeIndex, encodeIndex, type FileList, type StoredIndex, type ToolRecord } from './store-format.js';
import { JOURNAL_MIN_FILES, changedFolders, verifyInBackground, writeJournal } from './journal.js';
import { updateLex } from './incremental.js';
import { definitionTokens } from './tokens.js';

/** The selection index of one registry, ready to rank. */
export interface SelectIndex {
  registryDir: string;
  tools: ToolRecord[];
  /** Broken contract files (absolute paths): selection skips them. */
  broken: string[];
  lex: LexicalIndex;
  contract(i: number): ToolContract;
  entry(i: number): ToolEntry;
  /** Hash of tool `i`'s searchable text (the dense-embedding cache key). */
  hash(i: number): string;
  /** How many tools had their term statistics recomputed (0 when warm). */
  rebuilt: number;
  /** The contract files (and fingerprints) the index was built from. */
  files: FileList;
  /**
   * Set when the index was trusted on its folders' fingerprints alone (a large registry): true
   * when the file of one of these tools changed in place since, so the caller must reopen it
   * with `full: true`.
   */
  stale?: (docs: number[]) => boolean;
}

const STATS_VERSION = STATS_KEY; // issue 10: analysis version lives with the model
const BIN = 'cache/select-index.bin';
// The index file's name, for fingerprints only: its content is read and written through cachePath (util/state.ts).
const binPath = (p: Project) => join(p.stateDir, BIN);
const statsPath = (p: Project) => cachePath(p.stateDir, `cache/select-stats-v${STATS_VERSION}.json`, true);
/** Store the index file (a read-only project, or a refused .toolbox/ entry: not stored, only slower). */
function storeIndex(project: Project, buf: Uint8Array): void {
  try {
    const file = cachePath(project.stateDir, BIN, true);
    if (file) writeFileAtomic(file, buf);
  } catch {
    /* read-only project: still works, only slower */
  }
}

/** The contract files of a registry (the registry's own discovery) with their fingerprints. */
function fingerprints(registryDir: string, dirs?: string[]): FileList {
  const rel = discoverContractFiles(registryDir, dirs);
  const out: FileList = {
    rel: [],
    mtime: new Float64Array(rel.length),
    size: new Float64Array(rel.length),
    ctime: new Float64Array(rel.length),
  };
  for (const r of rel) {
    try {
      const st = statSync(registryDir + '/' + r);
      const i = out.rel.length;
      out.rel.push(r);
      out.mtime[i] = st.mtimeMs;
      out.size[i] = st.size;
      out.ctime[i] = st.ctimeMs;
    } catch {
      /* vanished between listing and stat */
    }
  }
  return out;
}

// Pairs of file lists found equal (lists are never changed once made): a long-lived process compares
// the same two again on every request.
const equalLists = new WeakMap<FileList, FileList>();

function sameFiles(a: FileList, b: FileList): boolean {
  if (a === b || equalLists.get(a) === b) return true;
  if (!sameFilesNow(a, b)) return false;
  equalLists.set(a, b);
  return true;
}

function sameFilesNow(a: FileList, b: FileList): boolean {
  if (a.rel.length !== b.rel.length) return false;
  for (let i = 0; i < a.rel.length; i++) {
    if (a.rel[i] !== b.rel[i] || a.mtime[i] !== b.mtime[i] || a.size[i] !== b.size[i] || a.ctime[i] !== b.ctime[i])
      return false;
  }
  return true;
}

/**
 * The file list of a registry from the stored one and the journal: the files of unchanged folders
 * are taken as stored, changed folders are listed (new subfolders walked) and their files stat'ed.
 */
// A long-lived process (the daemon, serve) opens the same stored index again and again: when no
// folder changed, the refreshed list is the one computed last time for that stored list.
const unchangedRefresh = new WeakMap<FileList, { dirs: string; out: ReturnType<typeof refreshFiles> }>();

function refreshFiles(
  registryDir: string,
  old: FileList,
  j: { dirs: string[]; changed: boolean[] },
): { files: FileList; dirs: string[]; rewrite: boolean } {
  const same = !j.changed.includes(true);
  const key = same ? j.dirs.join('\0') : '';
  const hit = same ? unchangedRefresh.get(old) : undefined;
  if (hit && hit.dirs === key) return hit.out;
  const out = refreshFilesNow(registryDir, old, j);
  if (same) unchangedRefresh.set(old, { dirs: key, out });
  return out;
}

function refreshFilesNow(
  registryDir: string,
  old: FileList,
  j: { dirs: string[]; changed: boolean[] },
): { files: FileList; dirs: string[]; rewrite: boolean } {
  const known = new Set(j.dirs);
  const kept = new Set(j.dirs.filter((_, i) => !j.changed[i]));
  const folderOf = (r: string) => {
    const k = r.lastIndexOf('/');
    return k < 0 ? '' : r.slice(0, k);
  };
  const at = new Map<string, number>();
  const rels: string[] = [];
  old.rel.forEach((r, i) => {
    if (!kept.has(folderOf(r))) return;
    at.set(r, i);
    rels.push(r);
  });
  const dirs = [...kept];
  j.dirs.forEach((d, i) => {
    if (j.changed[i]) discoverUnder(registryDir, d, rels, dirs, (sub) => known.has(sub));
  });
  rels.sort();
  const files: FileList = {
    rel: [],
    mtime: new Float64Array(rels.length),
    size: new Float64Array(rels.length),
    ctime: new Float64Array(rels.length),
  };
  for (const r of rels) {
    const o = at.get(r);
    const st = o === undefined ? statSync(registryDir + '/' + r, { throwIfNoEntry: false }) : undefined;
    if (o === undefined && !st) continue; // vanished between listing and stat
    const n = files.rel.length;
    files.rel.push(r);
    files.mtime[n] = st ? st.mtimeMs : old.mtime[o!]!;
    files.size[n] = st ? st.size : old.size[o!]!;
    files.ctime[n] = st ? st.ctimeMs : old.ctime[o!]!;
  }
  const n = files.rel.length;
  files.mtime = files.mtime.subarray(0, n);
  files.size = files.size.subarray(0, n);
  files.ctime = files.ctime.subarray(0, n);
  return { files, dirs, rewrite: j.changed.includes(true) };
}

function fromStored(registryDir: string, buf: Uint8Array): { index: SelectIndex; s: StoredIndex } | undefined {
  const s = decodeIndex(buf);
  if (!s || s.registryDir !== registryDir) return undefined;
  const { tools } = s;
  const index: SelectIndex = {
    registryDir,
    tools,
    broken: s.broken.map((r) => join(registryDir, r)),
    lex: s.lex,
    rebuilt: 0,
    files: s.files,
    contract: s.contract,
    hash: s.hash,
    entry: (i) => ({ contract: s.contract(i), file: join(registryDir, tools[i]!.rel), line: tools[i]!.line }),
  };
  return { index, s };
}

/** The stored index of a project's registry as it is on disk (not brought up to date), if any. */
export function storedIndex(project: Project): StoredIndex | undefined {
  return readStored(project)?.s;
}

// Long-running callers (the MCP server) open the index per request: keep the last one decoded.
let memo: { file: string; mtimeMs: number; size: number; stored: { index: SelectIndex; s: StoredIndex } } | undefined;

function readStored(project: Project): { index: SelectIndex; s: StoredIndex } | undefined {
  try {
    const file = cachePath(project.stateDir, BIN);
    if (!file) return undefined;
    const st = statSync(file);
    if (memo && memo.file === file && memo.mtimeMs === st.mtimeMs && memo.size === st.size) return memo.stored;
    const stored = fromStored(project.registryDir, readFileSync(file));
    if (stored) memo = { file, mtimeMs: st.mtimeMs, size: st.size, stored };
    return stored;
  } catch {
    return undefined;
  }
}

/** Whether the files of tools `docs` still have the fingerprints the index was built from. */
const positions = new WeakMap<FileList, Map<string, number>>();

function positionsOf(files: FileList): Map<string, number> {
  let at = positions.get(files);
  if (!at) positions.set(files, (at = new Map(files.rel.map((r, i) => [r, i]))));
  return at;
}

/** Whether the file at `path` is still entry `i` of the list (same mtime, size and ctime). */
function sameAsListed(files: FileList, i: number | undefined, path: string): boolean {
  const st = statSync(path, { throwIfNoEntry: false });
  if (i === undefined || !st) return false;
  return st.mtimeMs === files.mtime[i] && st.size === files.size[i] && st.ctimeMs === files.ctime[i];
}

function unchangedFiles(registryDir: string, files: FileList, tools: ToolRecord[], docs: number[]): boolean {
  const at = positionsOf(files);
  return docs.every((d) => sameAsListed(files, at.get(tools[d]!.rel), join(registryDir, tools[d]!.rel)));
}

const counted = new WeakMap<ToolRecord[], boolean>();
/** Whether every tool's token count is known (per decoded list: it never changes). */
function allCounted(tools: ToolRecord[]): boolean {
  let c = counted.get(tools);
  if (c === undefined) counted.set(tools, (c = !tools.some((t) => t.tok < 0)));
  return c;
}

/** Options of openIndex. */
export interface OpenOptions {
  /** The registry, when the caller has already loaded it (no second load). */
  registry?: Registry;
  /** Every tool's definition token count must be known. */
  tokens?: boolean;
  /** false: build in memory, write nothing. */
  cache?: boolean;
  /** Stat every contract file even on a large registry; count estimated token counts exactly. */
  full?: boolean;
  /**
   * A registry with more contract files than this is "large" (folder journal, incremental updates,
   * estimated token counts). Default JOURNAL_MIN_FILES; a test seam, so that light tests reach that code.
   */
  largeAbove?: number;
}

/**
 * Open the selection index of a project's registry: from `.toolbox/cache/` when no contract file
 * changed since it was built, else updated (re-analysing only changed contracts). Small registries
 * stat every file; large ones stat their folders (journal.ts), and the returned index's
 * `stale(docs)` tells whether the files of some results changed in place since. With `tokens`,
 * every tool's definition token count is known afterwards.
 */
export async function openIndex(project: Project, opts: OpenOptions = {}): Promise<SelectIndex> {
  const useCache = opts.cache !== false;
  const dir = project.registryDir;
  const large = opts.largeAbove ?? JOURNAL_MIN_FILES;
  const stored = useCache ? readStored(project) : undefined;
  const tokensOk = (x: { index: SelectIndex; s: StoredIndex }) =>
    !opts.tokens || (allCounted(x.index.tools) && !(opts.full && x.s.est.length));
  // A large registry: one stat per folder; only the files of changed folders are listed and
  // stat'ed again. In-place edits elsewhere are the business of `stale` and the verifier.
  let trusted: ReturnType<typeof refreshFiles> | undefined;
  if (stored && tokensOk(stored) && !opts.full && stored.s.files.rel.length > large) {
    const j = changedFolders(project, binPath(project));
    if (j) trusted = refreshFiles(dir, stored.s.files, j);
  }
  const staleFor =
    (files: FileList, index: SelectIndex): SelectIndex['stale'] =>
    (docs) =>
      !unchangedFiles(dir, files, index.tools, docs);
  if (trusted) verifyInBackground(project);
  const dirs: string[] = trusted?.dirs ?? [];
  const files = trusted?.files ?? fingerprints(dir, dirs);
  if (stored && tokensOk(stored) && sameFiles(stored.s.files, files)) {
    // A journal whose folders all kept their mtimes is still exact: no need to rewrite it.
    if (files.rel.length > large && (!trusted || trusted.rewrite)) writeJournal(project, binPath(project), dirs);
    return trusted ? { ...stored.index, stale: staleFor(stored.s.files, stored.index) } : stored.index;
  }
  if (stored && files.rel.length > large) {
    const updated = await updateIndex(project, stored.s, files, Boolean(opts.tokens), Boolean(opts.full));
    if (updated) {
      writeJournal(project, binPath(project), dirs);
      return trusted ? { ...updated, stale: staleFor(files, updated) } : updated;
    }
  }
  // The registry (and with it ajv and the YAML parser) is loaded only when the index must be rebuilt.
  // A full build records every file's own fingerprint, not the journal's view of them.
  const allDirs: string[] = [];
  const all = trusted ? fingerprints(dir, allDirs) : files;
  // A large registry's first build estimates token counts (loading the tokenizer and counting
  // 10,000 definitions costs ~0.6 s); the background verifier counts them exactly right after.
  const estimate = Boolean(opts.tokens) && useCache && !opts.full && all.rel.length > large;
  const built = await rebuild(project, all, opts.registry, Boolean(opts.tokens), useCache, estimate);
  if (estimate) verifyInBackground(project);
  if (useCache && !opts.registry && all.rel.length > large)
    writeJournal(project, binPath(project), trusted ? allDirs : dirs);
  return built;
}

/** Files stat'ed between two yields of the resident check (~5-10 ms of work here). */
const CHECK_SLICE = 1000;

/**
 * The background check of a large registry in a resident process (the daemon): stat every contract
 * file against the stored index, as the verifier process's full open does first, yielding to the
 * event loop every CHECK_SLICE files so that a request arriving meanwhile waits for one slice, not the
 * whole pass. True when the stored index is exact (no file changed, no estimated token count); the
 * folder journal is then rewritten as that open rewrites it, with folders changed since the pass
 * began left untrusted. False: there is an update to make, which is the verifier process's work.
 */
export async function storedIndexExact(project: Project): Promise<boolean> {
  const began = Date.now();
  const stored = readStored(project);
  if (!stored || stored.s.est.length || !allCounted(stored.index.tools)) return false;
  const dir = project.registryDir;
  const dirs: string[] = [];
  const rel: string[] = [];
  // The registry's discovery one folder at a time (a yield between folders), in its order.
  for (const todo = ['']; todo.length; await new Promise((r) => setImmediate(r))) {
    const subs: string[] = [];
    discoverUnder(dir, todo.pop()!, rel, dirs, (sub) => (subs.push(sub), true));
    todo.push(...subs.reverse());
  }
  // Matched by name, not by position: sorting 50,000 names would block for tens of milliseconds.
  const f = stored.s.files;
  if (rel.length !== f.rel.length) return false;
  const at = positionsOf(f);
  for (let k = 0; k < rel.length; k++) {
    if (k && k % CHECK_SLICE === 0) await new Promise((r) => setImmediate(r));
    if (!sameAsListed(f, at.get(rel[k]!), dir + '/' + rel[k])) return false;
  }
  if (rel.length > JOURNAL_MIN_FILES) writeJournal(project, binPath(project), dirs, began);
  return true;
}

/** Incremental updates stop (a full rebuild follows) once this share of the tools changed. */
const MAX_DRIFT = 0.1;

/**
 * Bring a stored index up to date by re-reading only the contract files whose fingerprints
 * changed. Returns undefined when a full rebuild is the simpler truth: a broken or duplicate
 * contract is involved, tokens were never counted, or too much changed since the last full build.
 * Token counts of changed tools are estimated (gpt-tokenizer takes ~0.4 s to load) unless
 * `exact`; the background verifier counts them exactly.
 */
async function updateIndex(
  project: Project,
  s: StoredIndex,
  files: FileList,
  tokens: boolean,
  exact: boolean,
): Promise<SelectIndex | undefined> {
  const dir = project.registryDir;
  const oldAt = new Map(s.files.rel.map((r, i) => [r, i]));
  const oldDoc = new Map(s.tools.map((t, i) => [t.rel, i]));
  const now = new Set(files.rel);
  const removed = s.files.rel.filter((r) => !now.has(r));
  const changed = new Set<string>();
  files.rel.forEach((r, i) => {
    const j = oldAt.get(r);
    if (j === undefined || files.mtime[i] !== s.files.mtime[j] || files.size[i] !== s.files.size[j]) changed.add(r);
    else if (files.ctime[i] !== s.files.ctime[j]) changed.add(r);
  });
  const brokenOld = new Set(s.broken);
  if (s.drift + changed.size + removed.length > MAX_DRIFT * files.rel.length) return undefined;
  if ([...changed].some((r) => brokenOld.has(r))) return undefined;
  if (tokens && s.tools.some((t) => t.tok < 0)) return undefined;
  const { parseOne } = await import('../registry/registry.js');
  const parsed = new Map<string, { contract: ToolContract; line?: number }>();
  for (const r of changed) {
    const i = files.rel.indexOf(r);
    const st = { mtimeMs: files.mtime[i]!, size: files.size[i]!, ctimeMs: files.ctime[i]! };
    const f = parseOne(dir, join(dir, r), st);
    if (!f.contract) return undefined;
    parsed.set(r, { contract: f.contract, line: f.line });
  }
  // Ids must stay unique: a duplicate is reported by the full build's rules.
  const ids = new Set<string>();
  for (const t of s.tools) if (now.has(t.rel) && !changed.has(t.rel)) ids.add(t.id);
  for (const { contract } of parsed.values()) {
    if (ids.has(contract.id)) return undefined;
    ids.add(contract.id);
  }
  const remap = new Int32Array(s.tools.length).fill(-1);
  const fresh = new Map<number, DocStats>();
  const tools: ToolRecord[] = [];
  const blobs: (string | Uint8Array)[] = [];
  const hashes: string[] = [];
  const est: number[] = [];
  const wasEst = new Set(s.est);
  for (const r of files.rel) {
    const doc = tools.length;
    const p = parsed.get(r);
    const od = oldDoc.get(r);
    if (p) {
      const c = p.contract;
      const blob = JSON.stringify(c);
      let tok: number;
      if (exact) tok = await definitionTokens(c);
      else {
        // Scaled from the tool's last count, or ~4 bytes per token for a new tool.
        const prev = od === undefined ? -1 : s.tools[od]!.tok;
        tok = prev > 0 ? Math.round((prev * blob.length) / Math.max(1, s.blob(od!).length)) : estimateTokens(c);
        est.push(doc);
      }
      const { texts, nameTerms } = fieldsOf(c);
      fresh.set(doc, docStatsOf(texts, nameTerms));
      tools.push({ id: c.id, rel: r, line: p.line, tok, ...(c.permissions ? { permissions: c.permissions } : {}) });
      blobs.push(blob);
      hashes.push(textHash(c, texts));
    } else if (od !== undefined) {
      remap[od] = doc;
      let tok = s.tools[od]!.tok;
      if (wasEst.has(od)) {
        if (exact) tok = await definitionTokens(s.contract(od));
        else est.push(doc);
      }
      tools.push({ ...s.tools[od]!, tok });
      blobs.push(s.blob(od));
      hashes.push(s.hash(od));
    }
  }
  const lex = updateLex(s.lex, remap, fresh, tools.length);
  const broken = s.broken.filter((r) => now.has(r));
  const drift = s.drift + changed.size + removed.length;
  const buf = encodeIndex({ registryDir: dir, files, broken, tools, lex, contracts: blobs, hashes, est, drift });
  storeIndex(project, buf);
  const out = fromStored(dir, buf)!.index;
  return { ...out, rebuilt: fresh.size };
}

/** A full build (full-build.ts), written to the cache unless `useCache` is false. */
async function rebuild(
  project: Project,
  files: FileList,
  reg: Registry | undefined,
  tokens: boolean,
  useCache: boolean,
  estimate: boolean,
): Promise<SelectIndex> {
  const dir = project.registryDir;
  // A registry the caller loaded may be older than `files` (fingerprinted just now): an index built
  // from it is answered but never stored, or a later warm open would trust it for files it never read.
  const store = useCache && !reg;
  const { buf, rebuilt } = await buildFull(project, files, reg, {
    tokens,
    estimate,
    useCache,
    statsFile: useCache ? statsPath(project) : undefined,
    store,
    // The build the verifier follows (a large registry's first): the answer does not wait for the
    // registry cache (~15 MB with its id shards at 10,000 contracts); the verifier writes it from the index.
    registryCache: !estimate,
  });
  if (store) storeIndex(project, buf);
  return { ...fromStored(dir, buf)!.index, rebuilt };
}
