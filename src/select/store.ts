import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Project } from '../config.js';
import type { ToolContract, ToolEntry } from '../contract/types.js';
import type { Registry } from '../registry/registry.js';
import { discoverContractFiles } from '../registry/discover.js';
import { writeFileAtomic } from '../util/fs.js';
import { toolText } from './fields.js';
import { buildIndex, docStats, STATS_KEY, type DocStats, type LexicalIndex } from './model.js';
import { decodeIndex, encodeIndex, type FileList, type ToolRecord } from './store-format.js';
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
  /** Term statistics of tool `i` (for leave-one-out scoring); only when built in this process. */
  stats?: DocStats[];
  /** How many tools had their term statistics recomputed (0 when warm). */
  rebuilt: number;
  /** The contract files (and fingerprints) the index was built from. */
  files: FileList;
}

// Per-tool term statistics and token counts, keyed by contract file and its fingerprint: what a
// rebuild reuses so that only changed contracts are analysed again.
type Fp = [number, number, number];
interface StatsCache {
  registryDir: string;
  files: Record<string, { fp: Fp; id: string; stats: DocStats; tok: number }>;
}

const STATS_VERSION = STATS_KEY; // issue 10: analysis version lives with the model
const binPath = (p: Project) => join(p.stateDir, 'cache', 'select-index.bin');
const statsPath = (p: Project) => join(p.stateDir, 'cache', `select-stats-v${STATS_VERSION}.json`);

/** The contract files of a registry (the registry's own discovery) with their fingerprints. */
function fingerprints(registryDir: string): FileList {
  const rel = discoverContractFiles(registryDir);
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

function sameFiles(a: FileList, b: FileList): boolean {
  if (a.rel.length !== b.rel.length) return false;
  for (let i = 0; i < a.rel.length; i++) {
    if (a.rel[i] !== b.rel[i] || a.mtime[i] !== b.mtime[i] || a.size[i] !== b.size[i] || a.ctime[i] !== b.ctime[i])
      return false;
  }
  return true;
}

function fromStored(registryDir: string, buf: Buffer): SelectIndex | undefined {
  const s = decodeIndex(buf);
  if (!s || s.registryDir !== registryDir) return undefined;
  const { tools } = s;
  return {
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
}

// Long-running callers (the MCP server) open the index per request: keep the last one decoded.
let memo: { file: string; mtimeMs: number; size: number; index: SelectIndex } | undefined;

/**
 * Open the selection index of a project's registry: from `.toolbox/cache/` when no contract file
 * changed since it was built, else rebuilt (re-analysing only changed contracts). With `tokens`,
 * every tool's definition token count is known afterwards. `registry` avoids loading it twice when
 * the caller already has it; `cache: false` builds in memory and writes nothing.
 */
export async function openIndex(
  project: Project,
  opts: { registry?: Registry; tokens?: boolean; cache?: boolean } = {},
): Promise<SelectIndex> {
  const useCache = opts.cache !== false;
  const files = fingerprints(project.registryDir);
  if (useCache) {
    const file = binPath(project);
    try {
      const st = statSync(file);
      let index: SelectIndex | undefined;
      if (memo && memo.file === file && memo.mtimeMs === st.mtimeMs && memo.size === st.size) index = memo.index;
      else {
        index = fromStored(project.registryDir, readFileSync(file));
        if (index) memo = { file, mtimeMs: st.mtimeMs, size: st.size, index };
      }
      if (index && sameFiles(index.files, files) && !(opts.tokens && index.tools.some((t) => t.tok < 0))) return index;
    } catch {
      /* no usable index: build it */
    }
  }
  // The registry (and with it ajv and the YAML parser) is loaded only when the index must be rebuilt.
  const reg = opts.registry ?? (await import('../registry/registry.js')).loadRegistry(project, { cache: useCache });
  return rebuild(project, files, reg, Boolean(opts.tokens), useCache);
}

async function rebuild(
  project: Project,
  files: FileList,
  reg: Registry,
  tokens: boolean,
  useCache: boolean,
): Promise<SelectIndex> {
  const dir = project.registryDir;
  const fpOf = new Map<string, Fp>(files.rel.map((r, i) => [r, [files.mtime[i]!, files.size[i]!, files.ctime[i]!]]));
  let old: StatsCache | undefined;
  if (useCache) {
    try {
      old = JSON.parse(readFileSync(statsPath(project), 'utf8')) as StatsCache;
      if (old.registryDir !== dir) old = undefined;
    } catch {
      old = undefined;
    }
  }
  const next: StatsCache = { registryDir: dir, files: {} };
  const tools: ToolRecord[] = [];
  const stats: DocStats[] = [];
  const blobs: string[] = [];
  const hashes: string[] = [];
  let rebuilt = 0;
  for (const e of reg.entries) {
    const rel = relative(dir, e.file).split(sep).join('/');
    const fp = fpOf.get(rel) ?? [0, 0, 0];
    const prev = old?.files[rel];
    const fresh =
      prev && prev.id === e.contract.id && prev.fp[0] === fp[0] && prev.fp[1] === fp[1] && prev.fp[2] === fp[2];
    const s = fresh ? prev.stats : (rebuilt++, docStats(e.contract));
    let tok = fresh ? prev.tok : -1;
    if (tokens && tok < 0) tok = await definitionTokens(e.contract);
    next.files[rel] = { fp, id: e.contract.id, stats: s, tok };
    stats.push(s);
    const c = e.contract;
    tools.push({ id: c.id, rel, line: e.line, tok, ...(c.permissions ? { permissions: c.permissions } : {}) });
    hashes.push(createHash('sha1').update(toolText(c)).digest('hex').slice(0, 20));
    blobs.push(JSON.stringify(c));
  }
  const lex = buildIndex(stats);
  const broken = reg.broken.map((b) => relative(dir, b.file).split(sep).join('/'));
  if (useCache) {
    try {
      writeFileAtomic(statsPath(project), JSON.stringify(next));
      writeFileAtomic(
        binPath(project),
        encodeIndex({ registryDir: dir, files, broken, tools, lex, contracts: blobs, hashes }),
      );
    } catch {
      /* read-only project: still works, only slower */
    }
  }
  const entries = reg.entries;
  return {
    registryDir: dir,
    tools,
    broken: reg.broken.map((b) => b.file),
    lex,
    stats,
    rebuilt,
    files,
    contract: (i) => entries[i]!.contract,
    entry: (i) => entries[i]!,
    hash: (i) => hashes[i]!,
  };
}
