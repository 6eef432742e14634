import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { lockEntry } from './compute.js';
import { hashValue } from './hash.js';
import { readLock, writeLock } from './file.js';
import type { LockFile, UpstreamRecord } from './types.js';

/** The parts of a tools/list entry that reach the model. */
export interface UpstreamTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

const FIELDS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** Per-field hashes of a server's tool definition. */
export function upstreamRecord(server: string, t: UpstreamTool): UpstreamRecord {
  const fields: Record<string, string> = {};
  for (const k of FIELDS) if (t[k] !== undefined) fields[k] = hashValue(t[k]);
  return { server, tool: t.name, fields };
}

/** One tool of a server compared with the lock: changed fields, new on the server, or gone from it. */
export interface UpstreamChange {
  tool: string;
  /** The toolbox id it was imported as (when the lock knows it). */
  id?: string;
  status: 'changed' | 'added' | 'removed';
  /** Fields that changed ("description", "inputSchema"). */
  fields: string[];
}

/**
 * What changed on the server since the lock (`import mcp --check`): a rewritten description is the
 * classic rug pull. Tools are matched by server name and tool name.
 */
export function compareUpstream(project: Project, server: string, tools: UpstreamTool[]): UpstreamChange[] {
  const lock = readLock(project) ?? { version: 1, tools: {} };
  const locked = new Map<string, { id: string; rec: UpstreamRecord }>();
  for (const [id, e] of Object.entries(lock.tools))
    if (e.upstream?.server === server) locked.set(e.upstream.tool, { id, rec: e.upstream });
  const out: UpstreamChange[] = [];
  for (const t of tools) {
    const was = locked.get(t.name);
    if (!was) {
      out.push({ tool: t.name, status: 'added', fields: [] });
      continue;
    }
    locked.delete(t.name);
    const now = upstreamRecord(server, t).fields;
    const fields = [...new Set([...Object.keys(now), ...Object.keys(was.rec.fields)])]
      .filter((k) => now[k] !== was.rec.fields[k])
      .sort();
    if (fields.length) out.push({ tool: t.name, id: was.id, status: 'changed', fields });
  }
  for (const [tool, { id }] of locked) out.push({ tool, id, status: 'removed', fields: [] });
  return out;
}

/**
 * After `import mcp` wrote contracts: record each imported tool in toolbox.lock (its entry as the
 * contract now is, plus the server's definition). Other tools' entries are left as they were.
 */
export function recordImported(
  project: Project,
  server: string,
  items: { entry: ToolEntry; tool: UpstreamTool }[],
): string {
  const lock: LockFile = readLock(project) ?? { version: 1, tools: {} };
  for (const { entry, tool } of items) {
    const prev = lock.tools[entry.contract.id];
    lock.tools[entry.contract.id] = {
      ...lockEntry(project, entry),
      ...(prev?.deps ? { deps: prev.deps } : {}),
      upstream: upstreamRecord(server, tool),
    };
  }
  return writeLock(project, lock);
}
