// The one place that starts a daemon process: `toolbox daemon start` (control.ts) and the client's
// start on demand (TOOLBOX_DAEMON=on, client/index.ts) both come here. It runs this Node binary
// (process.execPath) on toolbox's own dist/daemon-main.js: a trusted program with arguments chosen here.
import { closeSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { codePath } from '../util/assets.js';
import { SELF, spawnHost } from '../util/host-process.js';
import type { DaemonPaths } from './paths.js';

/** A daemon started in the background: how it ended, if it did. */
export interface Started {
  /** Its exit code once it exited (1 when a signal ended it or it could not start), else undefined. */
  exitCode(): number | undefined;
}

/**
 * Start the daemon for `paths.marker` detached from this process (its own session, no terminal, output
 * to the project's daemon log, cwd the project folder). `idleMs` unset: the daemon reads the user's settings.
 */
export function spawnDaemon(paths: DaemonPaths, o: { env: NodeJS.ProcessEnv; idleMs?: number }): Started {
  const log = openSync(paths.log, 'a', 0o600);
  let exited: number | undefined;
  try {
    const args = [codePath('daemon-main.js'), '--marker', paths.marker];
    if (o.idleMs !== undefined) args.push('--idle', String(o.idleMs));
    // The daemon runs the user's commands as they would: it keeps their environment, PATH included.
    const child = spawnHost(SELF, args, {
      detached: true,
      stdio: ['ignore', log, log],
      env: o.env,
      cwd: dirname(paths.marker),
      path: 'exact',
    });
    child.on('exit', (code) => (exited = code ?? 1));
    child.on('error', () => (exited = 1));
    child.unref();
  } finally {
    closeSync(log);
  }
  return { exitCode: () => exited };
}
