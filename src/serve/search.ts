import type { ToolEntry } from '../contract/types.js';
import type { Registry } from '../registry/registry.js';
import type { Caller } from '../policy/permissions.js';

/** What search_tools asks the selector. */
export interface SearchRequest {
  registry: Registry;
  query: string;
  top: number;
  caller: Caller;
  /** The MCP session: earlier searches and calls inform this one, and it is recorded. */
  session?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/**
 * The selector behind `search_tools`: the same ranking as `toolbox select` (permission-filtered
 * for the caller, session-aware, dense retrieval when configured).
 */
export async function searchTools(req: SearchRequest): Promise<ToolEntry[]> {
  const { selectTools } = await import('../select/index.js');
  const sel = await selectTools(req.registry, req.query, {
    top: req.top,
    caller: req.caller,
    session: req.session,
    env: req.env,
    signal: req.signal,
  });
  return sel.results.map((r) => r.entry);
}
