// One `select` or `run` sent to a daemon that listens. The request is committed only by our `go`
// after the daemon's `ack` (or up front, for a command that may run twice: paths.ts commitsUpFront);
// anything that fails before that falls back to the direct path silently, and nothing after it is
// retried, so a tool never runs twice.
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { ExitCode } from '../../errors.js';
import { commitsUpFront, PROTO, type DaemonPaths } from '../paths.js';
import { errorText, note, Relay } from './relay.js';
import { openWire, terminalFacts } from './wire.js';

const ACK_TIMEOUT_MS = 2000;

/** Nobody listens on the socket (ECONNREFUSED: a daemon that died); `stale` is that socket file's dev:ino. */
export interface Stale {
  stale: string | undefined;
}

/** The exit code of `argv` run by the daemon, undefined for the direct path, or Stale. */
export function call(
  paths: DaemonPaths,
  argv: string[],
  o: { version: string; verbose: boolean; socketId: string | undefined },
): Promise<number | undefined | Stale> {
  return new Promise((resolve) => {
    let state: 'hello' | 'running' | 'done' = 'hello';
    let interrupted = false;
    let timer: NodeJS.Timeout | undefined;
    const upFront = commitsUpFront(argv); // one round trip less
    const fallback = (why: string, value?: Stale) => {
      if (state !== 'hello') return;
      state = 'done';
      clearTimeout(timer);
      wire.destroy();
      note(o.verbose, why);
      resolve(value);
    };
    const finish = (code: number) => {
      if (state === 'done') return;
      state = 'done';
      process.off('SIGINT', onSig);
      process.off('SIGTERM', onSig);
      wire.destroy(); // nothing follows `exit`: no closing handshake to wait for
      const exit = interrupted ? ExitCode.cancelled : code;
      // Everything went out with write(2) already: leave now rather than tear the heap down (measured
      // ~0.5 ms of CPU). Output handed to a stream (a full non-blocking pipe) may still be in it: normal end.
      if (!relay.streamed.size) process.exit(exit);
      resolve(exit);
    };
    const onSig = () => {
      if (interrupted) process.exit(ExitCode.cancelled);
      interrupted = true;
      wire.send({ t: 'cancel' });
    };
    const relay = new Relay({
      gone: () => {
        wire.send({ t: 'cancel' });
        process.exit(0);
      },
      // As on the direct path (main.ts outputError): said on stderr if that still works, exit 74.
      broken: (fd, e) => {
        wire.send({ t: 'cancel' });
        if (fd === 1) {
          const message = `cannot write the output to stdout (${e.code ?? e.message})`;
          const hint = 'Check where stdout goes: a full disk, or a file, pipe or terminal that was closed.';
          try {
            writeSync(2, errorText(argv, 'output_failed', message, hint));
          } catch {
            /* stderr is gone too: the exit code says it */
          }
        }
        process.exit(ExitCode.output);
      },
    });
    const wire = openWire(paths.socket, {
      connect() {
        const request = { op: 'call', ...(upFront ? { go: true } : {}), proto: PROTO, version: o.version, argv };
        wire.send({ ...request, cwd: process.cwd(), env: process.env, ...terminalFacts() });
        // Armed once the request is out (the daemon works on it meanwhile). A Unix socket's connect never
        // waits: it succeeds or fails at once, and a failure takes the error path below.
        timer = setTimeout(() => fallback('the daemon did not answer in time'), ACK_TIMEOUT_MS);
      },
      error(e) {
        if (state !== 'hello') return;
        if (e.code === 'ECONNREFUSED')
          return fallback('nobody listens on the socket (a daemon that died)', { stale: o.socketId });
        fallback(`cannot connect: ${e.code ?? e.message}`);
      },
      close() {
        if (state === 'hello') return fallback('the daemon closed the connection');
        if (state !== 'running') return;
        const message = 'the toolbox daemon went away during the call; it is not retried (the tool may have run)';
        const hint = 'Run the command again; `toolbox daemon status` shows whether a daemon runs.';
        process.stderr.write(errorText(argv, 'daemon_lost', message, hint));
        finish(ExitCode.daemonLost);
      },
      garbled() {
        if (state === 'hello') fallback('protocol error');
        else wire.destroy();
      },
      message(m) {
        if (state === 'hello') {
          if (m.t !== 'ack') return fallback(typeof m.reason === 'string' ? m.reason : 'refused');
          clearTimeout(timer);
          state = 'running';
          if (o.verbose) relay.write(2, `toolbox: answered by the daemon${served(m)}\n`);
          process.on('SIGINT', onSig);
          process.on('SIGTERM', onSig);
          if (!upFront) wire.send({ t: 'go' });
        } else if (m.t === 'o') relay.write(1, String(m.d));
        else if (m.t === 'e') relay.write(2, String(m.d));
        else if (m.t === 'in?') void readStdin().then((d) => wire.send({ t: 'in', d }));
        else if (m.t === 'exit') finish(typeof m.code === 'number' ? m.code : ExitCode.internal);
      },
    });
  });
}

/** What --verbose says about how the daemon served: its pid, the pool, and whose program lookup. */
function served(m: Record<string, unknown>): string {
  const pid = typeof m.pid === 'number' ? `pid ${m.pid}` : 'pid ?';
  const pool = typeof m.pool === 'string' ? `, pool ${m.pool}` : '';
  if (m.serve === 'own')
    return ` (${pid}${pool} of this caller's own: ${typeof m.why === 'string' ? m.why : 'its programs differ'})`;
  return ` (${pid}${pool}; the daemon's own interpreter, sandbox tier and user folders)`;
}

async function readStdin(): Promise<string | null> {
  if (isatty(0)) return null;
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
