// Where a daemon lives and whether that place is safe: one implementation, in the CommonJS client
// (bin/daemon-client.js), which the launcher loads without any of dist/. This file gives it types.
import { createRequire } from 'node:module';
import { packagePath } from '../util/assets.js';

/** The files of one project's daemon, all in the user's 0700 socket folder. */
export interface DaemonPaths {
  dir: string;
  /** The config file or registry folder that names the project (realpath). */
  marker: string;
  socket: string;
  pid: string;
  log: string;
  hash: string;
}

/** The user's daemon settings (TOOLBOX_DAEMON, else daemon.json in the user's config folder). */
export interface DaemonSettings {
  mode: 'off' | 'auto' | 'on';
  idle?: string;
  source: string;
}

interface Client {
  PROTO: number;
  DAEMON_LOST_EXIT: number;
  unsafeDir(dir: string): string | undefined;
  unsafeEntry(file: string, kind: 'socket' | 'file'): string | undefined;
  socketDir(env: NodeJS.ProcessEnv): string;
  userSettings(env: NodeJS.ProcessEnv): DaemonSettings;
  daemonPaths(env: NodeJS.ProcessEnv, cwd: string, argv: string[], version: string): DaemonPaths;
  commitsUpFront(argv: string[]): boolean;
  pathsFor(env: NodeJS.ProcessEnv, marker: string, version: string): DaemonPaths;
}

export const client = createRequire(import.meta.url)(packagePath('bin', 'daemon-client.js')) as Client;
