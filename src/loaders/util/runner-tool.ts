import { sep } from 'node:path';
import { codePath } from '../../util/assets.js';
import { probeSandbox, runSandboxed, startSandboxed } from '../../sandbox/index.js';
import type { SandboxSpec } from '../../sandbox/types.js';
import type { CallContext, LoadContext, LoadedTool, ToolOutput } from '../types.js';
import { cancelledError, oneShotReply, replyResult } from './outcome.js';
import { Worker } from './worker.js';
import { WorkerPool } from './pool.js';

/** Warm workers per tool in long-running processes (runtime.pool_size). */
export const DEFAULT_POOL_SIZE = 4;

/** Folder of python_runner.py / node_runner.mjs (src/loaders/runners, and the same below dist/). */
export const RUNNERS_DIR = codePath('loaders', 'runners') + sep;

/** How to start one language's runner for one tool. */
export interface RunnerToolOptions {
  load: LoadContext;
  /** "python runner", "node runner": used in messages. */
  what: string;
  /** Resolved interpreter (absolute host path). */
  command: string;
  /** Interpreter arguments before the mode flag, e.g. ['-B', '<runners>/python_runner.py']. */
  args: string[];
  /** Variables the runner needs on top of the contract's allow-listed env. */
  env: Record<string, string>;
  /** Host paths toolbox chose for the runner: the runners, the interpreter's install. */
  readOnlyPaths: string[];
  /** Paths from the project: the tool's package or module folder, Node's walk, a venv (checked by the sandbox). */
  projectPaths: string[];
  /** What to import: { module, function } (the project root is added). */
  target: { module: string; function: string };
}

/**
 * A tool run by a runner program: one sandboxed process per call (CLI), or, in long-running
 * processes, one persistent worker per tool that imports the module once.
 */
export function runnerTool(o: RunnerToolOptions): LoadedTool {
  const { entry, project } = o.load;
  const request = { root: project.root, ...o.target };
  const spec = (ctx: CallContext, worker: boolean): Omit<SandboxSpec, 'stdin'> => ({
    command: o.command,
    args: worker ? [...o.args, '--worker'] : o.args,
    env: { ...o.env, ...ctx.env },
    readOnlyPaths: [...new Set([...o.readOnlyPaths, ...ctx.readOnlyPaths])],
    project: { root: project.root, paths: o.projectPaths, granted: ctx.granted, tool: entry.contract.id },
    network: ctx.network,
    ...(ctx.egress ? { egress: { socket: ctx.egress.socket, bridge: 'self' as const } } : {}),
    limits: ctx.limits,
    resultChannel: !worker,
  });

  if (o.load.longRunning) {
    // A bounded pool per tool: a slow call of this tool never makes the next one wait for it
    // (up to runtime.pool_size at once, default 4).
    const pool = new WorkerPool(
      project.config.runtime?.pool_size ?? DEFAULT_POOL_SIZE,
      () =>
        new Worker({
          entry,
          what: o.what.replace('runner', 'worker'),
          hello: request,
          spec: async (ctx) => spec(ctx, true),
          start: (s) => startSandboxed(s),
          tier: async () => (await probeSandbox({ stateDir: project.stateDir })).tier,
        }),
    );
    return {
      call: (args, ctx) => pool.call(args, ctx),
      dispose: () => pool.dispose(),
      get starts() {
        return pool.starts;
      },
    } as LoadedTool & { starts: number };
  }

  return {
    async call(args, ctx): Promise<ToolOutput> {
      if (ctx.signal.aborted) throw cancelledError();
      const res = await runSandboxed({
        ...spec(ctx, false),
        stdin: JSON.stringify({ ...request, args }),
        signal: ctx.signal,
      });
      if (ctx.signal.aborted) throw cancelledError();
      const reply = oneShotReply(res, ctx.limits, `the ${o.what}`);
      // The python runner points fd 1 at stderr; a Node tool's subprocesses may still write to stdout.
      const logs = [res.stderr, res.stdout].filter((s) => s.trim()).join('\n') || undefined;
      return {
        result: replyResult(reply, entry, res.tier, logs, ctx.limits),
        logs,
        tier: res.tier,
        ...(res.warnings?.length ? { warnings: res.warnings } : {}),
      };
    },
  };
}
