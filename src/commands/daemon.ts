import { ExitCode, ToolboxError, usageError } from '../errors.js';
import { printJson, type CommandContext } from '../output/context.js';
import { requireDuration } from '../runtime/duration.js';
import { daemonStatus, idleFromSettings, projectPaths, startDaemon, stopDaemon } from '../daemon/control.js';
import { invalidModeText, userSettings } from '../daemon/paths.js';
import type { DaemonStatus } from '../daemon/server.js';

const ACTIONS = ['start', 'stop', 'status', 'restart'];

/** `toolbox daemon start|stop|status|restart`: the project's resident daemon (see README "Daemon"). */
export async function daemonCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
): Promise<number> {
  const action = String(args[0]);
  if (!ACTIONS.includes(action))
    throw usageError('invalid_action', `unknown daemon action '${action}'`, `Use one of: ${ACTIONS.join(', ')}.`);
  const { io } = ctx;
  const settings = userSettings(io.env);
  if (settings.invalid !== undefined) {
    const { message, hint } = invalidModeText(settings.invalid);
    throw usageError('invalid_daemon_mode', message, hint);
  }
  const paths = projectPaths(io.env, io.cwd, ctx.opts);
  const idleMs = opts.idle === undefined ? idleFromSettings(io.env) : requireDuration(String(opts.idle), '--idle');
  const mode = settings.mode;
  let stopped: number | undefined;
  let status: DaemonStatus | undefined;
  if (action === 'stop' || action === 'restart') stopped = await stopDaemon(paths);
  if (action === 'start' || action === 'restart') {
    status = await daemonStatus(paths);
    if (!status) {
      const r = await startDaemon(paths, { idleMs, env: io.env });
      if ('problem' in r)
        throw new ToolboxError(
          r.lockHeld ? 'daemon_lock_held' : 'daemon_not_started',
          `cannot start the daemon: ${r.problem}`,
          {
            exitCode: ExitCode.registry,
            hint: r.lockHeld
              ? 'A process that is no daemon of this project holds its lock; commands run directly. See docs/daemon.md.'
              : 'The socket folder must be a folder of yours with mode 0700; see docs/daemon.md.',
          },
        );
      status = r;
    }
  } else if (action === 'status') status = await daemonStatus(paths);
  const out = {
    action,
    running: status !== undefined,
    mode,
    ...(stopped !== undefined ? { stopped } : {}),
    ...(status ?? { project: paths.marker, socket: paths.socket }),
    log: paths.log,
  };
  if (ctx.opts.json) printJson(ctx, out);
  else io.stdout.write(human(out, status, stopped));
  return 0;
}

// Whom the daemon serves (older daemons of this version without the fields show nothing).
function whom(st: DaemonStatus): string[] {
  if (!st.serves || !st.callers) return [];
  const { serves: w, callers: c } = st;
  return [
    `  serves   callers whose user folders and toolbox settings are the daemon's: config ${w.configDir}, sandbox tier ${w.tier}${w.settings.length ? `, ${w.settings.join(', ')} as set` : ''}`,
    `           python3 ${w.python3}; a caller whose PATH/PYENV_* find another program gets a pool of its own`,
    `  callers  ${c.same} served as the daemon, ${c.own} with their own programs, ${c.turnedAway.reduce((n, a) => n + a.count, 0)} turned away`,
    ...c.turnedAway.map((a) => `           ${a.count} × ${a.code}: ${a.reason}`),
  ];
}

function human(out: { mode: string; project: string }, st: DaemonStatus | undefined, stopped?: number): string {
  const lines = [stopped !== undefined ? `stopped daemon ${stopped}` : undefined];
  if (!st) lines.push(stopped === undefined ? `no daemon runs for ${out.project}` : undefined);
  else
    lines.push(
      `daemon ${st.pid} serves ${st.project}`,
      `  socket   ${st.socket}`,
      `  uptime   ${Math.round(st.uptimeMs / 1000)} s (stops after ${Math.round(st.idleTimeoutMs / 1000)} s idle)`,
      `  served   ${st.requests} requests (${st.active} in flight)`,
      ...whom(st),
      ...(st.tools !== undefined ? [`  index    ${st.tools} tools`] : []),
      ...(st.reaper ? [`  reaper   ${st.reaper.on ? 'on' : `off (${st.reaper.code}): ${st.reaper.reason}`}`] : []),
    );
  if (out.mode === 'off') lines.push('note: TOOLBOX_DAEMON=off (or daemon.json): commands do not use the daemon');
  return lines.filter((l) => l !== undefined).join('\n') + '\n';
}
