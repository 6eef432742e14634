// The daemon client's connection to its Unix socket, without node:net when Node allows it.
//
// Why: `require('node:net')` brings in the whole stream stack (28 modules), and a net.Socket's
// machinery around one request/answer costs more again: measured ~6 ms of CPU per client process
// against ~0.3 ms for the same exchange on the raw libuv pipe handle that net.Socket itself wraps
// (bench/cputime.py, see the daemon client's note). A `select` through the daemon is dominated by
// exactly that start-up cost.
//
// How: process.binding('pipe_wrap') / ('stream_wrap') are the handles net.js uses, reached through
// Node's documented (deprecated, still supported) allow-list. Everything is checked before use; if
// anything is missing or shaped differently (another Node version, --experimental-permission), the
// client uses node:net as before. Behaviour is the same either way: the same bytes, the same events
// ('connect', 'data', 'error', 'close') as the subset of net.Socket that daemon-call.js uses.
'use strict';

/** The internal bindings, or undefined when they are not there as expected (then node:net is used). */
let bindings;
function rawBindings() {
  if (bindings !== undefined) return bindings || undefined;
  bindings = false;
  if (process.env.TOOLBOX_DAEMON_NET === '1' || typeof process.binding !== 'function') return undefined;
  // --pending-deprecation would print DEP0111 on stderr, which would change the command's output.
  const quiet = process.noDeprecation;
  try {
    process.noDeprecation = true;
    const pipe = process.binding('pipe_wrap');
    const stream = process.binding('stream_wrap');
    const tty = process.binding('tty_wrap');
    const ok =
      typeof pipe.Pipe === 'function' &&
      typeof pipe.PipeConnectWrap === 'function' &&
      typeof pipe.constants?.SOCKET === 'number' &&
      typeof stream.WriteWrap === 'function' &&
      stream.streamBaseState instanceof Int32Array &&
      typeof stream.kReadBytesOrError === 'number' &&
      typeof stream.kArrayBufferOffset === 'number' &&
      typeof stream.kLastWriteWasAsync === 'number' &&
      typeof tty.isTTY === 'function' &&
      ['connect', 'readStart', 'writeUtf8String', 'close'].every((m) => typeof pipe.Pipe.prototype[m] === 'function');
    if (ok) bindings = { pipe, stream, tty };
  } catch {
    /* not allowed here (permission model) or removed: node:net */
  } finally {
    process.noDeprecation = quiet;
  }
  return bindings || undefined;
}

/** isatty(fd) as node:tty answers it, without loading node:tty (which loads node:net). */
function isatty(fd) {
  const b = rawBindings();
  return b ? b.tty.isTTY(fd) : require('node:tty').isatty(fd);
}

const errorOf = (status, syscall) => {
  const code = require('node:util').getSystemErrorName(status);
  return Object.assign(new Error(`${syscall} ${code}`), { code, errno: status, syscall });
};

/**
 * A connection on the libuv pipe handle: write(string), destroy(), `destroyed`, and the events
 * 'connect', 'data' (Buffer), 'error' (an Error with `code`) and 'close' (once, last).
 */
class RawSocket {
  constructor(b, path) {
    this.b = b;
    this.handlers = { connect: [], data: [], error: [], close: [] };
    this.destroyed = false;
    this.connected = false;
    this.pending = []; // writes before 'connect'
    this.handle = new b.pipe.Pipe(b.pipe.constants.SOCKET);
    const req = new b.pipe.PipeConnectWrap();
    req.oncomplete = (status) => this.connectDone(status);
    const err = this.handle.connect(req, path);
    // As net.Socket does: errors are reported after the caller attached its handlers.
    if (err) process.nextTick(() => this.fail(errorOf(err, 'connect')));
  }

  on(event, fn) {
    this.handlers[event].push(fn);
    return this;
  }

  emit(event, arg) {
    for (const fn of this.handlers[event]) fn(arg);
  }

  connectDone(status) {
    if (this.destroyed) return;
    if (status < 0) return this.fail(errorOf(status, 'connect'));
    this.connected = true;
    const { streamBaseState, kReadBytesOrError, kArrayBufferOffset } = this.b.stream;
    this.handle.onread = (ab) => {
      const n = streamBaseState[kReadBytesOrError];
      if (n > 0) return void this.emit('data', Buffer.from(ab, streamBaseState[kArrayBufferOffset], n));
      if (n === 0) return;
      // End of stream (the daemon closed), or a read error: both end the connection, as net's does.
      if (n === -4095 /* UV_EOF */) this.destroy();
      else this.fail(errorOf(n, 'read'));
    };
    const err = this.handle.readStart();
    if (err) return this.fail(errorOf(err, 'read'));
    for (const s of this.pending.splice(0)) this.write(s);
    this.emit('connect');
  }

  write(s) {
    if (this.destroyed) return false;
    if (!this.connected) return void this.pending.push(s);
    const { WriteWrap, streamBaseState, kLastWriteWasAsync } = this.b.stream;
    const req = new WriteWrap();
    req.handle = this.handle;
    req.oncomplete = (status) => {
      if (status < 0) this.fail(errorOf(status, 'write'));
    };
    req.async = false;
    const err = this.handle.writeUtf8String(req, s);
    // A write libuv could not finish at once stays queued in it (and in `req`) until it completes.
    req.async = streamBaseState[kLastWriteWasAsync] !== 0;
    if (err) this.fail(errorOf(err, 'write'));
    return true;
  }

  fail(e) {
    if (this.destroyed) return;
    this.emit('error', e);
    this.destroy();
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.handle.onread = () => {};
    if (this.connected) this.handle.readStop();
    this.handle.close(() => this.emit('close'));
  }
}

/** A connection on the raw pipe handle, or undefined when this Node does not offer one. */
function rawConnect(path) {
  const b = rawBindings();
  return b ? new RawSocket(b, path) : undefined;
}

/** A connection to the Unix socket at `path`: raw when Node allows it, else a net.Socket. */
function connect(path) {
  return rawConnect(path) ?? require('node:net').createConnection(path);
}

module.exports = { connect, rawConnect, isatty, rawBindings };
