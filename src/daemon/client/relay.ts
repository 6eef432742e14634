// The daemon's output, written to this process's stdout and stderr as the direct path would write it.
import { writeSync } from 'node:fs';

/** An error as main.ts reports it: one JSON envelope under `--json` (select's --format json too), else text. */
export function errorText(argv: string[], code: string, message: string, hint: string): string {
  const json = argv.some(
    (a, i) => a === '--json' || a === '--format=json' || (a === '--format' && argv[i + 1] === 'json'),
  );
  return json ? JSON.stringify({ error: { code, message, hint } }) + '\n' : `error: ${message}\nhint: ${hint}\n`;
}

/** Why this command takes the direct path, on stderr under --verbose. Returns undefined (the direct path). */
export function note(verbose: boolean, why: string): undefined {
  if (verbose) process.stderr.write(`toolbox: not using the daemon: ${why}\n`);
  return undefined;
}

/** What the relay does when an output stream fails. */
export interface RelayEvents {
  /** The reader went away (EPIPE, `toolbox select … | head`): not an error, as on the direct path. */
  gone(): void;
  /** Any other write error (`> /dev/full`: ENOSPC, EIO…) on `fd`. */
  broken(fd: 1 | 2, e: NodeJS.ErrnoException): void;
}

/**
 * Writes straight to the file descriptor (no stream object to build); a non-blocking one that is full
 * (EAGAIN) hands the rest, and everything after it, to the stream, which waits for the reader.
 */
export class Relay {
  /** The descriptors whose output now goes through their stream (it may still hold some at the end). */
  readonly streamed = new Set<1 | 2>();

  constructor(private readonly on: RelayEvents) {}

  write(fd: 1 | 2, text: string): void {
    if (this.streamed.has(fd)) return void this.stream(fd).write(text);
    const b = Buffer.from(text, 'utf8');
    let off = 0;
    try {
      while (off < b.length) off += writeSync(fd, b, off, b.length - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return this.on.gone();
      if (code !== 'EAGAIN') return this.on.broken(fd, e as NodeJS.ErrnoException);
      this.streamed.add(fd);
      const stream = this.stream(fd);
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EPIPE') this.on.gone();
        else this.on.broken(fd, err);
      });
      stream.write(b.subarray(off));
    }
  }

  // Looked up only when needed: the process.stdout getter builds a stream and makes the fd non-blocking.
  private stream(fd: 1 | 2) {
    return fd === 1 ? process.stdout : process.stderr;
  }
}
