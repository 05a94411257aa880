"""lspd's `sitecustomize`, for the mypy lspd runs in its copy of a project (`mypy_site`):
run by the project's Python, never imported by lspd.

A project installed editable into its own environment (`pip install -e .`, `uv sync`: a
`.pth` file in site-packages naming the project's `src/`) puts the project's own folder on
the interpreter's `sys.path`, which mypy reads as its package path (`pyinfo.getsearchdirs`).
In lspd's copy that folder is the disk's, not the copy's: a module the copy holds deleted
was still found there, and an edit the copy holds was not read. This runs at the
interpreter's start, after site-packages and their `.pth` files are read: every `sys.path`
entry under the project's folder (`copy.json`'s first path), an environment's (a
`pyvenv.cfg` on the way, site-packages, the interpreter's prefixes) aside, is made the
same entry in the copy (its second), in the same place; this folder itself leaves
`sys.path`, and the environment's own `sitecustomize`, if any, is run after it. It prints
nothing: mypy's stderr is its own.
"""

import json
import os
import sys

_SKIPPED = {".git", ".hg", ".svn", "__pycache__", "node_modules", "site-packages"}


def _moved(entry: str, base: str, copy: str, prefixes: "list[str]") -> str:
    """`entry` in the copy when it is a folder of the project's, else as it is."""
    path = os.path.realpath(entry or os.curdir)
    if path != base and not path.startswith(base + os.sep):
        return entry
    if any(path == p or path.startswith(p + os.sep) for p in prefixes):
        return entry
    relative = os.path.relpath(path, base)
    parts = [] if relative == os.curdir else relative.split(os.sep)
    if any(part in _SKIPPED for part in parts):
        return entry
    for depth in range(1, len(parts) + 1):
        if os.path.isfile(os.path.join(base, *parts[:depth], "pyvenv.cfg")):
            return entry
    return os.path.join(copy, *parts)


def _main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, "copy.json"), encoding="utf-8") as file:
            base, copy = json.load(file)
    except (OSError, ValueError):
        base = copy = ""
    prefixes = [os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)]
    entries = [e for e in sys.path if os.path.realpath(e or os.curdir) != os.path.realpath(here)]
    if base and copy:
        base = os.path.realpath(base)
        entries = [_moved(e, base, copy, prefixes) for e in entries]
    sys.path[:] = entries
    # The environment's own, found where this was (its folder gone from `sys.path`): this
    # module is put back where there is none, as the interpreter's import of it pops its
    # entry when it returns (missing, it printed `Error in sitecustomize ... KeyError`).
    this = sys.modules.pop(__name__)
    try:
        import sitecustomize  # type: ignore[import-not-found]  # noqa: F401  (the environment's own)
    except ImportError as exc:
        if exc.name != "sitecustomize":
            raise
    finally:
        sys.modules.setdefault(__name__, this)


if __name__ == "sitecustomize":  # as the interpreter's start imports it, not otherwise
    _main()
