"""toolbox dependency checker: one run per interpreter for every Python requirement of every tool.

Reads {"reqs": [{"line": "<PEP 508 line>", "name": "<name guessed by toolbox>"}]} on stdin and
prints one JSON object: the interpreter's facts, its PEP 508 marker environment, the sys.path
folders (toolbox fingerprints their mtimes to know when something was installed), and per line
the installed version plus, when `packaging` (or pip's vendored copy) is importable, the verdict
of the real PEP 440/508 logic. Without packaging, toolbox evaluates the lines in Node instead.
Standard library only; Python 3.6+ syntax.
"""
import json
import os
import platform
import re
import sys


def load_packaging():
    for base in ("packaging", "pip._vendor.packaging"):
        try:
            req_mod = __import__(base + ".requirements", fromlist=["Requirement"])
            ver_mod = __import__(base + ".version", fromlist=["Version"])
            top = __import__(base, fromlist=["__version__"])
            return base, getattr(top, "__version__", None), req_mod.Requirement, ver_mod.Version
        except Exception:
            continue
    return None, None, None, None


def marker_environment():
    # The same keys packaging.markers.default_environment() computes (PEP 508).
    impl = sys.implementation
    iv = impl.version
    impl_version = "{0}.{1}.{2}".format(iv.major, iv.minor, iv.micro)
    if iv.releaselevel != "final":
        impl_version += iv.releaselevel[0] + str(iv.serial)
    return {
        "implementation_name": impl.name,
        "implementation_version": impl_version,
        "os_name": os.name,
        "platform_machine": platform.machine(),
        "platform_release": platform.release(),
        "platform_system": platform.system(),
        "platform_version": platform.version(),
        "python_full_version": platform.python_version(),
        "platform_python_implementation": platform.python_implementation(),
        "python_version": ".".join(platform.python_version_tuple()[:2]),
        "sys_platform": sys.platform,
    }


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


class Installed(object):
    """Installed distribution versions, looked up by canonical name."""

    def __init__(self):
        self.scanned = None
        try:
            import importlib.metadata as md  # Python 3.8+
        except ImportError:
            try:
                import importlib_metadata as md  # the backport, if present
            except ImportError:
                md = None
        self.md = md

    def _scan(self):
        found = {}
        if self.md is not None:
            for dist in self.md.distributions():
                try:
                    n = dist.metadata["Name"]
                except Exception:
                    n = None
                if n and canonical(n) not in found:  # first on sys.path wins, as for imports
                    found[canonical(n)] = dist.version
        else:
            try:
                import pkg_resources
                for dist in pkg_resources.working_set:
                    found.setdefault(canonical(dist.project_name), dist.version)
            except Exception:
                pass
        return found

    def version(self, name):
        if self.md is not None:
            for n in (name, name.replace("-", "_"), name.replace("_", "-")):
                try:
                    return self.md.version(n)
                except Exception:
                    pass
        if self.scanned is None:
            self.scanned = self._scan()
        return self.scanned.get(canonical(name))


def check(item, installed, Requirement, env):
    line = item["line"]
    out = {"name": item.get("name"), "installed": None, "marker": None, "satisfied": None, "specifier": None, "error": None}
    if Requirement is not None:
        try:
            req = Requirement(line)
        except Exception as e:
            out["error"] = "invalid requirement: " + str(e)
            return out
        out["name"] = req.name
        out["specifier"] = str(req.specifier)
        if req.marker is not None:
            try:
                out["marker"] = bool(req.marker.evaluate({"extra": ""}))
            except Exception as e:
                out["error"] = "cannot evaluate marker: " + str(e)
                return out
            if not out["marker"]:
                return out
        if canonical(req.name) == "python":
            version = env["python_full_version"]
        else:
            version = installed.version(req.name)
        out["installed"] = version
        if version is not None:
            try:
                out["satisfied"] = bool(req.specifier.contains(version, prereleases=True))
            except Exception as e:
                out["error"] = "cannot compare version " + version + ": " + str(e)
        return out
    name = item.get("name") or ""
    out["installed"] = env["python_full_version"] if canonical(name) == "python" else installed.version(name)
    return out


def has_module(name):
    try:
        import importlib.util
        return importlib.util.find_spec(name) is not None
    except Exception:
        return False


def main():
    # Running a script puts its folder first on sys.path; the tool will not have it there.
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or ".") == here:
        sys.path.pop(0)
    data = json.loads(sys.stdin.read() or "{}")
    mod, mod_version, Requirement, _ = load_packaging()
    env = marker_environment()
    installed = Installed()
    results = [check(item, installed, Requirement, env) for item in data.get("reqs", [])]
    paths = []
    for p in sys.path:
        if p and os.path.isdir(p) and p not in paths:
            paths.append(os.path.abspath(p))
    json.dump({
        "executable": sys.executable,
        "has_pip": has_module("pip"),
        "has_venv": has_module("venv") and has_module("ensurepip"),
        "version": platform.python_version(),
        "prefix": sys.prefix,
        "base_prefix": getattr(sys, "base_prefix", sys.prefix),
        "packaging": mod,
        "packaging_version": mod_version,
        "env": env,
        "paths": paths,
        "results": results,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
