import { mcpOutputSchema } from '../contract/mcp-tool.js';
import type { ToolContract } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { clientError } from './client-error.js';
import { checkOutput } from '../runtime/format.js';
import type { InvokeResult } from '../runtime/types.js';
import type { ResultLink } from './result-resources.js';

/** A tools/call result (the MCP CallToolResult shape). */
export interface CallResult {
  [k: string]: unknown;
  content: { type: string; [k: string]: unknown }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A successful call: the formatted text for the model, the raw object as structuredContent. A tool
 * that announces an outputSchema must return a conforming object (MCP: servers MUST; the SDK
 * client rejects anything else), so a mismatch is reported as a tool error naming the problem.
 */
export function okResult(r: InvokeResult, contract?: ToolContract, link?: ResultLink): CallResult {
  if (contract && mcpOutputSchema(contract)) {
    const problems = isPlainObject(r.result)
      ? checkOutput(contract, r.result)
      : [`result of '${contract.id}' is not an object, but its output_schema describes one`];
    if (problems.length) {
      return errorResult(
        new ToolboxError('output_schema_mismatch', problems[0]!, {
          exitCode: ExitCode.toolFailed,
          hint: "Fix the tool so its result matches the contract's output_schema, or correct the output_schema.",
        }),
        { structured: false },
      );
    }
  }
  if (r.truncated && link) return cappedResult(r, link, contract);
  // Content the tool or an upstream server built is passed through as it is.
  if (r.content) {
    return { content: r.content, ...(isPlainObject(r.result) ? { structuredContent: r.result } : {}) };
  }
  if (!isPlainObject(r.result)) return { content: [{ type: 'text', text: r.text }] };
  // Structured results also go out as JSON text (MCP: SHOULD, for clients that ignore
  // structuredContent), after the contract's `format` rendering when it has one.
  const json = JSON.stringify(r.result);
  const content = contract?.format && r.text !== json ? [{ type: 'text', text: r.text }] : [];
  return { content: [...content, { type: 'text', text: json }], structuredContent: r.result };
}

/**
 * A result cut at the output cap: the cut text (with its marker) for the model, the full result as
 * a link to a resource of this server (result-resources.ts: no host path reaches the client), and
 * non-text blocks (images, audio) as they were. structuredContent only when an outputSchema requires
 * it: the whole point is a small result.
 */
function cappedResult(r: InvokeResult, link: ResultLink, contract?: ToolContract): CallResult {
  const media = (r.content ?? []).filter((b) => b.type === 'image' || b.type === 'audio');
  const needsStructured = contract && mcpOutputSchema(contract) && isPlainObject(r.result);
  const text = r.text.split(r.truncated!.file).join(link.uri);
  return {
    content: [{ type: 'text', text }, { ...link }, ...media],
    ...(needsStructured ? { structuredContent: r.result as Record<string, unknown> } : {}),
  };
}

/** Where an error result carries toolbox's error object besides structuredContent (always there). */
export const ERROR_META_KEY = 'toolbox/error';

/**
 * A failed call as a tool result (isError), not a protocol error: the model reads why and can
 * correct its arguments. `_meta["toolbox/error"]` carries toolbox's stable error code and exit
 * code, and so does structuredContent, except for a tool that announces an outputSchema: clients
 * (the SDK's among them) check any structuredContent against that schema, error or not.
 */
export function errorResult(e: unknown, opts: { structured?: boolean } = {}): CallResult {
  const err =
    e instanceof ToolboxError
      ? e
      : new ToolboxError('internal_error', `internal error: ${(e as Error)?.message ?? String(e)}`, { exitCode: 70 });
  // No host paths, tracebacks or shell hints for the client (src/serve/client-error.ts).
  const error = clientError(err);
  const text = `${error.message}${error.hint ? `\nhint: ${error.hint}` : ''}`;
  return {
    content: [{ type: 'text', text }],
    ...(opts.structured === false ? {} : { structuredContent: { error } }),
    _meta: { [ERROR_META_KEY]: error },
    isError: true,
  };
}

/** A bad request to one of serve's own tools (search_tools / call_tool). */
export function badRequest(message: string): CallResult {
  return errorResult(new ToolboxError('invalid_arguments', message, { exitCode: ExitCode.usage }));
}
