import { resolveProject } from '../config.js';
import { ExitCode } from '../errors.js';
import { printJson, spinner, type CommandContext } from '../output/context.js';
import { loadRegistry, unknownTool } from '../registry/registry.js';
import { inert } from '../util/inert.js';

/** `toolbox deps [id …] [--install]`: each tool's runtime dependencies, and how to fix what is missing. */
export async function depsCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const { io, style } = ctx;
  const project = resolveProject({ cwd: io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const reg = loadRegistry(project);
  const ids = (args[0] as string[] | undefined) ?? [];
  for (const id of ids) if (!reg.byId.has(id)) throw unknownTool(id, reg.byId.keys());
  const entries = ids.length ? [...new Set(ids)].map((id) => reg.byId.get(id)!) : reg.entries;
  const { checkDeps } = await import('../deps/check.js');

  let installs;
  if (opts.install) {
    const { installDeps } = await import('../deps/install.js');
    const spin = await spinner(ctx, 'installing');
    installs = await installDeps(project, entries, {
      env: io.env,
      signal: io.signal,
      allowLocal: opts.allowLocal === true,
      onTool: (id) => spin.update(`installing the Python requirements of ${id}`),
      onStep: (id, step) => spin.update(`${id}: ${step}`),
      // --verbose: pip's own output, as it comes (never into --json's stdout)
      ...(ctx.opts.verbose && !ctx.opts.json ? { onOutput: (text: string) => void io.stderr.write(inert(text)) } : {}),
    });
    spin.stop();
    if (!ctx.opts.json) {
      for (const r of installs) {
        if (r.status === 'installed') io.stderr.write(`${style.green('installed')} ${r.id}: venv ${r.venv}\n`);
        else if (r.status === 'failed')
          io.stderr.write(`${style.red('install failed')} ${r.id}: ${r.error}\n  fix: ${r.fix}\n`);
      }
    }
  }

  const spin = await spinner(ctx, `checking ${entries.length} tools`);
  const results = await checkDeps(project, entries, { env: io.env });
  spin.stop();
  const missing = results.filter((t) => !t.ok);
  const failedInstall = installs?.some((r) => r.status === 'failed') ?? false;
  const code = missing.length > 0 || failedInstall ? ExitCode.findings : ExitCode.ok;
  if (ctx.opts.json) {
    printJson(ctx, { tools: results.map(({ cached: _c, ...t }) => t), ...(installs ? { install: installs } : {}) });
    return code;
  }
  const { renderToolDeps } = await import('../output/deps.js');
  for (const t of results) io.stdout.write(renderToolDeps(t, style, io.stdout.columns));
  if (entries.length === 0) io.stderr.write('no tools in the registry\n');
  else
    io.stderr.write(
      `${results.length - missing.length} of ${results.length} tools have what they need${missing.length ? `; ${missing.length} ${missing.length === 1 ? 'is' : 'are'} missing something` : ''}\n`,
    );
  const pyMissing = missing.filter((t) =>
    t.requirements.some(
      (r) => r.kind === 'python' && r.name !== 'python' && (r.status === 'missing' || r.status === 'wrong_version'),
    ),
  );
  if (pyMissing.length && !opts.install) {
    io.stderr.write(
      `hint: \`toolbox deps --install ${pyMissing.map((t) => t.id).join(' ')}\` installs Python requirements into a venv per tool\n`,
    );
  }
  return code;
}
