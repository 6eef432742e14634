// What a caller's value may become in a command's argv. A value that starts with `-` would reach
// the program as an option (`git log --output=/etc/x`): refused unless the contract put a literal
// `--` before it or the parameter's schema constrains the value itself (pattern, enum, const,
// format). A NUL byte cannot be passed in argv at all. Both are the caller's errors (exit 2).
import type { JsonSchema } from '../../contract/types.js';
import { ExitCode, ToolboxError } from '../../errors.js';
import { lookup } from '../../contract/template.js';

const PARAM_AT_START = /^\{\{\s*([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/;
const ANY_PARAM = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

function paramSchema(schema: JsonSchema | undefined, path: string): JsonSchema | undefined {
  let s: JsonSchema | undefined = schema;
  for (const k of path.split('.')) {
    const props = s?.properties as Record<string, JsonSchema> | undefined;
    s = props && Object.hasOwn(props, k) ? props[k] : undefined;
  }
  return s;
}

const constrained = (s: JsonSchema | undefined) =>
  !!s && ['pattern', 'enum', 'const', 'format'].some((k) => (s as Record<string, unknown>)[k] !== undefined);

/** Throws `argument_option_injection` / `argument_nul_byte` (exit 2) for a value argv must not take. */
export function guardArgv(tool: string, argv: readonly string[], args: Record<string, unknown>, schema?: JsonSchema) {
  let afterDashes = false;
  for (const el of argv) {
    for (const m of el.matchAll(ANY_PARAM)) {
      const v = lookup(args, m[1]!);
      if (typeof v === 'string' && v.includes('\0'))
        throw new ToolboxError('argument_nul_byte', `argument '${m[1]}' of tool '${tool}' contains a NUL byte`, {
          exitCode: ExitCode.usage,
          hint: 'A command-line argument cannot hold NUL bytes; remove them.',
        });
    }
    const first = PARAM_AT_START.exec(el)?.[1];
    if (!afterDashes && first !== undefined) {
      const v = lookup(args, first);
      if (typeof v === 'string' && v.startsWith('-') && !constrained(paramSchema(schema, first)))
        throw new ToolboxError(
          'argument_option_injection',
          `argument '${first}' of tool '${tool}' starts with '-' and would reach the program as an option`,
          {
            exitCode: ExitCode.usage,
            hint: `Pass a value that does not start with '-'. (Contract authors: put a literal "--" before "{{${first}}}" in loader_config.argv, or constrain the parameter with pattern/enum.)`,
          },
        );
    }
    if (el === '--') afterDashes = true;
  }
}
