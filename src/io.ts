import { isatty } from 'node:tty';

/** A sink that accepts text; process.stdout and test buffers both fit. */
export interface TextSink {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Everything a command may touch of the outside world. `run(argv, io)` gets one; tests pass
 * buffers, the real binary passes the process's streams. Core code never reads `process.*` itself.
 */
export interface IO {
  stdout: TextSink;
  stderr: TextSink;
  /** Reads all of standard input, or undefined when stdin is a TTY / not available. */
  readStdin?: () => Promise<string | undefined>;
  stdinIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on Ctrl+C (reason 'SIGINT') or SIGTERM (reason 'SIGTERM'). */
  signal?: AbortSignal;
  /**
   * A command that was asked to stop by a signal and finished what that asks (`serve --http` drained
   * its calls after SIGTERM) says so: the process then exits with the command's code instead of 130.
   */
  stoppedGracefully?: () => void;
  /**
   * Set by a long-lived host (the resident daemon, src/daemon/): the object kept under `key` for
   * this caller's environment, made with `make` the first time. `run` keeps its Runtime (warm
   * workers) this way; the host closes it, never the command.
   */
  keep?: <T extends { close(): Promise<void> }>(key: string, make: () => T) => T;
}

export function processIO(signal?: AbortSignal): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // isatty, not process.stdin.isTTY: creating the stdin stream costs ~3 ms, and most commands never read it.
    stdinIsTTY: isatty(0),
    readStdin: async () => {
      if (isatty(0)) return undefined;
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
    cwd: process.cwd(),
    signal,
  };
}

/** A buffer IO for tests and for library callers who want the text. */
export function memoryIO(opts: {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdin?: string;
  tty?: boolean;
}): IO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: {
      write: (s: string) => {
        out += s;
        return true;
      },
      isTTY: opts.tty ?? false,
    },
    stderr: {
      write: (s: string) => {
        err += s;
        return true;
      },
      isTTY: opts.tty ?? false,
    },
    readStdin: async () => opts.stdin,
    stdinIsTTY: opts.stdin === undefined,
    env: opts.env ?? {},
    cwd: opts.cwd,
    out: () => out,
    err: () => err,
  };
}
