// toolbox node runner: imports a tool's module and calls one export with ONE argument, the args object.
//
// One-shot mode (default): reads {"root", "module", "function", "args"} as JSON on stdin and writes one
// JSON reply on the private result channel (fd in env TOOLBOX_RESULT_FD).
// Worker mode (--worker): the first stdin line is {"root", "module", "function"}; the module is imported
// once, {"ready": true} is sent, then each {"id", "args"} line gets one reply line. Reply lines start
// with \x1e so that anything else reaching fd 1 (a subprocess of the tool) is not mistaken for one;
// the tool's own process.stdout / console.log are sent to stderr.
//
// Replies: {"ok": true, "result"} or {"ok": false, "error": {"kind", "type", "message", "traceback"}},
// kind one of module_not_found, import_failed, function_not_found, exception, not_serializable.
import { readFileSync, writeSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const RS = '\x1e';
const LOG_CAP = 64 * 1024;

const fail = (kind, type, message, traceback) => ({ ok: false, error: { kind, type, message, traceback } });

let captured = null; // per-call log copy in worker mode
// The tool's writes go to fd 2 synchronously: Node queues writes to a socket-backed stdio in memory,
// so a print loop would never reach the parent (no output limit, only an out-of-memory abort).
const redirect = (chunk, enc, cb) => {
  const s = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (captured && captured.size < LOG_CAP) {
    captured.parts.push(s);
    captured.size += s.length;
  }
  writeAll(2, s);
  const done = typeof enc === 'function' ? enc : cb;
  if (done) process.nextTick(done);
  return true;
};
process.stdout.write = redirect;
process.stderr.write = redirect;

async function loadFunction(root, modulePath, fnName) {
  const file = isAbsolute(modulePath) ? modulePath : resolve(root, modulePath);
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (e) {
    const notFound = e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(file);
    const kind = notFound ? 'module_not_found' : 'import_failed';
    const message = notFound
      ? `module not found: ${file}`
      : `importing ${modulePath} failed: ${e?.name ?? 'Error'}: ${e?.message ?? e}`;
    return { error: fail(kind, e?.name ?? 'Error', message, e?.stack) };
  }
  let fn = mod[fnName];
  // A CommonJS module's exports arrive as `default`; let `function: name` reach into it.
  if (fn === undefined && mod.default && typeof mod.default === 'object') fn = mod.default[fnName];
  if (typeof fn !== 'function') {
    const names = new Set(Object.keys(mod));
    if (mod.default && typeof mod.default === 'object') for (const k of Object.keys(mod.default)) names.add(k);
    const fns = [...names].filter((n) => typeof (mod[n] ?? mod.default?.[n]) === 'function').sort();
    const what = fn === undefined ? `has no export '${fnName}'` : `export '${fnName}' is not a function`;
    return {
      error: fail(
        'function_not_found',
        'TypeError',
        `module ${modulePath} ${what} (function exports: ${fns.join(', ') || 'none'})`,
      ),
    };
  }
  return { fn };
}

/** JSON with the obvious readings of Map, Set and BigInt (documented in docs/loaders.md). */
function encode(reply) {
  try {
    return JSON.stringify(reply, (_k, v) => {
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof Map) return Object.fromEntries(v);
      if (v instanceof Set) return [...v];
      return v;
    });
  } catch (e) {
    const safe = { id: reply.id, logs: reply.logs, cpu: reply.cpu };
    return JSON.stringify({
      ...safe,
      ...fail(
        'not_serializable',
        e?.name ?? 'TypeError',
        `the export returned a result that cannot be sent as JSON: ${e?.message ?? e}`,
      ),
    });
  }
}

async function call(fn, args) {
  try {
    const result = await fn(args ?? {});
    return { ok: true, result: result === undefined ? null : result };
  } catch (e) {
    const type = e instanceof Error ? e.name : typeof e;
    const message = e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`;
    return fail('exception', type, message, e instanceof Error ? e.stack : undefined);
  }
}

function writeAll(fd, text) {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function oneShot() {
  const req = JSON.parse(readFileSync(0, 'utf8'));
  const fd = Number(process.env.TOOLBOX_RESULT_FD || 0);
  const { fn, error } = await loadFunction(req.root, req.module, req.function);
  const reply = error ?? (await call(fn, req.args));
  // fd 1 is the fallback when there is no private channel; the tool's prints went to stderr anyway.
  writeAll(fd > 0 ? fd : 1, encode(reply));
}

async function worker() {
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const send = (reply) => writeAll(1, RS + encode({ ...reply, cpu: cpuSeconds() }) + '\n');
  const take = () => {
    const s = captured.parts.join('').slice(0, LOG_CAP);
    captured = { parts: [], size: 0 };
    return s;
  };
  captured = { parts: [], size: 0 };
  const first = await lines.next();
  if (first.done) return;
  const hello = JSON.parse(first.value);
  const { fn, error } = await loadFunction(hello.root, hello.module, hello.function);
  if (error) {
    send({ ...error, logs: take() });
    return;
  }
  send({ ready: true, logs: take() });
  for (;;) {
    const next = await lines.next();
    if (next.done) break;
    if (!next.value.trim()) continue;
    const req = JSON.parse(next.value);
    const reply = await call(fn, req.args);
    send({ ...reply, id: req.id, logs: take() });
  }
}

await (process.argv.includes('--worker') ? worker() : oneShot());
// Tools may leave timers or sockets open; the reply is out, so do not wait for them.
process.exit(0);
