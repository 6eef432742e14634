import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { resolveProject } from '../config.js';
import type { Severity } from '../contract/diagnostic.js';
import { ExitCode, usageError } from '../errors.js';
import { hasFindings, validateProject } from '../lint/validate.js';
import { formatters, type Format } from '../output/formatters/index.js';
import { spinner, type CommandContext } from '../output/context.js';
import { packageVersion } from '../util/version.js';

/**
 * `toolbox validate [files…] [--format human|json|github|sarif] [--fail-on error|warning]
 * [--quiet] [--max-warnings N] [--no-routing]`: exit 0 clean, 1 findings at or above --fail-on
 * (or more warnings than --max-warnings), 3 when the registry or config is broken.
 */
export async function validateCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const format: Format = ctx.opts.json ? 'json' : ((opts.format as Format | undefined) ?? 'human');
  const failOn = (opts.failOn as Severity | undefined) ?? 'error';
  const maxWarnings = opts.maxWarnings === undefined ? undefined : Number(opts.maxWarnings);
  if (maxWarnings !== undefined && !(Number.isInteger(maxWarnings) && maxWarnings >= 0))
    throw usageError(
      'invalid_max_warnings',
      `--max-warnings must be a whole number ≥ 0, got '${String(opts.maxWarnings)}'`,
      'For example: --max-warnings 0',
    );
  const given = ((args[0] as string[] | undefined) ?? []).map((f) => resolve(ctx.io.cwd, f));
  for (const f of given) {
    const rel = relative(project.registryDir, f);
    if (!existsSync(f) || rel.startsWith('..') || !/\.ya?ml$/i.test(f))
      throw usageError(
        'not_a_contract',
        `${relative(ctx.io.cwd, f) || f} is not a contract file of the registry ${relative(ctx.io.cwd, project.registryDir) || '.'}`,
        'Pass .yaml files inside the registry folder (or none to validate them all).',
      );
  }
  const spin = format === 'human' ? await spinner(ctx, `Validating ${project.registryDir}`) : undefined;
  let result;
  try {
    result = await validateProject(project, {
      routing: opts.routing !== false,
      cwd: ctx.io.cwd,
      signal: ctx.io.signal,
      locked: Boolean(opts.locked),
      env: ctx.io.env,
      ...(given.length ? { files: given } : {}),
    });
  } finally {
    spin?.stop();
  }
  const warnings = result.summary.warnings;
  if (opts.quiet) {
    // ESLint's --quiet: errors only in the report; warnings still count for --max-warnings.
    const diagnostics = result.diagnostics.filter((d) => d.severity === 'error');
    result = { ...result, diagnostics, summary: { ...result.summary, warnings: 0, infos: 0 } };
  }
  const frames = Boolean(ctx.io.stdout.isTTY);
  ctx.io.stdout.write(
    formatters[format]({ ...result, cwd: ctx.io.cwd, style: ctx.style, version: packageVersion(), frames }),
  );
  if (maxWarnings !== undefined && warnings > maxWarnings) {
    if (format === 'human')
      ctx.io.stderr.write(`toolbox found too many warnings (${warnings}; --max-warnings is ${maxWarnings}).\n`);
    return ExitCode.findings;
  }
  return hasFindings(result.diagnostics, failOn) ? ExitCode.findings : ExitCode.ok;
}
