// Running a sandboxed process to completion (output capped, timeout, abort), or starting a
// long-lived one. Resolves only when the whole process tree is gone.
import { ToolboxError } from '../errors.js';
import { classifyLimit, decodeExit } from './outcome.js';
import { startWrapped, waitGone, type Started } from './spawn.js';
import type { LimitHit, SandboxResult, SandboxSpec, SandboxTier } from './types.js';
import type { SandboxProcess } from './process-types.js';
import type { Tools } from './wrap.js';

/** After the wrapper exits, how long to wait for pipes held by stray processes before cutting them. */
const CLOSE_GRACE_MS = 1000;

/** Wait for the child's exit, tear the tree down, then give the pipes a moment to drain. */
function finish(
  s: Started,
  onExit: () => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; durationMs: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let exited: { code: number | null; signal: NodeJS.Signals | null; durationMs: number } | undefined;
    const streams = [
      s.child.stdout,
      s.child.stderr,
      s.resultFd !== undefined ? s.child.stdio[s.resultFd] : null,
    ].filter((x): x is NonNullable<typeof x> => !!x);
    let open = streams.length;
    let finishing = false;
    const done = () => {
      if (!exited || finishing) return;
      finishing = true;
      clearTimeout(grace);
      for (const st of streams) st.destroy();
      // Whatever we killed must really be gone before the caller hears the call is over.
      void waitGone(s.killed).then(() => {
        s.cleanup();
        resolve(exited!);
      });
    };
    let grace: NodeJS.Timeout | undefined;
    for (const st of streams)
      st.once('close', () => {
        if (--open === 0) done();
      });
    s.child.once('error', (err) => {
      s.killTree();
      s.cleanup();
      reject(
        new ToolboxError('sandbox_spawn_failed', `Could not start the sandbox (${s.tier}): ${err.message}`, {
          exitCode: 70,
          hint: 'Run `toolbox doctor` to see which sandbox works here.',
          cause: err,
        }),
      );
    });
    s.child.once('exit', (code, signal) => {
      exited = { code, signal, durationMs: performance.now() - t0 };
      // The wrapper is gone; on tier none its descendants may not be: kill them before waiting on pipes.
      s.killTree();
      onExit();
      if (open === 0) done();
      else grace = setTimeout(done, CLOSE_GRACE_MS);
    });
  });
}

/** Run one process to completion in the sandbox. */
export async function runWith(spec: SandboxSpec, tier: SandboxTier, tools: Tools): Promise<SandboxResult> {
  if (spec.signal?.aborted) return abortedResult(tier);
  const s = startWrapped(spec, tier, tools, spec.stdin !== undefined);
  const cap = spec.limits.outputBytes;
  const out: Buffer[] = [],
    err: Buffer[] = [],
    res: Buffer[] = [];
  let total = 0;
  let limit: LimitHit | undefined;
  let aborted = false;
  const stop = (why: LimitHit | 'abort') => {
    if (limit || aborted) return;
    if (why === 'abort') aborted = true;
    else limit = why;
    s.killTree();
  };
  const collect = (into: Buffer[]) => (chunk: Buffer) => {
    if (limit === 'output') return;
    const room = cap - total;
    if (chunk.length > room) {
      if (room > 0) into.push(chunk.subarray(0, room));
      total = cap;
      stop('output');
      return;
    }
    into.push(chunk);
    total += chunk.length;
  };
  s.child.stdout!.on('data', collect(out));
  s.child.stderr!.on('data', collect(err));
  if (s.resultFd !== undefined) (s.child.stdio[s.resultFd] as NodeJS.ReadableStream).on('data', collect(res));
  if (spec.stdin !== undefined) s.child.stdin!.end(spec.stdin);
  // setTimeout fires at once past 2^31-1 ms: clamp (24.8 days is as good as forever here).
  const timer = setTimeout(() => stop('timeout'), Math.min(spec.limits.timeoutMs, 2 ** 31 - 1));
  const onAbort = () => stop('abort');
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  let ended;
  try {
    ended = await finish(s, () => clearTimeout(timer));
  } finally {
    clearTimeout(timer);
    spec.signal?.removeEventListener('abort', onAbort);
  }
  const { exitCode, signal } = decodeExit(tier, ended.code, ended.signal);
  const stderr = Buffer.concat(err).toString('utf8');
  if (tier === 'bwrap' && exitCode === 1 && /^bwrap: /.test(stderr) && out.length === 0) {
    throw new ToolboxError('sandbox_failed', `The sandbox could not be set up: ${stderr.trim().split('\n')[0]}`, {
      exitCode: 70,
      hint: 'Check the paths bound into the sandbox (sandbox.paths) and run `toolbox doctor`.',
    });
  }
  if (!limit && !aborted)
    limit = classifyLimit({ signal, exitCode, stderr, durationMs: ended.durationMs, limits: spec.limits });
  return {
    exitCode,
    signal,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr,
    ...(spec.resultChannel ? { result: Buffer.concat(res).toString('utf8') } : {}),
    ...(limit ? { limit } : {}),
    timedOut: limit === 'timeout',
    durationMs: ended.durationMs,
    tier,
    workDir: s.workDir,
    ...(aborted ? { aborted } : {}),
    ...(s.warnings.length ? { warnings: s.warnings } : {}),
  };
}

function abortedResult(tier: SandboxTier): SandboxResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    durationMs: 0,
    tier,
    workDir: '',
    aborted: true,
  };
}

/**
 * Start a long-lived process. No wall-clock timeout and no output cap apply (the caller owns the
 * conversation and its per-call timeouts); CPU, memory, process and file limits do, for the
 * process's whole life.
 */
export function startWith(spec: Omit<SandboxSpec, 'stdin'>, tier: SandboxTier, tools: Tools): SandboxProcess {
  const s = startWrapped(spec, tier, tools, true);
  let aborted = false;
  const onAbort = () => {
    aborted = true;
    s.killTree();
  };
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  if (spec.signal?.aborted) onAbort();
  // The caller reads stdout/stderr; we only watch the exit. Pipes are destroyed after the grace.
  const exited = finish(s, () => spec.signal?.removeEventListener('abort', onAbort)).then((ended) => {
    const { exitCode, signal } = decodeExit(tier, ended.code, ended.signal);
    const limit = aborted
      ? undefined
      : classifyLimit({ signal, exitCode, stderr: '', durationMs: ended.durationMs, limits: spec.limits });
    const r: SandboxResult = {
      exitCode,
      signal,
      stdout: '',
      stderr: '',
      timedOut: false,
      durationMs: ended.durationMs,
      tier,
      workDir: s.workDir,
      ...(limit ? { limit } : {}),
      ...(aborted ? { aborted } : {}),
      ...(s.warnings.length ? { warnings: s.warnings } : {}),
    };
    return r;
  });
  exited.catch(() => {
    /* surfaced to whoever awaits `exited` */
  });
  return {
    stdin: s.child.stdin!,
    stdout: s.child.stdout!,
    stderr: s.child.stderr!,
    pid: s.child.pid,
    exited,
    kill: () => s.killTree(),
  };
}
