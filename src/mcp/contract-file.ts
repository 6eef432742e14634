import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { JsonSchema, ToolContract, ToolIcon } from '../contract/types.js';

/** What one tool of a server looks like in tools/list (the parts toolbox uses). */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  icons?: ToolIcon[];
  /** 2025-11-25: whether the tool may, must or must not be called as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const HEADER = /^# toolbox-import: sha256=([0-9a-f]{64})\r?\n/;
const ID_MAX = 64;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** An MCP tool name as a toolbox id: snake_case, valid per the contract schema's id pattern. */
export function toSnakeId(prefix: string, name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  let id = `${prefix}${snake || 'tool'}`;
  if (!/^[A-Za-z_]/.test(id)) id = `_${id}`;
  return id.slice(0, ID_MAX);
}

/** MCP's default dialect since 2025-11-25: a tool schema without `$schema` is JSON Schema 2020-12. */
export const MCP_DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A server's schema as the contract keeps it: unchanged when it names its dialect. One without
 * `$schema` is 2020-12 by the MCP specification, and says so in the contract, unless it only makes
 * sense as draft-07 (`items` as a list, `definitions` refs), which older servers still send.
 */
function withDialect(schema: JsonSchema): JsonSchema {
  if (typeof schema.$schema === 'string') return schema;
  return looksDraft07(schema) ? schema : { $schema: MCP_DEFAULT_DIALECT, ...schema };
}

function looksDraft07(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(looksDraft07);
  if (!node || typeof node !== 'object') return false;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o.items) || 'additionalItems' in o || 'dependencies' in o) return true;
  if (typeof o.$ref === 'string' && o.$ref.startsWith('#/definitions/')) return true;
  return Object.values(o).some(looksDraft07);
}

/** The contract toolbox writes for one server tool. */
export function contractFor(
  tool: ListedTool,
  opts: {
    id: string;
    provider: string;
    loaderConfig: Record<string, unknown>;
    sandbox?: ToolContract['sandbox'];
    requires?: ToolContract['requires'];
  },
): ToolContract {
  // The schema is kept as the server gave it, $schema included: it names the dialect the runtime
  // validates with (contract/ajv.ts), so a 2020-12 schema (prefixItems, $defs, unevaluated*) is not
  // read as draft-07 and valid calls refused.
  const schema = withDialect(tool.inputSchema ?? { type: 'object' });
  const c: ToolContract = {
    id: opts.id,
    name: tool.title ?? tool.annotations?.title ?? tool.name,
    description: tool.description?.trim() || `Tool '${tool.name}' of the MCP server '${opts.provider}'.`,
    schema: Object.keys(schema).some((k) => k !== '$schema') ? schema : { type: 'object' },
    provider: opts.provider,
    loader: 'mcp',
    loader_config: opts.loaderConfig,
  };
  const title = tool.title ?? tool.annotations?.title;
  if (title) c.title = title;
  const hints = Object.fromEntries(
    HINTS.filter((k) => typeof tool.annotations?.[k] === 'boolean').map((k) => [k, tool.annotations![k]]),
  );
  if (Object.keys(hints).length) c.annotations = hints;
  // Only icons the contract schema accepts (https: or data:); a server's http: icon is dropped.
  const icons = (tool.icons ?? []).filter((i) => typeof i?.src === 'string' && /^(https:\/\/|data:)/.test(i.src));
  if (icons.length) c.icons = icons;
  if (tool.outputSchema && typeof tool.outputSchema === 'object') c.output_schema = withDialect(tool.outputSchema);
  // The server's execution.taskSupport, as the contract's mcp.task (serve shows it to clients again;
  // the loader calls a `required` tool as a task). An unknown value is not copied.
  const task = tool.execution?.taskSupport;
  if (task === 'forbidden' || task === 'optional' || task === 'required') c.mcp = { task };
  if (opts.sandbox && Object.keys(opts.sandbox).length) c.sandbox = opts.sandbox;
  if (opts.requires && Object.keys(opts.requires).length) c.requires = opts.requires;
  return c;
}

/**
 * The file text: a first line with the hash of the rest, so a later import can tell a file it
 * wrote (safe to update) from one a person has edited (kept unless --force).
 */
export function renderContractFile(c: ToolContract, source: string): string {
  const body = `# Imported from ${source} by \`toolbox import mcp\`. Edits are kept on re-import (--force overwrites).\n${stringify(c, { lineWidth: 0 })}`;
  return `# toolbox-import: sha256=${sha256(body)}\n${body}`;
}

/** What is on disk compared with what toolbox would write now. */
export type FileState = 'missing' | 'same' | 'stale' | 'edited';

/** Classify an existing file: written by toolbox and unchanged since ('same' / 'stale'), or edited by a person. */
export function fileState(existing: string | undefined, next: string): FileState {
  if (existing === undefined) return 'missing';
  const m = HEADER.exec(existing);
  if (!m) return 'edited';
  const body = existing.slice(m[0].length);
  if (sha256(body) !== m[1]) return 'edited';
  return existing === next ? 'same' : 'stale';
}
