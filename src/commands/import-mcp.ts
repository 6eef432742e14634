import { resolveProject } from '../config.js';
import { printJson, spinner, type CommandContext } from '../output/context.js';
import { printImportReport } from '../output/import-report.js';

/** `toolbox import mcp [options] -- <command …>`, `--npm P`, `--pypi P`, `--url U` or `--from-config F`. */
export async function importMcpCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const command = (args[0] as string[] | undefined) ?? [];
  const { importMcp } = await import('../mcp/import.js');
  const what = opts.fromConfig ?? opts.url ?? opts.npm ?? opts.pypi ?? command.join(' ');
  const spin = await spinner(ctx, `connecting to ${String(what)}`);
  let result;
  try {
    result = await importMcp(project, {
      command,
      url: opts.url as string | undefined,
      headers: (opts.header as string[] | undefined) ?? [],
      npm: opts.npm as string | undefined,
      pypi: opts.pypi as string | undefined,
      fromConfig: opts.fromConfig as string | undefined,
      allowScripts: Boolean(opts.allowScripts),
      prefix: opts.prefix as string | undefined,
      out: opts.out as string | undefined,
      force: Boolean(opts.force),
      network: Boolean(opts.network),
      paths: (opts.path as string[] | undefined) ?? [],
      cwd: ctx.io.cwd,
      check: Boolean(opts.check),
      env: ctx.io.env,
      signal: ctx.io.signal,
      oauthClientId: opts.oauthClientId as string | undefined,
      oauthClientSecretEnv: opts.oauthClientSecretEnv as string | undefined,
      oauthClientMetadataUrl: opts.oauthClientMetadataUrl as string | undefined,
      protocol: opts.protocol as string | undefined,
      // An MCP server behind OAuth: the person at this shell opens the link (stderr); the browser comes back.
      openUrl: (url, why) => {
        spin.stop();
        ctx.io.stderr.write(`To ${why}, open this link in a browser:\n  ${url}\n`);
      },
    });
    spin.stop();
  } catch (e) {
    spin.fail();
    throw e;
  }
  if (opts.check) {
    const changed = result.servers.some((r) => r.upstream?.length) ? 1 : 0;
    const changes = result.servers.map((r) => ({
      ...(r.name ? { name: r.name } : {}),
      server: r.server,
      changes: r.upstream,
    }));
    if (ctx.opts.json) printJson(ctx, result.config ? { config: result.config, servers: changes } : changes[0]);
    else {
      const { upstreamCheckText } = await import('../lock/render.js');
      for (const r of result.servers) ctx.io.stdout.write(upstreamCheckText(r.server, r.upstream ?? [], ctx.style));
    }
    return changed;
  }
  const failed = result.counts.conflict > 0 ? 1 : 0;
  if (ctx.opts.json) {
    printJson(ctx, result.config ? result : result.servers[0]);
    return failed;
  }
  for (const r of result.servers) printImportReport(ctx, project.root, r);
  return failed;
}
