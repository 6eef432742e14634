// One `select` or `run` through a resident daemon (see daemon-client.js for where it lives and
// why that place is trusted). Resolves to the exit code, or to undefined when the command must
// take the direct path: no daemon, a stale or unsafe socket, another version or protocol, busy.
// The request is committed only by our `go` after the daemon's `ack`; anything that fails before
// that falls back silently, and nothing after it is retried, so a tool never runs twice.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const dc = require('./daemon-client.js');
// isatty(fd) instead of process.stdin/stdout/stderr: those getters build stream objects we may never use.
// The socket and isatty come without node:net and node:tty where Node allows it (daemon-wire.js).
const wire = () => require('./daemon-wire.js');
const isatty = (fd) => wire().isatty(fd);

const ACK_TIMEOUT_MS = 2000;
const START_WAIT_MS = 5000;

/** An error as main.ts reports it: one JSON envelope under `--json` (select's --format json too), else text. */
function errorText(argv, code, message, hint) {
  const json = argv.some(
    (a, i) => a === '--json' || a === '--format=json' || (a === '--format' && argv[i + 1] === 'json'),
  );
  return json ? JSON.stringify({ error: { code, message, hint } }) + '\n' : `error: ${message}\nhint: ${hint}\n`;
}

function note(verbose, msg) {
  if (verbose) process.stderr.write(`toolbox: not using the daemon: ${msg}\n`);
}

/**
 * Start a daemon for this project in the background (as `toolbox daemon start` does) and wait for its
 * socket: a new one, not `stale` (a dead daemon's socket, which the new daemon's rename replaces).
 */
async function startDaemon(paths, env, stale) {
  try {
    fs.mkdirSync(path.dirname(paths.dir), { recursive: true, mode: 0o700 });
    fs.mkdirSync(paths.dir, { mode: 0o700 });
  } catch {
    /* exists, or cannot: checked next */
  }
  if (dc.unsafeDir(paths.dir)) return false;
  const log = fs.openSync(paths.log, 'a', 0o600);
  const script = path.join(__dirname, '..', 'dist', 'daemon-main.js');
  const child = require('node:child_process').spawn(process.execPath, [script, '--marker', paths.marker], {
    detached: true,
    stdio: ['ignore', log, log],
    env,
    cwd: path.dirname(paths.marker),
  });
  fs.closeSync(log);
  child.unref();
  // A daemon that exits with a non-zero code will not answer (it could not start, or something that
  // is no daemon of ours holds the project's lock): stop waiting. Code 0 means another one serves.
  let failed = false;
  child.on('exit', (code) => (failed = code !== 0));
  child.on('error', () => (failed = true));
  const until = Date.now() + START_WAIT_MS;
  while (Date.now() < until && !failed) {
    await new Promise((r) => setTimeout(r, 25));
    if (!dc.unsafeEntry(paths.socket, 'socket') && ident(statOf(paths.socket)) !== stale) return true;
  }
  return false;
}

/**
 * Send `argv` to the project's daemon when the user's settings allow it. `opts.version` is the
 * package version (a daemon of another version is never used).
 */
async function tryDaemon(argv, opts = {}) {
  const env = process.env;
  const settings = dc.userSettings(env);
  if (settings.mode === 'off') return undefined;
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  // No socket folder (no daemon ever ran for this user) costs one lstat.
  const bad = dc.unsafeDir(dc.socketDir(env));
  if (bad === 'missing' && settings.mode !== 'on') return undefined;
  if (bad && bad !== 'missing') return note(verbose, bad);
  const version = opts.version ?? dc.packageVersion();
  const paths = dc.daemonPaths(env, process.cwd(), argv, version);
  let sock = bad ? 'missing' : dc.unsafeEntry(paths.socket, 'socket');
  if (sock === 'missing' && settings.mode !== 'on') return undefined;
  // A person at a terminal may be asked questions by the tool mid-call (elicitation): direct.
  if (argv[0] === 'run' && isatty(0) && isatty(2)) return undefined;
  if (sock === 'missing') {
    if (await startDaemon(paths, env)) sock = undefined;
    else return note(verbose, `the daemon did not start (see ${paths.log})`);
  }
  if (sock) return note(verbose, sock);
  const answer = await call(paths, argv, version, verbose);
  if (typeof answer !== 'object') return answer;
  // A dead daemon's socket. Nobody but a daemon ever touches the socket path (a client that removed
  // it could remove a fresh daemon's socket renamed into place meanwhile); `on` starts a new daemon,
  // whose socket replaces it, `auto` runs directly.
  if (settings.mode !== 'on') return undefined;
  if (!(await startDaemon(paths, env, answer.stale)))
    return note(verbose, `the daemon did not start (see ${paths.log})`);
  const again = await call(paths, argv, version, verbose);
  return typeof again === 'object' ? undefined : again;
}

const ident = (st) => (st ? `${st.dev}:${st.ino}` : undefined);

