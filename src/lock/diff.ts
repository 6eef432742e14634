import { codeChanges } from './code.js';
import { canonicalJson } from './hash.js';
import type { Drift, DriftKind, LockEntry, LockFile } from './types.js';

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const show = (v: unknown) => (v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v));

/** Grants first (loudest), then what runs, deps, what the model sees, upstream, added/removed tools. */
export const KIND_ORDER: DriftKind[] = ['grant', 'runs', 'deps', 'model', 'upstream', 'tool'];

function mapDiff(
  tool: string,
  kind: DriftKind,
  prefix: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
  out: Drift[],
  values: boolean,
) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  for (const k of keys) {
    const b = before?.[k];
    const a = after?.[k];
    if (same(b, a)) continue;
    const field = `${prefix}.${k}`;
    const what =
      b === undefined ? 'added' : a === undefined ? 'removed' : values ? `${show(b)} → ${show(a)}` : 'changed';
    out.push({ tool, kind, field, before: b, after: a, message: `${tool}: ${values ? field : k} ${what}` });
  }
}

/**
 * Field-by-field differences of one tool. `upstream` is compared only when both sides have it
 * (a contract does not carry the server's definition; `import mcp --check` compares that).
 * `deps` only when `withDeps` (the runtime's check skips the dependency probe).
 */
export function diffEntry(tool: string, locked: LockEntry, now: LockEntry, opts: { withDeps?: boolean } = {}): Drift[] {
  const out: Drift[] = [];
  mapDiff(tool, 'grant', 'sandbox', locked.sandbox, now.sandbox, out, true);
  if (locked.runs.loader !== now.runs.loader)
    out.push({
      tool,
      kind: 'runs',
      field: 'runs.loader',
      before: locked.runs.loader,
      after: now.runs.loader,
      message: `${tool}: loader ${locked.runs.loader} → ${now.runs.loader}`,
    });
  if (locked.runs.loader_config !== now.runs.loader_config)
    out.push({ tool, kind: 'runs', field: 'runs.loader_config', message: `${tool}: loader_config changed` });
  if (!same(locked.runs.implementation, now.runs.implementation)) {
    const f = now.runs.implementation?.file ?? locked.runs.implementation?.file ?? 'implementation';
    // Name the files: a lock written before toolbox kept them per file can only say the code changed.
    const files =
      locked.runs.implementation && now.runs.implementation
        ? locked.runs.files
          ? codeChanges(locked.runs.files, now.runs.files)
          : ['toolbox.lock has no per-file hashes (an older toolbox wrote it)']
        : [];
    out.push({
      tool,
      kind: 'runs',
      field: 'runs.implementation',
      before: locked.runs.implementation?.sha256,
      after: now.runs.implementation?.sha256,
      ...(files.length ? { files } : {}),
      message: `${tool}: implementation ${f} ${now.runs.implementation ? (locked.runs.implementation ? 'changed' : 'added') : 'removed'}${files.length ? ` (${files.join(', ')})` : ''}`,
    });
  }
  mapDiff(tool, 'runs', 'requires', locked.requires, now.requires, out, true);
  if (opts.withDeps) mapDiff(tool, 'deps', 'deps', locked.deps, now.deps, out, true);
  mapDiff(tool, 'model', 'model', locked.model, now.model, out, false);
  if (locked.upstream && now.upstream)
    mapDiff(tool, 'upstream', 'upstream', locked.upstream.fields, now.upstream.fields, out, false);
  return out;
}

/** Every difference between a lock and the registry's current entries, grants first. */
export function diffLock(lock: LockFile, now: Record<string, LockEntry>, opts: { withDeps?: boolean } = {}): Drift[] {
  const out: Drift[] = [];
  for (const id of Object.keys(now).sort()) {
    const locked = lock.tools[id];
    if (!locked) out.push({ tool: id, kind: 'tool', field: 'tool', message: `${id}: new tool, not in toolbox.lock` });
    else out.push(...diffEntry(id, locked, now[id]!, opts));
  }
  for (const id of Object.keys(lock.tools).sort())
    if (!now[id])
      out.push({ tool: id, kind: 'tool', field: 'tool', message: `${id}: in toolbox.lock but gone from the registry` });
  return out.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
}
