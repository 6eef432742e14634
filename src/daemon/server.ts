// The resident daemon's socket server: one JSON line per message. A client sends its request,
// gets `ack` (or `nack` and takes the direct path), commits with `go`, and then receives the
// command's stdout/stderr and exit code. The command runs through the same `run(argv, io)` as the
// CLI, with an IO made of the client's env, cwd, terminal facts and streams.
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { IO } from '../io.js';
import type { ReaperState } from '../sandbox/reaper.js';
import { Limiter } from '../runtime/limiter.js';
import { Keep } from './keep.js';
import { commitsUpFront, PROTO, type DaemonPaths } from './paths.js';
import { checkRequest, type CallRequest } from './request.js';
import { Whom } from './caller.js';

/** How the daemon runs a command line (main.ts's `run`). */
export type Handler = (argv: string[], io: IO) => Promise<number>;

/** What a daemon serves and for how long. */
export interface DaemonOptions {
  paths: DaemonPaths;
  version: string;
  /** Stop after this long without a request in flight. */
  idleMs: number;
  handle: Handler;
  /** The daemon's own environment: whom it serves is judged against it (daemon/caller.ts). */
  env: NodeJS.ProcessEnv;
  /** `run` calls at once (more wait); past `maxQueued` waiting, new requests go direct. */
  maxConcurrent?: number;
  maxQueued?: number;
  /** Per-tool cap on `run` calls at once (the warm pool size). */
  perTool?: number;
  log(line: string): void;
  /** Tools in the project's select index (for status). */
  indexSize?: () => Promise<number | undefined>;
  /** Whether the reaper stands guard, and why not (for status). */
  reaper?: () => ReaperState;
}

/** What `toolbox daemon status` shows. */
export interface DaemonStatus {
  pid: number;
  version: string;
  project: string;
  socket: string;
  startedAt: string;
  uptimeMs: number;
  idleTimeoutMs: number;
  requests: number;
  active: number;
  runtimes: number;
  /** Tools in the select index (undefined when the registry cannot be read). */
  tools?: number;
  /** The reaper of sandboxes left by a killed daemon: on, or off with a code and why. */
  reaper?: ReaperState;
  /** Whom it serves: the python3 it resolves, the sandbox tier, the user's config folder, toolbox's settings set. */
  serves: ReturnType<Whom['describe']>;
  /** Callers served as the daemon runs (`same`), with their own program lookup (`own`), turned away by reason. */
  callers: { same: number; own: number; turnedAway: { code: string; count: number; reason: string }[] };
}

// Messages written in one tick go out in one write(2) (a select's output comes in a few pieces).
const send = (s: Socket, o: unknown) => {
  if (s.destroyed || !s.writable) return;
  if (!s.writableCorked) {
    s.cork();
    process.nextTick(() => s.uncork());
  }
  s.write(JSON.stringify(o) + '\n');
};

/** The resident daemon of one project. */
export class DaemonServer {
  private readonly server: Server;
  private readonly keep = new Keep(8);
  private readonly limiter: Limiter;
  private readonly inflight = new Set<AbortController>();
  private readonly started = Date.now();
  private served = 0;
  private readonly whom: Whom;
  private readonly verdicts = { same: 0, own: 0 };
  /** Turned-away callers by code: how many, and the last reason (names only, never values). */
  private readonly away = new Map<string, { count: number; reason: string }>();
  private idleTimer?: NodeJS.Timeout;
  private closing?: Promise<void>;
  private readonly after: (() => void)[] = [];
  /** Resolves when the daemon has stopped (idle, `stop` request, or close()). */
  readonly stopped: Promise<void>;
  private markStopped!: () => void;

  constructor(private readonly opts: DaemonOptions) {
    this.limiter = new Limiter(opts.maxConcurrent ?? 16, opts.maxQueued ?? 256, opts.perTool ?? 4);
    this.server = createServer((s) => this.connection(s));
    this.stopped = new Promise((r) => (this.markStopped = r));
    this.whom = new Whom(opts.env);
  }

