import { resolveProject } from '../config.js';
import type { Severity } from '../contract/diagnostic.js';
import { ExitCode } from '../errors.js';
import { hasFindings, validateProject } from '../lint/validate.js';
import { formatters, type Format } from '../output/formatters/index.js';
import { spinner, type CommandContext } from '../output/context.js';
import { packageVersion } from '../util/version.js';

/**
 * `toolbox validate [--format human|json|github|sarif] [--fail-on error|warning] [--no-routing]`:
 * exit 0 clean, 1 findings at or above --fail-on, 3 when the registry or config is broken.
 */
export async function validateCommand(
  ctx: CommandContext,
  _args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const format: Format = ctx.opts.json ? 'json' : ((opts.format as Format | undefined) ?? 'human');
  const failOn = (opts.failOn as Severity | undefined) ?? 'error';
  const spin = format === 'human' ? await spinner(ctx, `Validating ${project.registryDir}`) : undefined;
  let result;
  try {
    result = await validateProject(project, {
      routing: opts.routing !== false,
      cwd: ctx.io.cwd,
      signal: ctx.io.signal,
      locked: Boolean(opts.locked),
    });
  } finally {
    spin?.stop();
  }
  ctx.io.stdout.write(formatters[format]({ ...result, cwd: ctx.io.cwd, style: ctx.style, version: packageVersion() }));
  return hasFindings(result.diagnostics, failOn) ? ExitCode.findings : ExitCode.ok;
}
