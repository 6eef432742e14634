import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import type { CommandConfig } from '../contract/types.js';
import { ToolRunError } from '../sandbox/tool-run-error.js';
import { resolveInterpreter, runSandboxed } from '../sandbox/index.js';
import type { Loader, LoadContext, ToolOutput } from './types.js';
import { cancelledError, processFailure } from './util/outcome.js';
import { fill, fillArgv, paramsIn } from '../contract/template.js';
import { programPaths } from '../sandbox/tool-paths.js';
import { guardArgv } from './util/argv-guard.js';

/** stdout → result. auto: JSON when the whole (trimmed) output parses as JSON, else the trimmed text. */
export function parseOutput(stdout: string, mode: CommandConfig['parse'] = 'auto'): unknown {
  const text = stdout.trim();
  if (mode === 'text') return text;
  try {
    return JSON.parse(text);
  } catch (e) {
    if (mode === 'auto') return text;
    throw new ToolRunError({
      kind: 'failed',
      message: `the command's output is not JSON (parse: json): ${(e as Error).message}; output starts: ${text.slice(0, 200)}`,
    });
  }
}

/**
 * The program (argv[0]) on the host: a path with a slash is relative to the project root; a bare
 * name is looked up on the host PATH. Its folder is bound read-only (resolveInterpreter adds it
 * when it lies outside /usr).
 */
async function resolveProgram(
  ctx: LoadContext,
  program: string,
): Promise<{ path: string; readOnlyPaths: string[]; projectPaths: string[] }> {
  const where = `${ctx.entry.file}${ctx.entry.line ? `:${ctx.entry.line}` : ''}`;
  if (paramsIn(program).length > 0) {
    throw new ToolboxError(
      'command_program_templated',
      `tool '${ctx.entry.contract.id}': the program (argv[0]) cannot be a {{placeholder}}`,
      {
        exitCode: ExitCode.registry,
        location: { file: ctx.entry.file, line: ctx.entry.line },
        hint: `Name a fixed program in loader_config.argv[0] of ${where}; pass arguments in the later elements.`,
      },
    );
  }
  if (!program.includes('/')) return { ...(await resolveInterpreter(program, ctx.hostEnv)), projectPaths: [] };
  const abs = resolve(ctx.project.root, program);
  try {
    accessSync(abs, constants.X_OK);
  } catch {
    throw new ToolboxError(
      'command_not_found',
      `tool '${ctx.entry.contract.id}': program ${abs} does not exist or is not executable`,
      {
        exitCode: ExitCode.missingDeps,
        location: { file: ctx.entry.file, line: ctx.entry.line },
        hint: `Check loader_config.argv[0] in ${where} (relative paths start at the project root ${ctx.project.root}); chmod +x a script.`,
      },
    );
  }
  // A program named by path is the project's (or a host path the contract names): checked by the sandbox.
  return { path: abs, readOnlyPaths: [], projectPaths: programPaths(ctx.project.root, abs) };
}

export const loader: Loader = {
  type: 'command',
  async load(ctx: LoadContext) {
    const cfg = ctx.entry.contract.loader_config as unknown as CommandConfig;
    const [program, ...rest] = cfg.argv;
    const prog = await resolveProgram(ctx, program!);
    return {
      async call(args, call): Promise<ToolOutput> {
        if (call.signal.aborted) throw cancelledError();
        guardArgv(ctx.entry.contract.id, rest, args, ctx.entry.contract.schema);
        const res = await runSandboxed({
          command: prog.path,
          args: fillArgv(rest, args),
          env: call.env,
          readOnlyPaths: [...new Set([...prog.readOnlyPaths, ...call.readOnlyPaths])],
          project: {
            root: ctx.project.root,
            paths: prog.projectPaths,
            granted: call.granted,
            tool: ctx.entry.contract.id,
          },
          network: call.network,
          ...(call.egress ? { egress: { socket: call.egress.socket, bridge: 'wrap' as const } } : {}),
          limits: call.limits,
          // Always give stdin (empty when there is no template) so a program never waits on it.
          stdin: cfg.stdin === undefined ? '' : fill(cfg.stdin, args),
          signal: call.signal,
        });
        if (call.signal.aborted) throw cancelledError();
        const logs = res.stderr || undefined;
        // "<program> exited with code N: <stderr tail>", or the limit that stopped it.
        if (res.limit || res.exitCode !== 0) throw processFailure(res, call.limits, program!);
        try {
          return {
            result: parseOutput(res.stdout, cfg.parse),
            logs,
            tier: res.tier,
            ...(res.warnings?.length ? { warnings: res.warnings } : {}),
          };
        } catch (e) {
          throw new ToolRunError({ kind: 'failed', message: (e as Error).message, logs, tier: res.tier });
        }
      },
    };
  },
};
