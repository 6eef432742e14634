"""toolbox_tool: what a Python tool can use while toolbox runs it (`from toolbox_tool import ...`).

Results beyond one JSON value: return result(text("..."), image(png_bytes, "image/png"), ...), or
the same shape by hand: {"content": [blocks], "structuredContent": {...}}.
Talking to the caller during a call: progress(), log(), and under `toolbox serve` with an MCP
client that supports them, elicit() (ask the user), sample() (ask the client's LLM), roots() (the
client's folders), or ask() for several questions answered together.
The runner provides this module; it is not installed anywhere else.
"""

_channel = None  # set by the runner around each call
LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class ToolClientError(RuntimeError):
    """The caller could not or would not answer (no MCP client, capability missing, refused)."""


def _b64(data):
    import base64
    if isinstance(data, str):
        return data  # already base64
    return base64.b64encode(bytes(data)).decode("ascii")


def text(s):
    return {"type": "text", "text": str(s)}


def image(data, mime_type):
    """An image block: data as bytes (or base64 text), e.g. image(png_bytes, "image/png")."""
    return {"type": "image", "data": _b64(data), "mimeType": mime_type}


def audio(data, mime_type):
    return {"type": "audio", "data": _b64(data), "mimeType": mime_type}


def resource(uri, text=None, blob=None, mime_type=None):
    """An embedded resource: text, or blob (bytes or base64 text)."""
    r = {"uri": uri}
    if mime_type:
        r["mimeType"] = mime_type
    if text is not None:
        r["text"] = text
    else:
        r["blob"] = _b64(blob or b"")
    return {"type": "resource", "resource": r}


def resource_link(uri, name, mime_type=None, description=None):
    b = {"type": "resource_link", "uri": uri, "name": name}
    if mime_type:
        b["mimeType"] = mime_type
    if description:
        b["description"] = description
    return b


def result(*blocks, structured=None):
    """A tool result of content blocks (strings become text blocks), with optional structured content."""
    out = {"content": [text(b) if isinstance(b, str) else b for b in blocks]}
    if structured is not None:
        out["structuredContent"] = structured
    return out


def progress(progress, total=None, message=None):
    """Report progress (forwarded as notifications/progress when the client asked for it)."""
    p = {"progress": progress}
    if total is not None:
        p["total"] = total
    if message is not None:
        p["message"] = message
    if _channel:
        _channel.notify("progress", p)


def log(level, data, logger=None):
    """Send a log message (MCP notifications/message; the client's logging/setLevel filters it)."""
    if level not in LEVELS:
        raise ValueError("log level must be one of " + ", ".join(LEVELS))
    m = {"level": level, "data": data}
    if logger:
        m["logger"] = logger
    if _channel:
        _channel.notify("log", m)


def background():
    """Say that the rest of this call may take long: a client that supports MCP tasks (for a contract
    with mcp.task) stops waiting and follows the call as a task. Elsewhere it does nothing."""
    if _channel:
        _channel.notify("background", {})


def elicit(message, schema, key=None):
    """Ask the user for input: returns {"action": "accept"|"decline"|"cancel", "content": {...}}.

    key names the question (letters, digits, _ . : -): give one when the call may be run again, so a
    client's earlier answer finds its question (MCP 2026-07-28 input-required results).
    """
    return _ask([question.elicit(message, schema, key)])[0]


def sample(prompt, max_tokens=256, key=None, **params):
    """Ask the client's LLM: prompt is a string or a list of MCP sampling messages. Returns the result."""
    return _ask([question.sample(prompt, max_tokens, key, **params)])[0]


def roots(key=None):
    """The client's roots (folders it shares): a list of {"uri", "name"?}."""
    answer = _ask([question.roots(key)])[0]
    return (answer or {}).get("roots", [])


def ask(questions=None, **named):
    """Ask several things at once, answered together: ask(name=question.elicit(...), llm=question.sample(...)),
    or ask({"step:1": question.elicit(...)}) for keys that are not Python names.

    Returns {key: the client's result}.
    """
    questions = dict(questions or {}, **named)
    if not questions:
        raise ValueError("ask() needs at least one question")
    items = [dict(q, key=k) for k, q in questions.items()]
    return dict(zip(questions.keys(), _ask(items, batch=True)))


class question:
    """Builders for ask(): each returns one question."""

    @staticmethod
    def elicit(message, schema, key=None):
        return _q("elicitation/create", {"message": message, "requestedSchema": schema}, key)

    @staticmethod
    def sample(prompt, max_tokens=256, key=None, **params):
        messages = prompt if isinstance(prompt, list) else [{"role": "user", "content": text(prompt)}]
        return _q("sampling/createMessage", dict(params, messages=messages, maxTokens=max_tokens), key)

    @staticmethod
    def roots(key=None):
        return _q("roots/list", {}, key)


def _q(method, params, key):
    q = {"method": method, "params": params}
    if key is not None:
        q["key"] = key
    return q


def _ask(questions, batch=False):
    if not _channel:
        raise ToolClientError("%s needs a caller that can answer (toolbox serve with an MCP client)"
                              % ", ".join(q["method"] for q in questions))
    if batch:
        return _channel.ask_many(questions)
    q = questions[0]
    return [_channel.ask(q["method"], q["params"], q.get("key"))]
