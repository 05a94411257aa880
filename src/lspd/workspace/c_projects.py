"""The C and C++ files a whole-workspace check checks: every one, as before, but in a
workspace holding Python, those no compile database describes (no compile_commands.json or
compile_flags.txt, clangd's project markers, in their folder or one above) are no
project's. clangd reads such a file with its fallback flags, none of the build's include
paths: markupsafe's `_speedups.c` said 19 errors from "'Python.h' file not found" where its
gate, mypy, says 1, and sphinx's test fixture `api.h` 4. Nothing the project runs checks
them but its compiler, given Python's headers by its build. Said per top folder; `--all`
checks them, and a compile database written above them brings them back (watched).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.project_scope import ProjectScope, fallback

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

NOTE = (
    "not checked: C in a Python project that no compile_commands.json or compile_flags.txt "
    "describes: clangd would guess its include paths (Python.h), and nothing the project "
    "runs checks it (`lspd check --all` does)"
)


def c_projects(
    ws: Workspace, files: list[Path], language: str, note: str, python: bool, read: list[Path]
) -> list[ProjectScope]:
    """The projects of the C files `files` (of `language`), each said with `note`; in a
    workspace holding Python (`python`), those of no compile database left out, said per
    top folder, and where one would be written watched (`read`)."""
    if not python:
        return fallback(ws, files, language, note)
    stray: dict[Path, list[Path]] = defaultdict(list)
    kept: list[Path] = []
    watched: set[Path] = set()
    for path in files:
        definition = ws.handler(path)
        markers = definition.roots if definition is not None else ()
        project = ws.project_root(path, definition) if definition is not None else ws.root
        if any((project / marker).is_file() for marker in markers):
            kept.append(path)
            continue
        parts = path.relative_to(ws.root).parts
        stray[ws.root / parts[0] if len(parts) > 1 else ws.root].append(path)
        for folder in (path.parent, *path.parent.parents):
            if folder in watched or ws.root not in (folder, *folder.parents):
                break
            watched.add(folder)
            read += [folder / marker for marker in markers]
    strays = [ProjectScope(language, d, None, (), NOTE) for d in sorted(stray)]
    return fallback(ws, kept, language, note) + strays
