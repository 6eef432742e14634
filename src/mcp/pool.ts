import type { McpSession, McpTarget } from './session.js';

interface Pooled {
  refs: number;
  session?: McpSession;
  opening?: Promise<McpSession>;
}

// One connection per server per process: the 14 tools of one filesystem server share one child.
const pool = new Map<string, Pooled>();

/** The pool key of a target: the same command, arguments, environment and binds share a server. */
function keyOf(t: McpTarget): string {
  if (t.kind === 'http') return JSON.stringify(['http', t.project, t.url, t.headers, t.egress ?? '', t.protocol ?? '']);
  return JSON.stringify([
    'stdio',
    t.root,
    t.command,
    t.args,
    t.env,
    t.readOnlyPaths,
    t.network,
    t.egressSocket ?? '',
    t.code ?? '',
    t.protocol ?? '',
  ]);
}

/** Take a reference on the target's pooled server for a loaded tool (once per tool: `held` remembers). */
export function acquire(t: McpTarget, held: Set<string>): string {
  const key = keyOf(t);
  if (!held.has(key)) {
    held.add(key);
    const p = pool.get(key) ?? { refs: 0 };
    p.refs++;
    pool.set(key, p);
  }
  return key;
}

/** The open session for `key`, opening it (once, however many callers wait) when there is none or it died. */
export function pooledSession(key: string, open: () => Promise<McpSession>): Promise<McpSession> {
  const p = pool.get(key) ?? { refs: 0 };
  pool.set(key, p);
  if (p.session && !p.session.closed) return Promise.resolve(p.session);
  if (!p.opening) {
    p.opening = open().then(
      (s) => {
        p.session = s;
        p.opening = undefined;
        return s;
      },
      (e: unknown) => {
        p.opening = undefined;
        throw e;
      },
    );
  }
  return p.opening;
}

/** Drop a reference; the last one closes the server (and kills its process tree). */
export async function release(key: string): Promise<void> {
  const p = pool.get(key);
  if (!p) return;
  if (--p.refs > 0) return;
  pool.delete(key);
  const s = p.session ?? (await p.opening?.catch(() => undefined));
  await s?.close();
}

/** Close every pooled server (shutdown of a long-running process). */
export async function closeAllSessions(): Promise<void> {
  const all = [...pool.values()];
  pool.clear();
  await Promise.all(all.map(async (p) => (p.session ?? (await p.opening?.catch(() => undefined)))?.close()));
}

/** How many servers are open (for tests and `--verbose`). */
export function openSessionCount(): number {
  return [...pool.values()].filter((p) => p.session && !p.session.closed).length;
}
