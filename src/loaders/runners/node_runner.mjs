// toolbox node runner: imports a tool's module and calls one export with the args object and a tool
// context (content builders; progress, log, elicit, sample: see toolContext below).
//
// One-shot mode (default): reads {"root", "module", "function", "args"} as JSON on stdin and writes one
// JSON reply on the private result channel (fd in env TOOLBOX_RESULT_FD).
// Worker mode (--worker): the first stdin line is {"root", "module", "function"}; the module is imported
// once, {"ready": true} is sent, then each {"id", "args"} line gets one reply line. Reply lines start
// with \x1e so that anything else reaching fd 1 (a subprocess of the tool) is not mistaken for one;
// the tool's own process.stdout / console.log are sent to stderr. During a call the runner may also
// send {"id", "notify": {method, params}} and {"id", "ask": {rid, method, params, key?} | {rid, questions}}; the host answers
// a question with the stdin line {"answer": {rid, result | error}}.
//
// Replies: {"ok": true, "result"} or {"ok": false, "error": {"kind", "type", "message", "traceback"}},
// kind one of module_not_found, import_failed, function_not_found, exception, bad_call (the arguments do
// not fit the function's parameter list), not_serializable.
import { mkdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
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
    // The tool's own file is missing only when Node names it as the module ("Cannot find module '<file>'");
    // "Cannot find package 'x' imported from <file>" is a dependency of a file that exists.
    const notFound = e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(`'${file}'`);
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

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const b64 = (data) => (typeof data === 'string' ? data : Buffer.from(data).toString('base64'));
const textBlock = (text) => ({ type: 'text', text: String(text) });

/**
 * The second argument of every tool call: content builders, and the caller's side of the call
 * (progress, log; elicit and sample under `toolbox serve` with an MCP client). `channel` is
 * { notify(method, params), ask({ method, params, key? } | { questions }) -> Promise }.
 */
function toolContext(channel) {
  return {
    text: textBlock,
    image: (data, mimeType) => ({ type: 'image', data: b64(data), mimeType }),
    audio: (data, mimeType) => ({ type: 'audio', data: b64(data), mimeType }),
    resource: (uri, { text, blob, mimeType } = {}) => ({
      type: 'resource',
      resource: {
        uri,
        ...(mimeType ? { mimeType } : {}),
        ...(text !== undefined ? { text } : { blob: b64(blob ?? '') }),
      },
    }),
    resourceLink: (uri, name, extra = {}) => ({ type: 'resource_link', uri, name, ...extra }),
    result: (blocks, structured) => ({
      content: blocks.map((b) => (typeof b === 'string' ? textBlock(b) : b)),
      ...(structured !== undefined ? { structuredContent: structured } : {}),
    }),
    progress: (progress, total, message) =>
      channel.notify('progress', {
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      }),
    log: (level, data, logger) => {
      if (!LEVELS.includes(level)) throw new TypeError(`log level must be one of ${LEVELS.join(', ')}`);
      channel.notify('log', { level, data, ...(logger ? { logger } : {}) });
    },
    /** The rest of the call may take long: a client that supports MCP tasks follows it as a task. */
    background: () => channel.notify('background', {}),
    // `key` names a question, so a client's answer finds it when the call runs again (MCP 2026-07-28).
    elicit: (message, requestedSchema, { key } = {}) => askOne(channel, question.elicit(message, requestedSchema, key)),
    sample: (prompt, { key, ...opts } = {}) => askOne(channel, question.sample(prompt, { ...opts, key })),
    roots: async ({ key } = {}) => (await askOne(channel, question.roots(key)))?.roots ?? [],
    /** Several questions answered together: `await tool.ask({ name: tool.question.elicit(...), ... })`. */
    ask: async (questions) => {
      const keys = Object.keys(questions ?? {});
      if (!keys.length) throw new TypeError('ask() needs at least one question');
      const answers = await channel.ask({ questions: keys.map((k) => ({ ...questions[k], key: k })) });
      return Object.fromEntries(keys.map((k, i) => [k, answers?.[i]]));
    },
    question,
  };
}

const withKey = (q, key) => (key === undefined ? q : { ...q, key });
/** Builders for tool.ask(): each returns one question. */
const question = {
  elicit: (message, requestedSchema, key) =>
    withKey({ method: 'elicitation/create', params: { message, requestedSchema } }, key),
  sample: (prompt, { maxTokens = 256, key, ...params } = {}) =>
    withKey(
      {
        method: 'sampling/createMessage',
        params: {
          ...params,
          messages: Array.isArray(prompt) ? prompt : [{ role: 'user', content: textBlock(prompt) }],
          maxTokens,
        },
      },
      key,
    ),
  roots: (key) => withKey({ method: 'roots/list', params: {} }, key),
};

const askOne = (channel, q) => channel.ask(q);

/** One-shot runs (toolbox run): progress and log lines go to stderr; nobody can answer questions. */
const stderrChannel = {
  notify(method, params) {
    if (method === 'background') return;
    const line =
      method === 'progress'
        ? `progress ${params.progress}${params.total !== undefined ? `/${params.total}` : ''} ${params.message ?? ''}`
        : `${params.level}: ${typeof params.data === 'string' ? params.data : JSON.stringify(params.data)}`;
    process.stderr.write(line.trimEnd() + '\n');
  },
  ask: async (q) => {
    const what = q.questions ? q.questions.map((x) => x.method).join(', ') : q.method;
    throw new Error(`${what} needs an MCP client that supports it: call this tool through \`toolbox serve\``);
  },
};

async function call(fn, args, channel = stderrChannel) {
  try {
    const result = await fn(args ?? {}, toolContext(channel));
    return { ok: true, result: result === undefined ? null : result };
  } catch (e) {
    const type = e instanceof Error ? e.name : typeof e;
    const message = e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`;
    const reply = fail('exception', type, message, e instanceof Error ? e.stack : undefined);
    // An error named ValueError (or marked { rejected: true }) is the tool rejecting its arguments.
    if (e instanceof Error && (e.name === 'ValueError' || e.rejected === true)) reply.error.rejected = true;
    // A TypeError from binding the arguments to the function's own parameter list (destructuring
    // a part the caller left out) is the caller's mistake, as Python's signature TypeError is.
    else if (e instanceof TypeError && signatureMismatch(fn, args ?? {})) {
      reply.error.kind = 'bad_call';
      reply.error.rejected = true;
    }
    return reply;
  }
}

/**
 * Whether binding `args` to the parameter list of `fn` alone throws a TypeError: the list is cut
 * from the function's source and bound by a body-less copy. A default that names something of the
 * module (a ReferenceError in the copy) or a list this scanner cannot cut counts as "no": the
 * failure then stays the tool's, the conservative side.
 */
function signatureMismatch(fn, args) {
  const params = parameterList(Function.prototype.toString.call(fn));
  if (params === undefined || !/[{[]/.test(params)) return false; // plain names cannot fail to bind
  let probe;
  try {
    probe = new Function(`"use strict"; return (${params}) => 0;`)();
  } catch {
    return false;
  }
  try {
    probe(args, {});
    return false;
  } catch (p) {
    return p instanceof TypeError;
  }
}

/** The source text between the parentheses of a function's parameter list (strings, comments and nesting skipped). */
function parameterList(src) {
  const open = src.indexOf('(');
  const arrow = src.indexOf('=>');
  if (open < 0 || (arrow >= 0 && arrow < open)) return undefined; // `x => …`: one plain name
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
    } else if (c === '/' && src[i + 1] === '*') i = src.indexOf('*/', i + 2) + 1 || src.length;
    else if (c === '/' && src[i + 1] === '/') i = src.indexOf('\n', i) < 0 ? src.length : src.indexOf('\n', i);
    else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      if (--depth === 0) return c === ')' ? src.slice(open + 1, i) : undefined;
    }
  }
  return undefined;
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

const WORK = process.env.TOOLBOX_SCRATCH || process.env.TMPDIR || process.cwd();
const SCRATCH_VARS = ['TOOLBOX_SCRATCH', 'TMPDIR', 'HOME'];

/** Worker mode: each call gets its own empty scratch folder (TOOLBOX_SCRATCH, TMPDIR, HOME, cwd), removed after it. */
function enterScratch(id) {
  const path = join(WORK, `call-${id}`);
  try {
    mkdirSync(path, { recursive: true });
  } catch {
    return undefined;
  }
  for (const k of SCRATCH_VARS) process.env[k] = path;
  process.chdir(path);
  return path;
}

function leaveScratch(path) {
  if (!path) return;
  process.chdir(WORK);
  for (const k of SCRATCH_VARS) process.env[k] = WORK;
  rmSync(path, { recursive: true, force: true });
}

async function worker() {
  const { createInterface } = await import('node:readline');
  const send = (reply) => writeAll(1, RS + encode({ ...reply, cpu: cpuSeconds() }) + '\n');
  const take = () => {
    const s = captured.parts.join('').slice(0, LOG_CAP);
    captured = { parts: [], size: 0 };
    return s;
  };
  captured = { parts: [], size: 0 };
  // Lines are either requests (queued) or answers to a running call's questions (resolved at once).
  const queued = [];
  const pending = new Map();
  let wake;
  let closed = false;
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line);
    if (msg.answer) {
      const p = pending.get(msg.answer.rid);
      pending.delete(msg.answer.rid);
      if (p && msg.answer.error) p.reject(new Error(msg.answer.error.message ?? 'the caller refused'));
      else p?.resolve(msg.answer.result);
      return;
    }
    queued.push(msg);
    wake?.();
  });
  rl.on('close', () => {
    closed = true;
    wake?.();
    for (const p of pending.values()) p.reject(new Error('the caller went away before answering'));
  });
  const nextLine = async () => {
    while (!queued.length && !closed) await new Promise((r) => (wake = r));
    return queued.shift();
  };
  const first = await nextLine();
  if (!first) return;
  const { fn, error } = await loadFunction(first.root, first.module, first.function);
  if (error) {
    send({ ...error, logs: take() });
    return;
  }
  send({ ready: true, logs: take() });
  let rid = 0;
  for (;;) {
    const req = await nextLine();
    if (!req) break;
    const channel = {
      notify: (method, params) => writeAll(1, RS + encode({ id: req.id, notify: { method, params } }) + '\n'),
      // q: one question { method, params, key? } or several { questions: [...] }.
      ask: (q) =>
        new Promise((resolve, reject) => {
          const n = ++rid;
          pending.set(n, { resolve, reject });
          writeAll(1, RS + encode({ id: req.id, ask: { rid: n, ...q } }) + '\n');
        }),
    };
    const scratch = enterScratch(req.id);
    let reply;
    try {
      reply = await call(fn, req.args, channel);
    } finally {
      leaveScratch(scratch);
    }
    send({ ...reply, id: req.id, logs: take() });
  }
}

// The network is open: the proxy port, variables and Node's own fetch/http routing exist before the tool's code runs.
if (process.env.TOOLBOX_EGRESS_SOCKET) await (await import('./egress.mjs')).setupEgress();
await (process.argv.includes('--worker') ? worker() : oneShot());
// Tools may leave timers or sockets open; the reply is out, so do not wait for them.
process.exit(0);
