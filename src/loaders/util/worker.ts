import type { SandboxResult, SandboxSpec, SandboxTier } from '../../sandbox/types.js';
import type { SandboxProcess } from '../../sandbox/process-types.js';
import type { ToolEntry } from '../../contract/types.js';
import type { CallContext } from '../types.js';
import { cancelledError, limitError, processFailure, replyResult, tail, type RunnerReply } from './outcome.js';
import { relay } from './relay.js';

const RS = '\x1e';
const LOG_CAP = 64 * 1024;
/** Keep at least this share of RLIMIT_CPU free for the next call (or the largest call seen, if more). */
const CPU_HEADROOM = 0.2;

/** What a persistent runner needs: how to start it for a call's policy, and its hello line. */
export interface WorkerOptions {
  entry: ToolEntry;
  /** E.g. "python worker": used in messages. */
  what: string;
  spec(ctx: CallContext): Promise<Omit<SandboxSpec, 'stdin'>>;
  hello: Record<string, unknown>;
  start(spec: Omit<SandboxSpec, 'stdin'>): Promise<SandboxProcess>;
  /** The sandbox tier in force (the probe is cached by the sandbox module). */
  tier(): Promise<SandboxTier>;
}

type Event = { reply: RunnerReply } | { exit: SandboxResult };

/**
 * RLIMIT_CPU counts a worker's whole life: whether a worker that has used `used` CPU seconds must be
 * replaced before the next call, so that call cannot push it over `cpuLimit`. Keeps room for the
 * largest call seen so far (`maxCallCpu`), and at least CPU_HEADROOM of the limit.
 */
export function needsFreshWorker(used: number, maxCallCpu: number, cpuLimit: number): boolean {
  return used + Math.max(maxCallCpu, CPU_HEADROOM * cpuLimit) > cpuLimit;
}

/**
 * One persistent sandboxed runner per loaded tool, speaking JSON lines: requests on its stdin,
 * replies on stdout prefixed with \x1e (other stdout lines are tool noise and become logs).
 * Calls are serialised; a timeout, an abort or an oversized reply kills the worker, and a dead
 * worker is started again on the next call. The module is imported once per worker life.
 */
export class Worker {
  private proc?: SandboxProcess;
  private key = '';
  private cpu = 0;
  /** The most CPU seconds one call has used so far. */
  private maxCallCpu = 0;
  private events: Event[] = [];
  private wake?: () => void;
  private stderr = '';
  private queue: Promise<unknown> = Promise.resolve();
  private seq = 0;
  /** How many times a process was started (for tests and stats). */
  starts = 0;

  constructor(private readonly opts: WorkerOptions) {}