  /** Listen on `at` (the socket path unless the caller binds elsewhere and renames it into place). */
  listen(at = this.opts.paths.socket): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(at, () => {
        this.server.off('error', reject);
        this.armIdle();
        resolve();
      });
    });
  }

  async status(): Promise<DaemonStatus> {
    const tools = await this.opts.indexSize?.().catch(() => undefined);
    return {
      pid: process.pid,
      version: this.opts.version,
      project: this.opts.paths.marker,
      socket: this.opts.paths.socket,
      startedAt: new Date(this.started).toISOString(),
      uptimeMs: Date.now() - this.started,
      idleTimeoutMs: this.opts.idleMs,
      requests: this.served,
      active: this.inflight.size,
      runtimes: this.keep.size,
      ...(tools === undefined ? {} : { tools }),
      ...(this.opts.reaper ? { reaper: this.opts.reaper() } : {}),
      serves: this.whom.describe(),
      callers: {
        ...this.verdicts,
        turnedAway: [...this.away].map(([code, a]) => ({ code, ...a })).sort((a, b) => b.count - a.count),
      },
    };
  }

  /** Stop listening, cancel calls in flight, release every worker. The socket file goes with the server. */
  close(why = 'stopped'): Promise<void> {
    this.closing ??= (async () => {
      this.opts.log(`stopping: ${why}`);
      clearTimeout(this.idleTimer);
      const closed = new Promise<void>((r) => this.server.close(() => r()));
      for (const ac of this.inflight) ac.abort();
      const until = Date.now() + 5000;
      while (this.inflight.size && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await this.keep.close();
      await closed;
      this.markStopped();
    })();
    return this.closing;
  }

  /**
   * Run `work` once the request in progress has been answered (its exit sent), never before: background
   * work (the index check) then delays at most the requests that arrive while it runs.
   */
  afterAnswer(work: () => void): void {
    this.after.push(work);
    if (this.inflight.size === 0) this.runAfter();
  }

  private runAfter(): void {
    if (!this.after.length) return;
    setImmediate(() => {
      for (const work of this.after.splice(0)) {
        try {
          work();
        } catch (e) {
          this.opts.log(`background work failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    });
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.inflight.size || this.closing) return;
    this.idleTimer = setTimeout(() => void this.close('idle timeout'), this.opts.idleMs);
  }

  private connection(s: Socket): void {
    s.setEncoding('utf8');
    let buf = '';
    let onMessage: (m: Record<string, unknown>) => void = (m) => this.first(s, m, (next) => (onMessage = next));
    s.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let m: unknown;
        try {
          m = JSON.parse(line);
        } catch {
          s.destroy();
          return;
        }
        if (m && typeof m === 'object') onMessage(m as Record<string, unknown>);
      }
    });
    s.on('error', () => s.destroy());
  }

  private first(s: Socket, m: Record<string, unknown>, next: (f: (m: Record<string, unknown>) => void) => void) {
    next(() => {}); // one request per connection
    if (m.op === 'status') return void this.status().then((st) => s.end(JSON.stringify({ t: 'status', ...st }) + '\n'));
    if (m.op === 'stop') {
      s.end(JSON.stringify({ t: 'stopping', pid: process.pid }) + '\n');
      return void this.close('stop requested');
    }
    const refused = this.closing
      ? { code: 'stopping', why: 'the daemon is stopping' }
      : this.limiter.queued >= this.limiter.maxQueued
        ? { code: 'busy', why: 'busy' }
        : checkRequest(m, { proto: PROTO, version: this.opts.version });
    const req = m as unknown as CallRequest;
    const verdict = refused ? undefined : this.whom.judge(req.env);
    const away = refused ?? (verdict?.serve === 'away' ? verdict : undefined);
    if (away) {
      const a = this.away.get(away.code) ?? { count: 0, reason: away.why };
      this.away.set(away.code, { count: a.count + 1, reason: away.why });
      return void s.end(JSON.stringify({ t: 'nack', reason: away.why, code: away.code }) + '\n');
    }
    // Each caller environment has its own pool (a Runtime with its warm workers): a tool always sees
    // the environment of the client that called it, and runs the programs that client's PATH names.
    const envKey = createHash('sha256')
      .update(JSON.stringify(Object.entries(req.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))
      .digest('hex');
    const serve = verdict?.serve === 'own' ? verdict : { serve: 'same' as const };
    this.verdicts[serve.serve]++;
    send(s, { t: 'ack', pid: process.pid, pool: envKey.slice(0, 8), ...serve });
    if (m.go === true && commitsUpFront(req.argv)) return this.execute(s, req, envKey, next);
    // Nothing else runs until the client commits: a client that gave up waiting for the ack never sees
    // its command run here as well as on its direct path.
    next((g) => {
      if (g.t === 'go') this.execute(s, req, envKey, next);
      else s.destroy();
    });
  }

  private execute(
    s: Socket,
    req: CallRequest,
    envKey: string,
    next: (f: (m: Record<string, unknown>) => void) => void,
  ): void {
    const ac = new AbortController();
    this.inflight.add(ac);
    clearTimeout(this.idleTimer);
    let stdinWaiter: ((d: string | undefined) => void) | undefined;
    next((m) => {
      if (m.t === 'cancel') ac.abort();
      else if (m.t === 'in' && stdinWaiter) stdinWaiter(typeof m.d === 'string' ? m.d : undefined);
    });
    s.on('close', () => ac.abort()); // the client went away: cancel its call
    const releases: (() => void)[] = [];
    const io: IO = {
      stdout: { write: (d: string) => (send(s, { t: 'o', d }), true), isTTY: req.out.tty, columns: req.out.columns },
      // No stderr width: a spinner needs a real terminal stream, which the daemon does not have.
      stderr: { write: (d: string) => (send(s, { t: 'e', d }), true), isTTY: req.err.tty },
      stdinIsTTY: req.stdinTTY,
      readStdin: () =>
        new Promise<string | undefined>((resolve) => {
          stdinWaiter = resolve;
          send(s, { t: 'in?' });
        }),
      env: req.env,
      cwd: req.cwd,
      signal: ac.signal,
      keep: (key, make) => {
        const h = this.keep.acquire(`${envKey}\0${key}`, make);
        releases.push(h.release);
        return h.value;
      },
    };
    const tool = req.argv[0] === 'run' ? req.argv[1] : undefined;
    const work = () => this.opts.handle(req.argv, io);
    const p = tool === undefined ? work() : this.limiter.run(work, ac.signal, { tool });
    p.then(
      (code) => code,
      (e: unknown) => {
        this.opts.log(`request failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        // Only the limiter throws here (cancelled while queued); run() itself never throws.
        return ac.signal.aborted ? 130 : 70;
      },
    )
      .then((code) => {
        this.served++;
        send(s, { t: 'exit', code });
        s.end();
      })
      .finally(() => {
        for (const r of releases) r();
        this.inflight.delete(ac);
        this.armIdle();
        this.runAfter();
      })
      .catch(() => {});
  }
}
