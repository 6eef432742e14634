# toolbox validate: does each python_function tool's module exist, and does it define the function?
# Run with `python3 -I -B -c <this text>` inside the sandbox, with only the tools' own top-level
# packages bound. It never imports the tools: it parses their source with `ast` and reads which names
# the module binds at its top level. Reads {"tools": [{"key", "root", "module", "function"}]} on stdin,
# writes one JSON list on stdout, one entry per tool:
#   {"key", "status": "ok" | "unknown" | "no_module" | "no_function" | "syntax", ...details}
# "unknown" means the source cannot say (a star import, a module __getattr__, globals() writes, an
# extension module, an unreadable file): validate then says nothing rather than guess.
import ast
import difflib
import json
import os
import sys

DYNAMIC_CALLS = {"globals", "vars", "setattr", "exec", "eval", "__import__"}


def module_file(root, parts):
    """(path, kind): a module file, a package __init__, a namespace folder, or what is missing."""
    base = os.path.join(root, *parts)
    for cand in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(cand):
            return cand, "source"
    if os.path.isdir(base):
        return base, "namespace"
    parent = os.path.dirname(base)
    if os.path.isdir(parent):
        for name in os.listdir(parent):
            if name.startswith(parts[-1] + ".") and not name.endswith(".py"):
                return os.path.join(parent, name), "other"  # an extension module, bytecode only…
    return None, "missing"


def siblings(root, parts):
    """How deep the module path exists, and the module names there (for "did you mean")."""
    for depth in range(len(parts) - 1, -1, -1):
        d = os.path.join(root, *parts[:depth])
        if os.path.isdir(d):
            names = set()
            for n in os.listdir(d):
                p = os.path.join(d, n)
                if n.endswith(".py") and n != "__init__.py":
                    names.add(n[:-3])
                elif os.path.isdir(p) and not n.startswith((".", "__")):
                    names.add(n)
            return depth, sorted(names)
    return 0, []


def bound_names(tree):
    """Names the module binds at its top level, and whether it may bind others we cannot see."""
    names, dynamic = set(), False

    def targets(t):
        if isinstance(t, ast.Name):
            names.add(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                targets(e)
        elif isinstance(t, ast.Starred):
            targets(t.value)

    def walk(body):
        nonlocal dynamic
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
                if node.name == "__getattr__":
                    dynamic = True
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    targets(t)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets(node.target)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    names.add(a.asname or a.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name == "*":
                        dynamic = True
                    else:
                        names.add(a.asname or a.name)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                targets(node.target)
                walk(node.body)
                walk(node.orelse)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        targets(item.optional_vars)
                walk(node.body)
            elif isinstance(node, (ast.If, ast.While)):
                walk(node.body)
                walk(node.orelse)
            elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
                walk(node.body)
                for h in node.handlers:
                    if h.name:
                        names.add(h.name)
                    walk(h.body)
                walk(node.orelse)
                walk(node.finalbody)
            elif type(node).__name__ == "Match":
                for case in node.cases:
                    walk(case.body)
            # A walrus or a dynamic call anywhere at the top level (not inside functions).
            for sub in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ():
                if isinstance(sub, ast.NamedExpr):
                    targets(sub.target)
                elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in DYNAMIC_CALLS:
                    dynamic = True
                elif isinstance(sub, ast.Attribute) and sub.attr in ("__dict__", "modules"):
                    dynamic = True

    walk(tree.body)
    return names, dynamic


def functions(tree):
    return sorted(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and not n.name.startswith("_"))


def check(t):
    parts = t["module"].split(".")
    if not all(p.isidentifier() for p in parts):
        return {"status": "unknown"}
    path, kind = module_file(t["root"], parts)
    if kind == "missing":
        depth, names = siblings(t["root"], parts)
        return {"status": "no_module", "missing": ".".join(parts[: depth + 1]), "parent": ".".join(parts[:depth]),
                "names": names[:20], "near": difflib.get_close_matches(parts[depth], names, 3, 0.5)}
    if kind != "source":
        return {"status": "unknown"} if kind == "other" else {"status": "no_function", "namespace": True, "names": []}
    try:
        with open(path, "rb") as f:
            src = f.read()
    except OSError:
        return {"status": "unknown"}
    try:
        tree = ast.parse(src, path)
    except SyntaxError as e:
        return {"status": "syntax", "file": path, "line": e.lineno or 1, "column": e.offset or 1, "message": e.msg}
    except (ValueError, RecursionError, MemoryError):
        return {"status": "unknown"}
    names, dynamic = bound_names(tree)
    if t["function"] in names:
        return {"status": "ok"}
    if dynamic:
        return {"status": "unknown"}
    fns = functions(tree)
    return {"status": "no_function", "file": path, "names": fns[:20],
            "near": difflib.get_close_matches(t["function"], sorted(names), 3, 0.6)}


def main():
    req = json.load(sys.stdin)
    out = []
    for t in req["tools"]:
        try:
            r = check(t)
        except Exception:  # one odd file never hides the others' answers
            r = {"status": "unknown"}
        r["key"] = t["key"]
        out.append(r)
    sys.stdout.write(json.dumps(out))


main()
