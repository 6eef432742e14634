// Nesting depth of JSON-like values, measured without recursion: what is measured comes from
// outside (call arguments, an MCP server's replies, a contract's schema), and a recursive walk of
// a value nested thousands deep would itself end in "Maximum call stack size exceeded".

/**
 * Deepest nesting (JSON levels: `properties: { a: … }` is two) of a tool's schema. Every walker
 * of a schema (validation, flags, lint, serve's definitions, an MCP client's checks) stays far
 * from the stack's end below it; arguments themselves may nest 64 levels.
 */
export const MAX_SCHEMA_DEPTH = 128;

/**
 * The path (keys and indexes) to the first array or object found `max` levels below `value`, or
 * undefined when nothing is nested that deep. The value itself is level 0.
 */
export function pathDeeperThan(value: unknown, max: number): (string | number)[] | undefined {
  const stack: { v: unknown; d: number; path: (string | number)[] }[] = [{ v: value, d: 0, path: [] }];
  while (stack.length) {
    const { v, d, path } = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d >= max) return path;
    // A path is kept per open node only (siblings share the parent's array until they are popped).
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        if (v[i] && typeof v[i] === 'object') stack.push({ v: v[i], d: d + 1, path: [...path, i] });
    } else
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        if (x && typeof x === 'object') stack.push({ v: x, d: d + 1, path: [...path, k] });
  }
  return undefined;
}

/** Whether any array or object lies `max` or more levels below `value`. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>))
      if (x && typeof x === 'object') stack.push([x, d + 1]);
  }
  return false;
}