function statOf(file) {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The exit code of `argv` run by the daemon, undefined for the direct path, or `{ stale }` when nobody
 * listens on the socket (ECONNREFUSED: a daemon that died; `stale` is that socket file's dev:ino).
 */
function call(paths, argv, version, verbose) {
  return new Promise((resolve) => {
    // The socket file we try, by identity: after a refused connection, a daemon we start must replace it.
    const tried = ident(statOf(paths.socket));
    const s = wire().connect(paths.socket);
    let state = 'hello'; // hello → running → done
    let buf = Buffer.alloc(0);
    let interrupted = false;
    const send = (o) => {
      if (!s.destroyed) s.write(JSON.stringify(o) + '\n');
    };
    const fallback = (why, value) => {
      if (state !== 'hello') return;
      state = 'done';
      clearTimeout(timer);
      s.destroy();
      note(verbose, why);
      resolve(value);
    };
    const finish = (code) => {
      if (state === 'done') return;
      state = 'done';
      process.off('SIGINT', onSig);
      process.off('SIGTERM', onSig);
      s.destroy(); // nothing follows `exit`: no closing handshake to wait for
      // Everything went out with write(2) already: leave now rather than tear the heap down (measured
      // ~0.5 ms of CPU). Output handed to a stream (a full non-blocking pipe) may still be in it: normal end.
      if (!streamed.size) process.exit(interrupted ? 130 : code);
      resolve(interrupted ? 130 : code);
    };
    const onSig = () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      send({ t: 'cancel' });
    };
    let timer;
    const upFront = dc.commitsUpFront(argv); // one round trip less (see daemon-client.js)
    s.on('connect', () => {
      send({
        op: 'call',
        ...(upFront ? { go: true } : {}),
        proto: dc.PROTO,
        version,
        argv,
        cwd: process.cwd(),
        env: process.env,
        stdinTTY: isatty(0),
        out: { tty: isatty(1), columns: isatty(1) ? process.stdout.columns : undefined },
        err: { tty: isatty(2), columns: isatty(2) ? process.stderr.columns : undefined },
      });
      // Armed once the request is out (the daemon works on it meanwhile). A Unix socket's connect never
      // waits: it succeeds or fails at once, and a failure takes the 'error' path below.
      timer = setTimeout(() => fallback('the daemon did not answer in time'), ACK_TIMEOUT_MS);
    });
    s.on('error', (e) => {
      if (state === 'hello') {
        if (e.code === 'ECONNREFUSED')
          return fallback('nobody listens on the socket (a daemon that died)', { stale: tried });
        return fallback(`cannot connect: ${e.code ?? e.message}`);
      }
    });
    s.on('close', () => {
      if (state === 'hello') return fallback('the daemon closed the connection');
      if (state !== 'running') return;
      const message = 'the toolbox daemon went away during the call; it is not retried (the tool may have run)';
      const hint = 'Run the command again; `toolbox daemon status` shows whether a daemon runs.';
      process.stderr.write(errorText(argv, 'daemon_lost', message, hint));
      finish(dc.DAEMON_LOST_EXIT);
    });
    // Bytes, not setEncoding('utf8'): a line is split at '\n' (never inside a UTF-8 sequence), and
    // string_decoder is not loaded.
    s.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      let nl;
      while ((nl = buf.indexOf(10)) >= 0) {
        const line = buf.toString('utf8', 0, nl);
        buf = buf.subarray(nl + 1);
        let m;
        try {
          m = JSON.parse(line);
        } catch {
          return state === 'hello' ? fallback('protocol error') : s.destroy();
        }
        if (state === 'hello') {
          if (m.t !== 'ack') return fallback(m.reason ?? 'refused');
          clearTimeout(timer);
          state = 'running';
          process.on('SIGINT', onSig);
          process.on('SIGTERM', onSig);
          if (!upFront) send({ t: 'go' });
        } else if (m.t === 'o') write(1, m.d);
        else if (m.t === 'e') write(2, m.d);
        else if (m.t === 'in?') readStdin().then((d) => send({ t: 'in', d }));
        else if (m.t === 'exit') finish(m.code);
      }
    });
    const gone = () => {
      // The reader went away (`toolbox select … | head`): not an error, as on the direct path.
      send({ t: 'cancel' });
      process.exit(0);
    };
    // Any other write error (`> /dev/full`: ENOSPC, EIO…): said on stderr if that still works, exit 74,
    // as on the direct path (src/main.ts outputError).
    const broken = (fd, e) => {
      send({ t: 'cancel' });
      if (fd === 1) {
        const message = `cannot write the output to stdout (${e.code ?? e.message})`;
        const hint = 'Check where stdout goes: a full disk, or a file, pipe or terminal that was closed.';
        try {
          fs.writeSync(2, errorText(argv, 'output_failed', message, hint));
        } catch {
          /* stderr is gone too: the exit code says it */
        }
      }
      process.exit(74);
    };
    // Straight to the file descriptor (no stream object to build); a non-blocking one that is full
    // (EAGAIN) hands the rest, and everything after it, to the stream, which waits for it.
    const streamed = new Set();
    // Looked up only when needed: the process.stdout getter builds a stream and makes the fd non-blocking.
    const streamOf = (fd) => (fd === 1 ? process.stdout : process.stderr);
    const write = (fd, d) => {
      if (streamed.has(fd)) return void streamOf(fd).write(d);
      const b = Buffer.from(d, 'utf8');
      let off = 0;
      try {
        while (off < b.length) off += fs.writeSync(fd, b, off, b.length - off);
      } catch (e) {
        if (e.code === 'EPIPE') return gone();
        if (e.code !== 'EAGAIN') return broken(fd, e);
        streamed.add(fd);
        const stream = streamOf(fd);
        stream.on('error', (err) => {
          if (err.code === 'EPIPE') gone();
          else broken(fd, err);
        });
        stream.write(b.subarray(off));
      }
    };
  });
}

async function readStdin() {
  if (isatty(0)) return null;
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

module.exports = { tryDaemon };
