"""toolbox python runner: imports a tool's module and calls one function with keyword arguments.

One-shot mode (default): reads {"root", "module", "function", "args"} as JSON on stdin, writes one
JSON reply on the private result channel (fd in env TOOLBOX_RESULT_FD).
Worker mode (--worker): reads {"root", "module", "function"} from the first stdin line, imports once,
replies {"ready": true}, then answers {"id", "args"} request lines, one reply line each. Replies go
on a private copy of the original stdout, prefixed with \\x1e; fd 1 itself is pointed at stderr so
that nothing the tool prints (even from subprocesses) can corrupt them.

Replies: {"ok": true, "result": ...} or {"ok": false, "error": {"kind", "type", "message", "traceback"}}
with kind one of: module_not_found, import_failed, function_not_found, exception, bad_call (the
arguments do not fit the function's signature), not_serializable.
"""
# Only what every call needs is imported up front (asyncio alone costs ~40 ms); the rest is imported
# where it is used, on the error and fallback paths.
import importlib
import io
import json
import os
import sys

RS = "\x1e"
LOG_CAP = 64 * 1024


def _err(kind, type_, message, tb=None):
    return {"ok": False, "error": {"kind": kind, "type": type_, "message": message, "traceback": tb}}


def _suggest(name, candidates):
    import difflib
    close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.5)
    return "; did you mean " + " or ".join("'%s'" % c for c in close) + "?" if close else ""


def _siblings(parent, root):
    """Module names that exist under a package (or at the top level of the project root)."""
    try:
        import pkgutil
        if parent:
            pkg = importlib.import_module(parent)
            paths = getattr(pkg, "__path__", None) or []
        else:
            paths = [root]
        return sorted(m.name for m in pkgutil.iter_modules(paths))
    except Exception:
        return []