  call(
    args: Record<string, unknown>,
    ctx: CallContext,
  ): Promise<{ result: unknown; logs?: string; tier: SandboxResult['tier'] }> {
    const run = this.queue.then(() => this.callNow(args, ctx));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Kill the worker now; a call in flight fails ("killed"), queued calls would start a new one. */
  async dispose(): Promise<void> {
    this.proc?.kill(); // not stop(): the exit must still reach a call that is waiting for its reply
    await this.queue;
    await this.stop();
  }

  private async callNow(args: Record<string, unknown>, ctx: CallContext) {
    if (ctx.signal.aborted) throw cancelledError();
    const deadline = Date.now() + ctx.limits.timeoutMs;
    const spec = await this.opts.spec(ctx);
    // The per-call timeout is enforced here, so a call with another timeout reuses the worker.
    const key = JSON.stringify({ ...spec, signal: undefined, limits: { ...spec.limits, timeoutMs: 0 } });
    if (this.proc && (key !== this.key || needsFreshWorker(this.cpu, this.maxCallCpu, ctx.limits.cpuSeconds)))
      await this.stop();
    if (!this.proc) {
      await this.begin(spec, key);
      const hello = await this.next(deadline, ctx);
      if (!hello.ready) {
        await this.stop();
        replyResult({ ...hello, ok: false }, this.opts.entry, this.tierValue, hello.logs);
      }
      this.cpu = hello.cpu ?? 0;
    }
    const id = ++this.seq;
    this.stderr = '';
    this.callBytes = 0;
    this.proc!.stdin.write(JSON.stringify({ id, args }) + '\n');
    const sent: Promise<unknown>[] = [];
    for (;;) {
      const reply = await this.next(deadline, ctx);
      if (reply.id !== id) continue;
      if (reply.notify || reply.ask) {
        const notification = relay(reply, ctx, this.proc!);
        if (notification) sent.push(notification);
        continue;
      }
      if (reply.cpu !== undefined) {
        this.maxCallCpu = Math.max(this.maxCallCpu, reply.cpu - this.cpu);
        this.cpu = reply.cpu;
      }
      // The runner's per-call copy of the tool's prints; raw fd-level stderr has no call boundary.
      const logs = reply.logs || undefined;
      await Promise.all(sent);
      return {
        result: replyResult(reply, this.opts.entry, this.tierValue, logs, ctx.limits),
        logs,
        tier: this.tierValue,
      };
    }
  }

  private tierValue: SandboxTier = 'none';

  private async begin(spec: Omit<SandboxSpec, 'stdin'>, key: string): Promise<void> {
    this.tierValue = await this.opts.tier();
    const proc = await this.opts.start(spec);
    this.proc = proc;
    this.key = key;
    this.cpu = 0;
    this.events = [];
    this.stderr = '';
    this.starts++;
    let buf = '';
    let bytes = 0;
    const limits = spec.limits;
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => {
      buf += chunk;
      bytes += chunk.length;
      if (bytes > limits.outputBytes) return this.overflow(proc);
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        bytes = buf.length;
        if (this.proc !== proc) return; // a stopped worker's late output
        if (line.startsWith(RS)) {
          try {
            this.push({ reply: JSON.parse(line.slice(1)) as RunnerReply });
          } catch {
            this.addLog(line + '\n');
          }
        } else this.addLog(line + '\n');
      }
    });
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (chunk: string) => {
      this.addLog(chunk);
      this.callBytes += chunk.length;
      if (this.callBytes > limits.outputBytes) this.overflow(proc);
    });
    proc.stdin.on('error', () => undefined); // EPIPE when the worker died; the exit event explains why
    void proc.exited.then((res) => {
      this.tierValue = res.tier;
      // stop() forgets the process before killing it: only an unexpected exit is news.
      if (this.proc !== proc) return;
      this.proc = undefined;
      this.push({ exit: res });
    });
    proc.stdin.write(JSON.stringify(this.opts.hello) + '\n');
  }

  private overflowed?: SandboxProcess;
  /** stderr characters since the current call started: a flood kills the worker like a one-shot run. */
  private callBytes = 0;
  private overflow(proc: SandboxProcess): void {
    this.overflowed = proc;
    proc.kill();
  }

  private addLog(s: string): void {
    if (this.stderr.length < LOG_CAP) this.stderr += s;
  }

  private push(e: Event): void {
    this.events.push(e);
    this.wake?.();
  }

  /** The next reply; throws on exit, timeout or abort (killing the worker for the last two). */
  private async next(deadline: number, ctx: CallContext): Promise<RunnerReply> {
    for (;;) {
      const e = this.events.shift();
      if (e && 'reply' in e) return e.reply;
      if (e && 'exit' in e) {
        const res = e.exit;
        if (this.overflowed) {
          this.overflowed = undefined;
          throw limitError('output', ctx.limits, res.tier, tail(this.stderr, 4000));
        }
        throw processFailure({ ...res, stderr: this.stderr || res.stderr }, ctx.limits, `the ${this.opts.what}`);
      }
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const outcome = await new Promise<'event' | 'timeout' | 'abort'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
        onAbort = () => resolve('abort');
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        this.wake = () => resolve('event');
        if (ctx.signal.aborted) resolve('abort');
      }).finally(() => {
        this.wake = undefined;
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort!);
      });
      if (outcome === 'event') continue;
      const logs = this.stderr || undefined;
      await this.stop();
      if (outcome === 'abort') throw cancelledError();
      throw limitError('timeout', ctx.limits, this.tierValue, logs);
    }
  }

  private async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc) return;
    proc.kill();
    await proc.exited.catch(() => undefined);
    this.events = [];
  }
}
