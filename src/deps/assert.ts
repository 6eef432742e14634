// PLACEHOLDER (being replaced by the deps implementation): signature only.
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';

/**
 * Check the tool's declared runtime dependencies (from the cache when it can) and throw a
 * ToolboxError with exit 6 (missing_dependencies) and the same message as `toolbox deps` when
 * any is missing. Called by the runtime before a tool is loaded.
 */
export async function assertDeps(_project: Project, _entry: ToolEntry): Promise<void> {
  return;
}
