import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { findOnPath, isExecutableFile } from '../util/which.js';

/**
 * Files whose modification time decides whether a cached result still holds: a path mapped to
 * its mtime, or null when it did not exist (so that its appearance invalidates too).
 */
export type Watch = Map<string, number | null>;

export function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

export function watchFile(watch: Watch, path: string): void {
  if (!watch.has(path)) watch.set(path, mtimeOf(path));
}

/**
 * Where `cmd` is: an absolute path as is, a path with a slash relative to `base`, else looked up
 * on PATH as a shell would. The file found (or the path asked for) is watched; PATH candidates
 * before the hit are not, so a new executable earlier on PATH does not invalidate the cache.
 */
export function which(cmd: string, env: NodeJS.ProcessEnv, base: string, watch?: Watch): string | undefined {
  if (isAbsolute(cmd) || cmd.includes('/')) {
    const p = isAbsolute(cmd) ? cmd : resolve(base, cmd);
    if (watch) watchFile(watch, p);
    return isExecutableFile(p) ? p : undefined;
  }
  const p = findOnPath(cmd, env.PATH);
  if (p && watch) watchFile(watch, p);
  return p;
}

/** Quote one word for a POSIX shell, only when it needs it. */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The outcome of a small helper process (a version query, the checker, pip). */
export interface ProcResult {
  code: number | null;
  stdout: string;
  stderr: string;
  error?: string;
}

/** Run a program to completion without a shell; never throws. */
export function runProcess(
  cmd: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; input?: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<ProcResult> {
  return new Promise((res) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const done = (r: ProcResult) => {
      if (!settled) {
        settled = true;
        res(r);
      }
    };
    let child;
    try {
      child = spawn(cmd, args, {
        env: opts.env,
        cwd: opts.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        timeout: opts.timeoutMs,
        signal: opts.signal,
        killSignal: 'SIGKILL',
      });
    } catch (e) {
      done({ code: null, stdout, stderr, error: (e as Error).message });
      return;
    }
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', (e) => done({ code: null, stdout, stderr, error: e.message }));
    child.on('close', (code, sig) => done({ code, stdout, stderr, error: sig ? `killed by ${sig}` : undefined }));
    child.stdin.on('error', () => {
      /* the program may not read its input */
    });
    child.stdin.end(opts.input ?? '');
  });
}
