"""The C and C++ files a whole-workspace check checks: every one, as before, but those of a
Python project (a pyproject.toml, setup.py or setup.cfg in their folder or one above) that
no compile database describes (no compile_commands.json or compile_flags.txt, clangd's
project markers, in their folder, one above, or its build/) are no project's. clangd reads
such a file with its fallback flags, none of the build's include paths: markupsafe's
`_speedups.c` said 19 errors from "'Python.h' file not found" where its gate, mypy, says 1,
and sphinx's test fixture `api.h` 4. Nothing the project runs checks them but its compiler,
given Python's headers by its build. Said per top folder; `--all` checks them, and a compile
database written above them brings them back (watched).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.project_scope import ProjectScope, fallback

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

PYTHON_PROJECT = ("pyproject.toml", "setup.py", "setup.cfg")  # a Python project's top
NOTE = (
    "not checked: C in a Python project that no compile_commands.json or compile_flags.txt "
    "describes: clangd would guess its include paths (Python.h), and nothing the project "
    "runs checks it (`lspd check --all` does)"
)


def c_projects(
    ws: Workspace, files: list[Path], language: str, note: str, python: bool, read: list[Path]
) -> list[ProjectScope]:
    """The projects of the C files `files` (of `language`), each said with `note`; in a
    workspace holding Python (`python`), those of a Python project that no compile database
    describes left out, said per top folder, and what would change that watched (`read`)."""
    if not python:
        return fallback(ws, files, language, note)
    stray: dict[Path, list[Path]] = defaultdict(list)
    kept: list[Path] = []
    watched: dict[Path, None] = {}
    described: dict[Path, bool] = {}  # per folder: its files' answer is the same
    for path in files:
        if path.parent not in described:
            definition = ws.handler(path)
            markers = definition.roots if definition is not None else ()
            above = _above(path, ws.root)
            pythons = [f / name for f in above for name in PYTHON_PROJECT]
            databases = [d for f in above for m in markers for d in (f / m, f / "build" / m)]
            watched.update(dict.fromkeys([*pythons, *databases]))
            found = any(d.is_file() for d in databases)
            described[path.parent] = found or not any(p.is_file() for p in pythons)
        if described[path.parent]:
            kept.append(path)  # described, or a C project's (with tools/gen.py beside it)
            continue
        parts = path.relative_to(ws.root).parts
        stray[ws.root / parts[0] if len(parts) > 1 else ws.root].append(path)
    read += watched
    strays = [ProjectScope(language, d, None, (), NOTE) for d in sorted(stray)]
    return fallback(ws, kept, language, note) + strays


def _above(path: Path, root: Path) -> list[Path]:
    """`path`'s folder and each above it up to `root`."""
    folders = [path.parent]
    while folders[-1] != root and root in folders[-1].parents:
        folders.append(folders[-1].parent)
    return folders
