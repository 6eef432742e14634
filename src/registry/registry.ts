import { statSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import type { Project } from '../config.js';
import type { Diagnostic } from '../contract/diagnostic.js';
import type { ToolEntry } from '../contract/types.js';
import { MAX_CONTRACT_BYTES, parseContract } from '../contract/parse.js';
import { ExitCode, ToolboxError, closest } from '../errors.js';
import { readProjectFile } from '../util/project-file.js';
import { discoverContractFiles } from './discover.js';
import { readContractFile } from './read.js';
import {
  CacheWriter,
  hasIdIndex,
  readCache,
  readIdEntry,
  writeCache,
  type CachedFile,
  type RegistryCache,
} from './cache.js';

/** A file that could not be turned into a tool (see `toolbox validate` for details). */
export interface BrokenFile {
  file: string;
  diagnostics: Diagnostic[];
}

/** Every valid tool of a registry, plus the files that are broken. Never executes anything. */
export interface Registry {
  project: Project;
  entries: ToolEntry[];
  byId: Map<string, ToolEntry>;
  broken: BrokenFile[];
  /** How many contract files were re-parsed (0 on a fully warm cache). */
  parsed: number;
}

/** What identifies a version of a file: a plain shape, so the public types need no @types/node. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ctimeMs: number;
}
const fingerprint = (st: FileStamp) => ({ mtimeMs: st.mtimeMs, size: st.size, ctimeMs: st.ctimeMs });
const same = (c: CachedFile, st: FileStamp) =>
  c.mtimeMs === st.mtimeMs && c.size === st.size && c.ctimeMs === st.ctimeMs;

/** Parse and check one contract file of `registryDir` (what a cache entry remembers of it). */
export function parseOne(registryDir: string, abs: string, st: FileStamp): CachedFile {
  const bytes = readContractFile(registryDir, abs);
  if (!(bytes instanceof Uint8Array)) return { ...fingerprint(st), diagnostics: [bytes] };
  const parsed = parseContract(abs, bytes);
  const line = parsed.contract ? parsed.locate(['id']).line : undefined;
  return { ...fingerprint(st), contract: parsed.contract, line, diagnostics: parsed.diagnostics };
}

/**
 * `join(dir, rel)` for the relative paths of a listing (discoverContractFiles: '/'-separated, no '.'
 * or '..' parts), as one concatenation: path.join normalises the whole path, once per contract file.
 */
export function joiner(dir: string): (rel: string) => string {
  if (sep !== '/') return (rel) => join(dir, rel);
  const prefix = join(dir, '_').slice(0, -1);
  return (rel) => prefix + rel;
}

/** Where loadRegistry and scanRegistry find the contract files. */
export interface ScanOptions {
  cache?: boolean;
  /** The contract files (sorted, relative) with their fingerprints, when the caller has just listed them. */
  listing?: { rel: string[]; stamp(i: number): FileStamp };
  /**
   * false: a scan that finds no registry cache writes none (select's first build of a large registry
   * leaves it to the background verifier, which writes it from the index: src/select/registry-cache.ts).
   */
  writeCache?: boolean;
}

/**
 * Read every contract file of a registry in order and hand each to `visit` (with its contract as
 * JSON on demand, made once), re-parsing only files whose size/mtime changed since the cache in `.toolbox/cache/`.
 * Without a previous cache, the new one is written as files are read, so nothing of a file has to
 * be kept once `visit` returns. Returns how many files were parsed.
 */
export function scanRegistry(
  project: Project,
  opts: ScanOptions,
  visit: (rel: string, f: CachedFile, contractJson: () => string | undefined) => void,
): number {
  const useCache = opts.cache !== false;
  const prev: RegistryCache | undefined = useCache ? readCache(project) : undefined;
  // No previous cache: stream the new one. Else keep the entries and write only when something changed.
  const writer = useCache && !prev && opts.writeCache !== false ? new CacheWriter(project) : undefined;
  const files: Record<string, CachedFile> = {};
  let parsed: number;
  try {
    parsed = scanFiles();
  } catch (e) {
    writer?.abort(); // no temp files left behind
    throw e;
  }
  if (writer) writer.commit();
  else if (prev && (parsed > 0 || Object.keys(prev.files).some((k) => !(k in files)) || !hasIdIndex(project)))
    writeCache(project, { files });
  return parsed;

  function scanFiles(): number {
    let parsed = 0;
    const rels = opts.listing?.rel ?? discoverContractFiles(project.registryDir);
    const inRegistry = joiner(project.registryDir);
    for (let i = 0; i < rels.length; i++) {
      const rel = rels[i]!;
      const abs = inRegistry(rel);
      let st: FileStamp;
      try {
        st = opts.listing ? opts.listing.stamp(i) : statSync(abs);
      } catch {
        continue;
      }
      const old = prev?.files[rel];
      let f: CachedFile;
      if (old && same(old, st)) f = old;
      else {
        f = parseOne(project.registryDir, abs, st);
        parsed++;
      }
      let json: string | undefined;
      const jsonOf = () => (json ??= f.contract ? JSON.stringify(f.contract) : undefined);
      visit(rel, f, jsonOf);
      if (writer) writer.add(rel, f, jsonOf());
      else if (prev) files[rel] = f; // kept only to update that cache (never the whole registry for nothing)
    }
    return parsed;
  }
}

/**
 * Load the whole registry, re-parsing only files whose size/mtime changed since the cached
 * index in `.toolbox/cache/` (the cache is an optimisation: if it cannot be written, nothing fails).
 */
export function loadRegistry(project: Project, opts: ScanOptions = {}): Registry {
  const entries: ToolEntry[] = [];
  const byId = new Map<string, ToolEntry>();
  const broken: BrokenFile[] = [];
  const sort = new Assembler(project.registryDir);
  const parsed = scanRegistry(project, opts, (rel, f) => {
    const r = sort.add(rel, f);
    if ('diagnostics' in r) broken.push(r);
    else {
      entries.push(r);
      byId.set(r.contract.id, r);
    }
  });
  return { project, entries, byId, broken, parsed };
}

/**
 * Sorts a registry's files, in order, into tools and broken files: a file without a valid contract
 * is broken, and so is a later file with an id already taken.
 */
export class Assembler {
  private readonly byId = new Map<string, { file: string; line?: number }>();
  private readonly inRegistry: (rel: string) => string;

  constructor(registryDir: string) {
    this.inRegistry = joiner(registryDir);
  }

  add(rel: string, f: CachedFile): ToolEntry | BrokenFile {
    const file = this.inRegistry(rel);
    if (!f.contract) return { file, diagnostics: f.diagnostics.map((d) => ({ ...d, file })) };
    return this.claim(rel, f.contract.id, f.line) ?? { contract: f.contract, file, line: f.line };
  }

  /** Take `id` for the file `rel` (its id on `line`): undefined, or the file is broken (a duplicate). */
  claim(rel: string, id: string, line: number | undefined): BrokenFile | undefined {
    const file = this.inRegistry(rel);
    const dup = this.byId.get(id);
    if (dup)
      return {
        file,
        diagnostics: [
          {
            file,
            line: line ?? 1,
            column: 1,
            severity: 'error',
            rule: 'duplicate-id',
            message: `duplicate id '${id}': already defined in ${dup.file}:${dup.line ?? 1}`,
            path: 'id',
            hint: 'Tool ids must be unique across the registry; rename one.',
          },
        ],
      };
    this.byId.set(id, { file, line });
    return undefined;
  }
}

/**
 * Find one tool for `run`: from the id index in the cache (the contract as validated, stored as
 * JSON: no YAML parse) when its file has not changed since. Falls back to a full load when the
 * index is missing or stale. Throws unknown_tool (exit 2) with suggestions.
 */
export function findTool(project: Project, id: string): ToolEntry {
  const hit = readIdEntry(project, id);
  if (hit) {
    const abs = join(project.registryDir, hit.rel);
    const st = statSync(abs, { throwIfNoEntry: false });
    // Validated when it was indexed and unchanged since: the stored contract is the file's.
    if (st && st.mtimeMs === hit.mtimeMs && st.size === hit.size && st.ctimeMs === hit.ctimeMs)
      return { contract: hit.contract, file: abs, line: hit.line };
  }
  const reg = loadRegistry(project);
  const entry = reg.byId.get(id);
  if (entry) return entry;
  const brokenHere = reg.broken.find((b) => brokenFileId(project.registryDir, b.file) === id);
  if (brokenHere) {
    const d = brokenHere.diagnostics[0]!;
    // This error reaches a tool's caller (serve, the library, an agent): where and which rule, never
    // the file's own lines (a code frame is validate's, for the user at a terminal).
    throw new ToolboxError(
      'tool_contract_invalid',
      `tool '${id}' has an invalid contract: ${d.file}:${d.line}:${d.column}: ${d.rule}`,
      {
        terminal: `${d.message}${d.frame ? `\n${d.frame}` : ''}`,
        exitCode: ExitCode.registry,
        location: { file: d.file, line: d.line, column: d.column },
        hint: d.hint
          ? `${d.hint} \`toolbox validate\` lists every problem.`
          : 'Run `toolbox validate` for all problems.',
      },
    );
  }
  throw unknownTool(id, reg.byId.keys());
}

/**
 * The id a broken contract file was meant to have: its `id:` line when one can be read, else the
 * file name without extension. Only used to blame the right file when a tool cannot be found.
 */
function brokenFileId(registryDir: string, file: string): string {
  try {
    const head = readProjectFile(registryDir, file, { max: MAX_CONTRACT_BYTES })
      .subarray(0, 64 * 1024)
      .toString('utf8');
    const m = /^id:[ \t]*["']?([A-Za-z0-9_.-]+)/m.exec(head);
    if (m) return m[1]!;
  } catch {
    /* unreadable: fall back to the name */
  }
  return basename(file).replace(/\.ya?ml$/i, '');
}

export function unknownTool(id: string, ids: Iterable<string>): ToolboxError {
  const all = [...ids];
  const near = closest(id, all);
  return new ToolboxError(
    'unknown_tool',
    `Unknown tool '${id}'.${near.length ? ` Did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''}`,
    {
      exitCode: ExitCode.usage,
      hint: all.length
        ? 'Run `toolbox list` to see every tool id.'
        : 'The registry has no valid tools; run `toolbox validate`.',
      details: { suggestions: near },
    },
  );
}
