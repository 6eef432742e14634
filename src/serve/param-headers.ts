// MCP 2026-07-28 Streamable HTTP: a tool parameter marked `x-mcp-header: Name` in the tool's
// inputSchema is mirrored by the client into an `Mcp-Param-Name` header, so a load balancer or WAF
// can route on it without reading the body. Whatever reads the body must then check that the two
// agree (else a proxy routing on the header and this server acting on the body disagree): missing,
// malformed or different values are refused with 400 and HeaderMismatch (-32020).

/** A parameter mirrored into a header: its path of `properties` keys from the schema root. */
export interface HeaderParam {
  path: string[];
  header: string;
  type?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The `x-mcp-header` annotations of an input schema that are statically reachable (through
 * `properties` only, as the specification requires); others are ignored.
 */
export function headerParams(schema: unknown, path: string[] = [], out: HeaderParam[] = []): HeaderParam[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props || typeof props !== 'object') return out;
  for (const [key, sub] of Object.entries(props)) {
    if (!sub || typeof sub !== 'object') continue;
    const s = sub as Record<string, unknown>;
    const header = s['x-mcp-header'];
    if (typeof header === 'string' && TOKEN.test(header))
      out.push({ path: [...path, key], header, ...(typeof s.type === 'string' ? { type: s.type } : {}) });
    headerParams(s, [...path, key], out);
  }
  return out;
}

/** A header value as the client encoded it: plain, or `=?base64?…?=` (undefined when that is not valid Base64). */
export function decodeHeader(v: string): string | undefined {
  const m = /^=\?base64\?(.*)\?=$/.exec(v);
  if (!m) return v;
  const b = m[1]!;
  if (b.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b)) return undefined;
  return Buffer.from(b, 'base64').toString('utf8');
}

function at(args: unknown, path: string[]): unknown {
  let v: unknown = args;
  for (const k of path) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Why the Mcp-Param-* headers do not match the call's arguments, or undefined when they do. */
export function paramHeaderMismatch(
  params: HeaderParam[],
  args: unknown,
  header: (name: string) => string | undefined,
  /** Whether a missing header is a mismatch (the client was listed the tool, so it knows to send it). */
  required = true,
): string | undefined {
  for (const p of params) {
    const name = `Mcp-Param-${p.header}`;
    const raw = header(name.toLowerCase());
    const value = at(args, p.path);
    if (value === undefined || value === null) {
      if (raw !== undefined) return `${name} is sent but the argument ${p.path.join('.')} is absent`;
      continue;
    }
    if (raw === undefined) {
      if (required) return `${name} is missing: the argument ${p.path.join('.')} is in the body`;
      continue;
    }
    const decoded = decodeHeader(raw.trim());
    if (decoded === undefined) return `${name} is not valid Base64`;
    const same =
      typeof value === 'number'
        ? decoded.trim() !== '' && Number(decoded) === value
        : typeof value === 'boolean'
          ? decoded === String(value)
          : decoded === String(value);
    if (!same) return `${name} does not match the argument ${p.path.join('.')}`;
  }
  return undefined;
}
