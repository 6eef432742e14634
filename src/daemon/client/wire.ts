// The client's side of a daemon connection: one JSON message per line over the project's Unix socket
// (node:net), and the terminal facts the daemon needs to format output as this process would.
import { createConnection } from 'node:net';
import { isatty } from 'node:tty';

/** What a connection reports: 'close' comes once and last (after an error too). */
export interface WireEvents {
  connect(): void;
  /** One message; lines after a message that destroyed the connection are not read. */
  message(m: Record<string, unknown>): void;
  /** A line that is not a JSON object: nothing after it is read; the caller decides what it means. */
  garbled(): void;
  error(e: NodeJS.ErrnoException): void;
  close(): void;
}

/** An open connection. */
export interface Wire {
  send(message: object): void;
  destroy(): void;
}

/** Connect to the socket at `path`. */
export function openWire(path: string, on: WireEvents): Wire {
  const s = createConnection(path);
  // Bytes, not setEncoding('utf8'): a line is split at '\n' (never inside a UTF-8 sequence), and
  // string_decoder is not loaded.
  let buf: Buffer = Buffer.alloc(0);
  s.on('connect', () => on.connect());
  s.on('error', (e) => on.error(e));
  s.on('close', () => on.close());
  s.on('data', (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (let nl = buf.indexOf(10); nl >= 0 && !s.destroyed; nl = buf.indexOf(10)) {
      const line = buf.toString('utf8', 0, nl);
      buf = buf.subarray(nl + 1);
      let m: unknown;
      try {
        m = JSON.parse(line);
      } catch {
        m = undefined;
      }
      if (typeof m !== 'object' || m === null) return on.garbled();
      on.message(m as Record<string, unknown>);
    }
  });
  return {
    send: (message) => {
      if (!s.destroyed) s.write(JSON.stringify(message) + '\n');
    },
    destroy: () => s.destroy(),
  };
}

/** Whether stdin, stdout and stderr are terminals, and their widths: what the daemon formats for. */
export function terminalFacts() {
  const tty = (fd: 1 | 2) => {
    const on = isatty(fd);
    // The process.stdout getter builds a stream: asked only for a terminal's width.
    return { tty: on, columns: on ? (fd === 1 ? process.stdout : process.stderr).columns : undefined };
  };
  return { stdinTTY: isatty(0), out: tty(1), err: tty(2) };
}

/** Whether a person may be asked questions mid-call: stdin and stderr are terminals. */
export function interactive(): boolean {
  return isatty(0) && isatty(2);
}