def _helper():
    """The toolbox_tool module (content builders, progress, log, elicit, sample), importable by tools."""
    mod = sys.modules.get("toolbox_tool")
    if mod is None:
        import importlib.util
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "toolbox_tool.py")
        spec = importlib.util.spec_from_file_location("toolbox_tool", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["toolbox_tool"] = mod
        spec.loader.exec_module(mod)
    return mod


class _WorkerChannel:
    """A call's line to the caller in worker mode: notifications out, questions out and answers in."""

    def __init__(self, write, read_line, call_id):
        self.write, self.read_line, self.id, self.rid = write, read_line, call_id, 0

    def notify(self, method, params):
        self.write({"id": self.id, "notify": {"method": method, "params": params}})

    def ask(self, method, params, key=None):
        q = {"method": method, "params": params}
        if key is not None:
            q["key"] = key
        return self._send(q, method)

    def ask_many(self, questions):
        return self._send({"questions": questions}, ", ".join(q["method"] for q in questions))

    def _send(self, body, what):
        self.rid += 1
        self.write({"id": self.id, "ask": dict(body, rid=self.rid)})
        while True:
            line = self.read_line()
            if not line:
                raise _helper().ToolClientError("the caller went away before answering %s" % what)
            answer = (json.loads(line) if line.strip() else {}).get("answer")
            if answer and answer.get("rid") == self.rid:
                if answer.get("error"):
                    raise _helper().ToolClientError(answer["error"].get("message") or "%s failed" % what)
                return answer.get("result")


class _StderrChannel:
    """One-shot runs (toolbox run): progress and log lines go to stderr; nobody can answer questions."""

    def notify(self, method, params):
        if method == "background":
            return
        if method == "progress":
            total = "/%s" % params["total"] if "total" in params else ""
            line = "progress %s%s %s" % (params["progress"], total, params.get("message", ""))
        else:
            line = "%s: %s" % (params["level"], params["data"])
        sys.stderr.write(line.rstrip() + "\n")

    def ask(self, method, params, key=None):
        raise _helper().ToolClientError(
            "%s needs an MCP client that supports it: call this tool through `toolbox serve`" % method)

    def ask_many(self, questions):
        return self.ask(", ".join(q["method"] for q in questions), None)


_SOURCE_ONLY = []


def _source_only(root):
    """The project's modules are compiled from their source on every import: a planted
    __pycache__/*.pyc (an unchecked-hash one is loaded without looking at the source) or a sourceless
    .pyc beside it is never read, so what runs is what toolbox.lock pinned. Only the project's folders
    get this finder; the standard library and installed packages keep their own bytecode (a global
    PYTHONPYCACHEPREFIX would compile all of them again on every call: 3-4x slower start)."""
    if _SOURCE_ONLY:
        return
    import importlib.machinery as m

    class SourceOnlyLoader(m.SourceFileLoader):
        def get_code(self, fullname):
            return self.source_to_code(self.get_data(self.path), self.path)

    finder = m.FileFinder.path_hook((m.ExtensionFileLoader, m.EXTENSION_SUFFIXES),
                                    (SourceOnlyLoader, m.SOURCE_SUFFIXES))
    top = os.path.abspath(root)
    prefix = os.path.join(top, "")

    def hook(path):
        p = os.path.abspath(path or os.getcwd())
        if p == top or p.startswith(prefix):
            return finder(p)
        raise ImportError("not the project")

    sys.path_hooks.insert(0, hook)
    for p in list(sys.path_importer_cache):
        if p and (os.path.abspath(p) == top or os.path.abspath(p).startswith(prefix)):
            del sys.path_importer_cache[p]
    sys.dont_write_bytecode = True
    _SOURCE_ONLY.append(top)


def load_function(root, module_name, function_name):
    """Import the module and return (function, None) or (None, error reply)."""
    import traceback  # cheap next to any tool import, and every failure path needs it
    _helper()
    _source_only(root)
    if root not in sys.path:
        sys.path.insert(0, root)
    try:
        mod = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        missing = e.name or ""
        if missing and (module_name == missing or module_name.startswith(missing + ".")):
            parent, _, last = missing.rpartition(".")
            names = _siblings(parent, root)
            where = "package %s" % parent if parent else "the project root %s" % root
            listing = (" (modules there: %s)" % ", ".join(names[:20])) if names else ""
            msg = "no module named '%s' in %s%s%s" % (missing, where, listing, _suggest(last, names))
            return None, _err("module_not_found", "ModuleNotFoundError", msg, traceback.format_exc())
        return None, _err("import_failed", type(e).__name__,
                          "importing %s failed: %s" % (module_name, e), traceback.format_exc())
    except BaseException as e:  # a module that raises (or exits) while importing
        return None, _err("import_failed", type(e).__name__,
                          "importing %s failed: %s: %s" % (module_name, type(e).__name__, e), traceback.format_exc())
    fn = getattr(mod, function_name, None)
    if not callable(fn):
        names = sorted(n for n, v in vars(mod).items()
                       if callable(v) and not n.startswith("_") and not isinstance(v, type)
                       and getattr(v, "__module__", None) == mod.__name__)
        what = "has no function '%s'" % function_name if fn is None else "attribute '%s' is not callable" % function_name
        msg = "module %s %s%s (functions: %s)" % (module_name, what, _suggest(function_name, names), ", ".join(names) or "none")
        return None, _err("function_not_found", "AttributeError", msg)
    return fn, None


def _fallback(o):
    """Values JSON cannot hold but that have one obvious reading (documented in docs/loaders.md)."""
    import dataclasses
    import datetime
    import decimal
    import enum
    import uuid
    if isinstance(o, (datetime.datetime, datetime.date, datetime.time)):
        return o.isoformat()
    if isinstance(o, (decimal.Decimal, uuid.UUID)):
        return str(o)
    if isinstance(o, (set, frozenset)):
        try:
            return sorted(o)
        except TypeError:
            return list(o)
    if isinstance(o, enum.Enum):
        return o.value
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        return dataclasses.asdict(o)
    if hasattr(o, "model_dump"):  # pydantic v2
        return o.model_dump(mode="json")
    if isinstance(o, (bytes, bytearray)):
        try:
            return o.decode("utf-8")
        except UnicodeDecodeError:
            pass
    raise TypeError("a value of type %s is not JSON-serialisable" % type(o).__name__)


def encode(reply):
    try:
        return json.dumps(reply, ensure_ascii=False, default=_fallback, allow_nan=False)
    except (TypeError, ValueError) as e:
        msg = "the function returned a result that cannot be sent as JSON: %s" % e
        safe = {k: v for k, v in reply.items() if k in ("id", "logs", "cpu")}
        safe.update(_err("not_serializable", type(e).__name__, msg))
        return json.dumps(safe, ensure_ascii=False)


def call(fn, args, channel=None):
    helper = sys.modules.get("toolbox_tool")
    if helper is not None:
        helper._channel = channel
    try:
        out = fn(**args)
        if hasattr(out, "__await__"):  # coroutines, futures, any awaitable
            out = _loop().run_until_complete(_await(out))
        return {"ok": True, "result": out}
    except BaseException as e:  # SystemExit and KeyboardInterrupt from tool code are failures too
        r = _err("exception", type(e).__name__, "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__,
                 _tool_traceback(e))
        # ValueError is how a tool rejects its arguments: the caller's fault, not counted by the breaker.
        if isinstance(e, ValueError):
            r["error"]["rejected"] = True
        # A TypeError about the call's own signature (an unexpected or missing keyword of the tool
        # function itself) is the caller's mistake too; one raised deeper inside the tool is not.
        elif isinstance(e, TypeError) and _signature_mismatch(fn, args, e):
            r["error"]["kind"] = "bad_call"
            r["error"]["rejected"] = True
        return r
    finally:
        if helper is not None:
            helper._channel = None


def _signature_mismatch(fn, args, e):
    """Whether the arguments cannot be bound to the tool function's parameters (inspect follows
    __wrapped__, so a decorated function is judged by its real signature). The TypeError must also
    have been raised at the call itself or by a wrapper's own frame: a deep TypeError with arguments
    that a changed signature happens not to bind is still the tool's."""
    import inspect
    try:
        inspect.signature(fn).bind(**args)
        return False
    except TypeError:
        pass
    except ValueError:  # no signature to read (some builtins)
        return False
    tb, depth = e.__traceback__, 0
    while tb is not None and tb.tb_next is not None:
        tb, depth = tb.tb_next, depth + 1
    return depth <= 1


def _tool_traceback(e):
    """The traceback without the runner's own frame, so it starts in the tool's code."""
    import traceback
    tb = e.__traceback__
    if tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(e), e, tb))


