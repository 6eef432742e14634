// Arguments are caller input: their shape is checked before anything walks them recursively, so a
// deeply nested payload is a usage error (exit 2), not a stack overflow counted against the tool.
import { ExitCode, ToolboxError } from '../errors.js';
import { nestedDeeperThan } from '../util/json-depth.js';

/** Deepest nesting of arrays/objects accepted in a call's arguments. */
export const MAX_ARG_DEPTH = 64;

/** Throws `arguments_too_deep` (exit 2) past MAX_ARG_DEPTH; iterative, so it cannot overflow itself. */
export function checkArgShape(tool: string, args: unknown): void {
  if (nestedDeeperThan(args, MAX_ARG_DEPTH))
    throw new ToolboxError(
      'arguments_too_deep',
      `arguments of tool '${tool}' are nested more than ${MAX_ARG_DEPTH} levels deep`,
      { exitCode: ExitCode.usage, hint: 'Send flatter arguments.' },
    );
}
