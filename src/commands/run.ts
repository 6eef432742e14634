import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveProject, type Project } from '../config.js';
import { exitCodeTable, ToolboxError } from '../errors.js';
import { printJson, spinner, type CommandContext } from '../output/context.js';
import { Runtime } from '../runtime/runtime.js';
import { collectToolArgs, splitRunArgv, type RunOptions } from '../runtime/run-argv.js';
import type { SharedState } from '../state/shared.js';
import { requireDuration } from '../runtime/duration.js';
import { openState } from './shared-state.js';
import { ignoredKeysText, projectUserOnlyKeys } from '../policy/user-settings.js';

/** `toolbox run <id> [--<param> <value> ...]`: one call through the runtime pipeline. */
export async function runCommand(ctx: CommandContext, args: unknown[]): Promise<number> {
  const id = String(args[0]);
  // `toolbox run --help` (no tool id): run's own usage; `run <id> --help` is the tool's usage.
  if (id === '--help' || id === '-h') {
    const { RUN_HELP } = await import('../runtime/run-help.js');
    ctx.io.stdout.write(`${RUN_HELP}${exitCodeTable()}\n`); // the same exit-code table as every command's --help
    return 0;
  }
  const o = splitRunArgv((args[1] as string[] | undefined) ?? []);
  const verbose = ctx.opts.verbose || o.verbose;
  const { io } = ctx;
  const project = resolveProject({
    cwd: io.cwd,
    registry: o.registry ?? ctx.opts.registry,
    config: o.config ?? ctx.opts.config,
  });
  const opened = await openState({ ...ctx, opts: { ...ctx.opts, verbose } }, o.state, project.root);
  try {
    return await runWith(ctx, id, o, project, opened?.state);
  } finally {
    await opened?.release();
  }
}

async function runWith(
  ctx: CommandContext,
  id: string,
  o: RunOptions,
  project: Project,
  shared: SharedState | undefined,
): Promise<number> {
  const json = ctx.opts.json || o.json;
  const verbose = ctx.opts.verbose || o.verbose;
  const { io, style } = ctx;
  // On a terminal the tool runs as a worker, so it can ask the person questions (elicitation) mid-call.
  const interactive = Boolean(io.stdinIsTTY && io.stderr.isTTY) && !json;
  const opts = {
    verbose,
    env: io.env,
    via: 'cli',
    ...(o.locked ? { locked: true } : {}),
    ...(shared ? { shared } : {}),
  };
  // Under the daemon one Runtime per project, config and options stays, with its warm workers.
  const kept = io.keep?.(JSON.stringify(['run', project, opts.verbose, opts.locked, shared?.url.url]), () => {
    return new Runtime(project, { ...opts, longRunning: true, via: 'daemon' });
  });
  const runtime = kept ?? new Runtime(project, { ...opts, longRunning: interactive });
  const entry = runtime.find(id);
  if (o.help) {
    const { toolUsage } = await import('../runtime/usage.js');
    io.stdout.write(toolUsage(entry));
    return 0;
  }
  const timeoutMs = o.timeout === undefined ? undefined : requireDuration(o.timeout, '--timeout');
  const toolArgs = await collectToolArgs(entry.contract.schema, id, o, {
    readFile: (f) => readFileSync(resolve(io.cwd, f), 'utf8'),
    readStdin: io.readStdin,
    stdinIsTTY: io.stdinIsTTY,
  });
  const spin = json ? undefined : await spinner(ctx, `running ${id}…`);
  let res;
  try {
    res = await runtime.invoke({
      id,
      args: toolArgs,
      caller: { user: o.user, role: o.role },
      timeoutMs,
      signal: io.signal,
      session: o.session,
      argStyle: 'flags',
      ...(interactive
        ? { client: (await import('../output/terminal-client.js')).terminalClient(io, () => spin?.stop()) }
        : {}),
    });
  } catch (e) {
    spin?.stop();
    if (!(e instanceof ToolboxError) || !e.details || !('traceback' in e.details || 'logs' in e.details)) throw e;
    const { traceback, logs, ...rest } = e.details as { traceback?: string; logs?: string };
    if (!verbose)
      throw new ToolboxError(e.code, e.message, {
        exitCode: e.exitCode,
        hint: e.hint,
        details: Object.keys(rest).length ? rest : undefined,
      });
    if (!json)
      io.stderr.write(
        `${logs ? `${style.dim('tool output:')}\n${logs.trimEnd()}\n` : ''}${traceback ? `${style.dim('traceback:')}\n${traceback.trimEnd()}\n` : ''}`,
      );
    throw new ToolboxError(e.code, e.message, {
      exitCode: e.exitCode,
      hint: e.hint?.includes('--verbose') ? undefined : e.hint,
      details: e.details,
    });
  } finally {
    if (!kept) {
      await runtime.shared?.settle(); // the call's log record reaches the store before the process ends
      await runtime.close();
    }
  }
  spin?.stop();
  const files = res.content ? await import('../output/content-files.js') : undefined;
  const saved = o.out && res.content ? files!.saveBlocks(resolve(io.cwd, o.out), id, res.content) : undefined;
  if (json) {
    const { logs, ...rest } = res;
    printJson(ctx, { ...(verbose && logs ? res : rest), ...(saved ? { saved } : {}) });
    return 0;
  }
  for (const note of files?.contentNotes(saved, res.content) ?? []) io.stderr.write(style.dim(note) + '\n');
  for (const w of res.warnings) io.stderr.write(style.yellow(`warning: ${w}`) + '\n');
  if (verbose) {
    for (const line of ignoredKeysText(projectUserOnlyKeys(project)))
      io.stderr.write(style.yellow(`warning: ${line}`) + '\n');
    io.stderr.write(
      style.dim(
        `sandbox: ${res.sandbox}  load ${res.loadMs} ms${res.cacheHit ? ' (cached)' : ''}  run ${res.runMs} ms  total ${res.durationMs} ms`,
      ) + '\n',
    );
    if (res.logs) io.stderr.write(`${style.dim('tool output:')}\n${res.logs.trimEnd()}\n`);
  }
  io.stdout.write(res.text.endsWith('\n') || res.text === '' ? res.text : res.text + '\n');
  return 0;
}
