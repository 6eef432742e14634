/**
 * The file side of `import mcp`: one contract per runnable server tool, never over a person's
 * edit (unless force), never on another contract's id; tools that vanished upstream are removed
 * (untouched files) or flagged (edited ones).
 */
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ToolContract, ToolEntry } from '../contract/types.js';
import { writeFileAtomic } from '../util/fs.js';
import { readProjectTextIfAny } from '../util/project-file.js';
import { contractFor, fileState, renderContractFile, toSnakeId, type ListedTool } from './contract-file.js';

/**
 * What happened to one tool: new file, refreshed file, nothing to do, a person's edit kept or
 * overwritten, an id conflict, not imported because it cannot run here (skipped), gone upstream
 * and its file removed (removed) or kept because a person edited it (vanished).
 */
export type ImportStatus =
  'written' | 'updated' | 'unchanged' | 'kept' | 'overwritten' | 'conflict' | 'skipped' | 'removed' | 'vanished';

export const STATUSES: ImportStatus[] = [
  'written',
  'updated',
  'unchanged',
  'kept',
  'overwritten',
  'conflict',
  'skipped',
  'removed',
  'vanished',
];

export interface ImportedTool {
  id: string;
  tool: string;
  file: string;
  status: ImportStatus;
  note?: string;
}

/** What the writer needs to know about one server's import. */
export interface WritePlan {
  dir: string;
  prefix: string;
  provider: string;
  /** loader_config without `tool`. */
  loaderBase: Record<string, unknown>;
  sandbox?: ToolContract['sandbox'];
  requires?: ToolContract['requires'];
  force: boolean;
  /** The registry as it was before this import. */
  existing: Map<string, ToolEntry>;
  /** Same server as an earlier import (same command, package or URL). */
  sameServer(cfg: Record<string, unknown>): boolean;
}

// A contract an earlier import wrote, in the registry: read only as a regular file in its own folder.
const readOrUndefined = (file: string): string | undefined => readProjectTextIfAny(dirname(file), file);

/**
 * Why a tool cannot run as a toolbox contract, or undefined: destructive tools of a stdio server
 * write host files, and the sandbox shows every host path read-only, so each call would fail.
 * (Task-augmented tools run: the contract keeps `mcp.task`, and the loader follows the task.)
 */
export function cannotRun(t: ListedTool, stdio: boolean): string | undefined {
  const a = t.annotations;
  if (stdio && a?.readOnlyHint === false && a.destructiveHint !== false)
    return 'writes host files (destructiveHint), but the sandbox binds every host path read-only: each call would fail';
  return undefined;
}

/** What one server's write did: a row per tool, and the contracts toolbox now stands behind (for toolbox.lock). */
export interface WriteResult {
  tools: ImportedTool[];
  locked: { entry: ToolEntry; tool: ListedTool }[];
}

/** Write (or keep) one contract per tool and settle the tools that are gone. */
export function writeContracts(tools: ListedTool[], plan: WritePlan, stdio: boolean): WriteResult {
  const seen = new Set<string>();
  const out: ImportedTool[] = [];
  const locked: WriteResult['locked'] = [];
  const files = new Set<string>();
  for (const t of tools) {
    let id = toSnakeId(plan.prefix, t.name);
    for (let n = 2; seen.has(id); n++) id = `${toSnakeId(plan.prefix, t.name).slice(0, 60)}_${n}`;
    seen.add(id);
    const file = join(plan.dir, `${id}.yaml`);
    const why = cannotRun(t, stdio);
    if (why) {
      out.push({ id, tool: t.name, file, status: 'skipped', note: why });
      continue;
    }
    files.add(file);
    const other = plan.existing.get(id);
    if (other && resolve(other.file) !== file) {
      out.push({
        id,
        tool: t.name,
        file: other.file,
        status: 'conflict',
        note: `id already used by ${other.file}; use --prefix`,
      });
      continue;
    }
    const contract = contractFor(t, {
      id,
      provider: plan.provider,
      loaderConfig: { ...plan.loaderBase, tool: t.name },
      sandbox: plan.sandbox,
      requires: plan.requires,
    });
    const text = renderContractFile(contract, `MCP server '${plan.provider}'`);
    const state = fileState(readOrUndefined(file), text);
    let status: ImportStatus;
    if (state === 'same') status = 'unchanged';
    else if (state === 'edited' && !plan.force) status = 'kept';
    else status = state === 'missing' ? 'written' : state === 'edited' ? 'overwritten' : 'updated';
    if (status === 'written' || status === 'updated' || status === 'overwritten') writeFileAtomic(file, text);
    if (status !== 'kept') locked.push({ entry: { contract, file }, tool: t });
    out.push({
      id,
      tool: t.name,
      file,
      status,
      ...(status === 'kept' ? { note: 'edited by hand; --force overwrites' } : {}),
    });
  }
  // Contracts an earlier import of this server wrote into this folder whose tool is gone (or now
  // skipped). A contract for a tool still offered (say, imported under another prefix) is left alone.
  const offered = new Set(out.filter((o) => o.status !== 'skipped').map((o) => o.tool));
  for (const e of plan.existing.values()) {
    const file = resolve(e.file);
    const cfg = e.contract.loader_config;
    const tool = String(cfg.tool);
    if (e.contract.loader !== 'mcp' || files.has(file) || offered.has(tool)) continue;
    if (!file.startsWith(plan.dir + '/') || !plan.sameServer(cfg)) continue;
    const text = readOrUndefined(file);
    const untouched = text !== undefined && fileState(text, '') === 'stale';
    if (untouched || plan.force) rmSync(file, { force: true });
    const skipped = out.find((o) => o.status === 'skipped' && o.tool === tool);
    if (skipped)
      skipped.note = `${skipped.note}; ${untouched || plan.force ? 'its earlier contract was removed' : `its edited contract ${file} was kept`}`;
    else
      out.push({
        id: e.contract.id,
        tool,
        file,
        status: untouched || plan.force ? 'removed' : 'vanished',
        note:
          untouched || plan.force
            ? 'no longer offered by the server'
            : 'no longer offered by the server; edited by hand, so kept (--force removes)',
      });
  }
  return { tools: out, locked };
}
