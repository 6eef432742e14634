// A request whose params are malformed gets HTTP 400 and a JSON-RPC -32602 that says, in words,
// which parameter is wrong and what it should be: never the validator's raw dump. The params of the
// methods serve answers are checked here before the SDK sees them; anything the SDK's own
// validation still refuses has its dump rewritten the same way (readableIssues).

type Kind = 'string' | 'object' | 'integer' | 'number';
/** The params serve's methods take, by method: name → kind, required when marked with `!`. */
const PARAMS: Record<string, Record<string, Kind>> = {
  'tools/call': { 'name!': 'string', arguments: 'object', _meta: 'object', task: 'object' },
  'tools/list': { cursor: 'string', _meta: 'object' },
  'resources/list': { cursor: 'string', _meta: 'object' },
  'resources/read': { 'uri!': 'string', _meta: 'object' },
  'tasks/get': { 'taskId!': 'string', _meta: 'object' },
  'tasks/cancel': { 'taskId!': 'string', _meta: 'object' },
  'tasks/update': { 'taskId!': 'string', _meta: 'object' },
};

const what = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

function fits(v: unknown, kind: Kind): boolean {
  if (kind === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
  if (kind === 'integer') return Number.isInteger(v);
  return typeof v === kind;
}

/** Why one JSON-RPC request's params are malformed, in words; undefined when they are fine (or not ours to check). */
export function paramsProblem(msg: unknown): string | undefined {
  const m = msg as { method?: unknown; params?: unknown } | undefined;
  if (typeof m?.method !== 'string') return undefined;
  const spec = PARAMS[m.method];
  if (!spec) return undefined;
  if (m.params !== undefined && !fits(m.params, 'object'))
    return `${m.method}: "params" must be an object, not ${what(m.params)}`;
  const params = (m.params ?? {}) as Record<string, unknown>;
  for (const [key, kind] of Object.entries(spec)) {
    const name = key.replace(/!$/, '');
    const v = params[name];
    if (v === undefined) {
      if (key.endsWith('!')) return `${m.method}: "params.${name}" is missing (it must be ${article(kind)})`;
      continue;
    }
    if (!fits(v, kind)) return `${m.method}: "params.${name}" must be ${article(kind)}, not ${what(v)}`;
  }
  return undefined;
}

const article = (kind: Kind) => (kind === 'object' || kind === 'integer' ? `an ${kind}` : `a ${kind}`);

interface Issue {
  path?: (string | number)[];
  message?: string;
}

/**
 * A validator's dump inside an error message (`Invalid tools/call request: [ { "path": … } ]`, or
 * the bare array) in words: `params.arguments: Invalid input: expected record, received array`.
 * Undefined when the message holds no dump.
 */
export function readableIssues(message: string): string | undefined {
  const at = message.indexOf('[');
  if (at < 0) return undefined;
  let issues: Issue[];
  try {
    issues = JSON.parse(message.slice(at)) as Issue[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || !issues.length || typeof issues[0]?.message !== 'string') return undefined;
  const head = message.slice(0, at).trim().replace(/:$/, '');
  const parts = issues.slice(0, 5).map((i) => `${(i.path ?? []).join('.') || 'request'}: ${i.message ?? 'invalid'}`);
  return `${head ? `${head}: ` : 'Invalid params: '}${parts.join('; ')}`;
}

/**
 * A JSON answer whose error carries a validator's dump, rewritten: the dump in words, -32602, and
 * HTTP 400 (a parameter error). Any other answer (an event stream, a result) passes unchanged.
 */
export async function readableResponse(r: Response): Promise<Response> {
  if (!(r.headers.get('content-type') ?? '').includes('application/json')) return r;
  const text = await r.text();
  let body: { error?: { code?: number; message?: unknown } } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  const message = body?.error?.message;
  const words = typeof message === 'string' ? readableIssues(message) : undefined;
  if (!body?.error || words === undefined) return new Response(text, { status: r.status, headers: r.headers });
  body.error = { ...body.error, code: -32602, message: words };
  const headers = new Headers(r.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: 400, headers });
}