async def _await(aw):
    return await aw


_event_loop = None


def _loop():
    """One event loop for the process: a worker's module state (clients, sessions) may be bound to it."""
    global _event_loop
    import asyncio
    if _event_loop is None:
        _event_loop = asyncio.new_event_loop()
        asyncio.set_event_loop(_event_loop)
    return _event_loop


def cpu_seconds():
    try:
        import resource
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    except Exception:
        return 0.0


class _Capture(io.TextIOBase):
    """sys.stdout/sys.stderr in worker mode: forwards to real stderr and keeps a per-call copy."""

    def __init__(self, real):
        self.real = real
        self.buf = []
        self.size = 0

    def write(self, s):
        self.real.write(s)
        if self.size < LOG_CAP:
            self.buf.append(s)
            self.size += len(s)
        return len(s)

    def flush(self):
        self.real.flush()

    def take(self):
        s = "".join(self.buf)[:LOG_CAP]
        self.buf, self.size = [], 0
        return s


_WORK = os.environ.get("TOOLBOX_SCRATCH") or os.environ.get("TMPDIR") or os.getcwd()


def _enter_scratch(call_id):
    """Worker mode: each call gets its own empty scratch folder (TOOLBOX_SCRATCH, TMPDIR, HOME, cwd),
    removed after the call, as a one-shot run's whole work folder is."""
    path = os.path.join(_WORK, "call-%s" % call_id)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    for k in ("TOOLBOX_SCRATCH", "TMPDIR", "HOME"):
        os.environ[k] = path
    tf = sys.modules.get("tempfile")
    if tf is not None:
        tf.tempdir = None  # computed again from TMPDIR
    os.chdir(path)
    return path


def _leave_scratch(path):
    if path is None:
        return
    import shutil
    os.chdir(_WORK)
    for k in ("TOOLBOX_SCRATCH", "TMPDIR", "HOME"):
        os.environ[k] = _WORK
    shutil.rmtree(path, ignore_errors=True)


def one_shot():
    req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    fd = int(os.environ.get("TOOLBOX_RESULT_FD", "0") or 0)
    if fd <= 0:  # no private channel: keep a private copy of stdout for the reply
        fd = os.dup(1)
    # Everything the tool writes to fd 1 (prints, subprocesses) lands in stderr, in order.
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    fn, reply = load_function(req["root"], req["module"], req["function"])
    if fn is not None:
        reply = call(fn, req.get("args") or {}, _StderrChannel())
    data = encode(reply).encode("utf-8")
    sys.stderr.flush()
    with os.fdopen(fd, "wb", closefd=True) as out:
        out.write(data)


def worker():
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    capture = _Capture(sys.stderr)
    sys.stdout = sys.stderr = capture

    def write(msg):
        proto.write(RS + encode(msg) + "\n")
        proto.flush()

    def send(reply):
        reply["cpu"] = cpu_seconds()
        write(reply)

    hello = json.loads(requests.readline())
    fn, reply = load_function(hello["root"], hello["module"], hello["function"])
    if fn is None:
        reply["logs"] = capture.take()
        send(reply)
        return
    send({"ready": True, "logs": capture.take()})
    while True:
        line = requests.readline()
        if not line:
            break
        if not line.strip():
            continue
        req = json.loads(line)
        if "id" not in req:
            continue  # a late answer to a question the tool stopped waiting for
        channel = _WorkerChannel(write, requests.readline, req.get("id"))
        scratch = _enter_scratch(req.get("id"))
        try:
            reply = call(fn, req.get("args") or {}, channel)
        finally:
            _leave_scratch(scratch)
        reply["id"] = req.get("id")
        capture.flush()
        reply["logs"] = capture.take()
        send(reply)


if __name__ == "__main__":
    if os.environ.get("TOOLBOX_EGRESS_SOCKET"):
        # The network is open: the proxy port and variables exist before the tool's code runs.
        import toolbox_egress

        toolbox_egress.setup()
    # Python put this runner's folder first on sys.path; a tool module must not resolve against it.
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        sys.path.pop(0)
    if "--worker" in sys.argv[1:]:
        worker()
    else:
        one_shot()
