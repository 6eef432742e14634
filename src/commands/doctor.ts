import { ExitCode } from '../errors.js';
import { printJson, spinner, type CommandContext } from '../output/context.js';

const LABELS: Record<string, string> = {
  filesystem: 'files',
  network: 'network',
  processes: 'process tree',
  syscalls: 'syscalls (seccomp)',
  uidDrop: 'uid (per-call user)',
  processLimit: 'process count',
  resourceLimits: 'cpu/memory/file limits',
};

/** `toolbox doctor`: runtimes, sandbox, registry health, dependencies, state; each problem with its fix. */
export async function doctorCommand(
  ctx: CommandContext,
  _args: unknown[] = [],
  opts: Record<string, unknown> = {},
): Promise<number> {
  const { io, style: s } = ctx;
  const { runDoctor } = await import('../doctor/index.js');
  const spin = await spinner(ctx, 'checking this machine and registry');
  const r = await runDoctor(
    { cwd: io.cwd, registry: ctx.opts.registry, config: ctx.opts.config },
    io.env,
    opts.state !== undefined ? { state: String(opts.state) } : {},
  );
  spin.stop();
  const code = r.healthy ? ExitCode.ok : ExitCode.findings;
  if (ctx.opts.json) {
    printJson(ctx, r);
    return code;
  }
  const out: string[] = [];
  const line = (ok: boolean | 'warn', label: string, text: string) =>
    out.push(
      `${ok === true ? s.green('✓') : ok === 'warn' ? s.yellow('!') : s.red('✗')} ${s.bold(label.padEnd(9))} ${text}`,
    );
  line(true, 'node', `${r.node.version} (${r.node.path})`);
  const py = r.python;
  line(
    py.version ? true : 'warn',
    'python',
    py.version
      ? `${py.version} (${py.executable}); packaging: ${py.packaging ?? 'none (toolbox compares versions itself)'}; venv: ${py.venv ? 'yes' : 'no'}`
      : (py.error ?? 'not found'),
  );
  const sb = r.sandbox;
  if (sb.tier) {
    const iso = Object.entries(sb.isolates ?? {}).map(([k, v]) => [LABELS[k] ?? k, v] as const);
    const yes = iso.filter(([, v]) => v).map(([k]) => k);
    const no = iso.filter(([, v]) => !v).map(([k]) => k);
    line(
      sb.tier === 'bwrap' ? true : sb.tier === 'unshare' ? 'warn' : false,
      'sandbox',
      `${sb.tier}: isolates ${yes.join(', ') || 'nothing'}${no.length ? `; does NOT isolate ${no.join(', ')}` : ''}`,
    );
    for (const w of [...(sb.warnings ?? []), ...(sb.reasons ?? [])]) out.push(`            ${s.dim(w)}`);
  } else line('warn', 'sandbox', `unknown (${sb.error})`);
  const reg = r.registry;
  if (reg.found) {
    line(
      !reg.errors,
      'registry',
      `${reg.dir}: ${reg.tools} tools in ${reg.files} files, ${reg.errors} errors, ${reg.warnings} warnings`,
    );
  } else line(false, 'registry', `not found${reg.dir ? ` (${reg.dir})` : ''}`);
  if (reg.found) line(true, 'config', reg.config ?? 'none found at or above the registry: defaults apply');
  if (r.deps)
    line(
      r.deps.missing.length === 0,
      'deps',
      `${r.deps.ok} of ${r.deps.tools} tools have what they need${r.deps.missing.length ? `; missing something: ${r.deps.missing.join(', ')}` : ''}`,
    );
  if (r.state.dir) {
    const made = r.state.items.some((i) => i.exists);
    line(true, 'state', `${r.state.dir}${made ? '' : ' (not created yet)'}`);
    for (const i of r.state.items)
      out.push(
        `            ${(i.exists ? i.name : s.dim(i.name)).padEnd(i.exists ? 13 : 13 + s.dim('').length)} ${s.dim(i.what)}`,
      );
  }
  if (r.networkGrants?.length)
    for (const g of r.networkGrants)
      line(
        'warn',
        'network',
        `grants.yaml opens ${g.network.join(', ')} to ${g.tool === '*' ? 'every tool' : `'${g.tool}'`} of this project`,
      );
  if (r.shared) {
    const sh = r.shared;
    line(
      sh.health === 'connected' ? true : 'warn',
      'shared',
      sh.health === 'connected'
        ? `${sh.url} (from ${sh.source}): Redis ${sh.redisVersion ?? '?'}, ping ${sh.pingMs ?? '?'} ms; breaker, call log, limits and serve's sessions are shared`
        : `${sh.url} (from ${sh.source}): unreachable; calls use local state until it is back`,
    );
  }
  io.stdout.write(out.join('\n') + '\n');
  if (r.problems.length) {
    io.stdout.write(`\n${s.bold('Problems')}\n`);
    for (const p of r.problems)
      io.stdout.write(
        `${p.severity === 'error' ? s.red('error') : s.yellow('warning')} [${p.area}] ${p.message}\n    fix: ${p.fix}\n`,
      );
  }
  const count = problemCount(r.problems);
  io.stderr.write(r.healthy ? (r.problems.length ? `healthy (${count})\n` : 'healthy\n') : `${count} found\n`);
  return code;
}

/** "2 errors and 1 warning": every problem listed above is counted, by severity. */
export function problemCount(problems: { severity: string }[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  const part = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (!warnings) return part(errors, 'error');
  if (!errors) return part(warnings, 'warning');
  return `${part(errors, 'error')} and ${part(warnings, 'warning')}`;
}
