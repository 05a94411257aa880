"""The C, C++, Go and Rust files a whole-workspace check checks: every one, as before, but
those of a Python project (a pyproject.toml, setup.py or setup.cfg in their folder or one
above) that no build describes, which are no project's. The build is the server's project
markers (`roots` in servers.toml) in their folder or one above: a compile database
(compile_commands.json, compile_flags.txt; in a folder's build/ too) for clangd, a go.mod or
go.work for gopls, a Cargo.toml for rust-analyzer.

clangd reads such a C file with its fallback flags, none of the build's include paths:
markupsafe's `_speedups.c` said 19 errors from "'Python.h' file not found" where its gate,
mypy, says 1, and sphinx's test fixture `api.h` 4. Nothing the project runs checks them but
its compiler, given Python's headers by its build. pre-commit's templates for new hooks
(`pre_commit/resources/empty_template_main.go`, `..._main.rs`) are in no module or crate:
nothing builds them (rust-analyzer loads no crate for them), and its gate is mypy. Said per
top folder; `--all` checks them, and a build file written above them brings them back
(watched).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.project_scope import ProjectScope, fallback

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

PYTHON_PROJECT = ("pyproject.toml", "setup.py", "setup.cfg")  # a Python project's top
BUILT = {"clangd", "gopls", "rust-analyzer"}  # the servers whose files need a build
IN_BUILD = {"clangd"}  # whose markers may be in a folder's build/ too (a compile database)
NOTE = (
    "not checked: C in a Python project that no compile_commands.json or compile_flags.txt "
    "describes: clangd would guess its include paths (Python.h), and nothing the project "
    "runs checks it (`lspd check --all` does)"
)


def note_of(language: str, markers: tuple[str, ...]) -> str:
    """Why the files of `language` that no build (`markers`) describes are not checked."""
    if language in ("c", "cpp"):
        return NOTE
    return (
        f"not checked: {language.capitalize()} in a Python project that no "
        f"{' or '.join(markers)} describes: no build compiles it, and nothing the project "
        "runs checks it (`lspd check --all` does)"
    )


def built_projects(
    ws: Workspace, files: list[Path], language: str, note: str, python: bool, read: list[Path]
) -> list[ProjectScope]:
    """The projects of the files `files` (of `language`, whose server needs a build), each
    said with `note`; in a workspace holding Python (`python`), those of a Python project
    that no build describes left out, said per top folder, and what would change that
    watched (`read`)."""
    if not python:
        return fallback(ws, files, language, note)
    stray: dict[Path, list[Path]] = defaultdict(list)
    kept: list[Path] = []
    watched: dict[Path, None] = {}
    described: dict[Path, bool] = {}  # per folder: its files' answer is the same
    markers: tuple[str, ...] = ()
    for path in files:
        if path.parent not in described:
            definition = ws.handler(path)
            markers = tuple(definition.roots) if definition is not None else ()
            builds = (
                ("", "build") if definition is not None and definition.name in IN_BUILD else ("",)
            )
            above = _above(path, ws.root)
            pythons = [f / name for f in above for name in PYTHON_PROJECT]
            databases = [f / b / m for f in above for m in markers for b in builds]
            watched.update(dict.fromkeys([*pythons, *databases]))
            found = any(d.is_file() for d in databases)
            described[path.parent] = found or not any(p.is_file() for p in pythons)
        if described[path.parent]:
            kept.append(path)  # described, or a C project's (with tools/gen.py beside it)
            continue
        parts = path.relative_to(ws.root).parts
        stray[ws.root / parts[0] if len(parts) > 1 else ws.root].append(path)
    read += watched
    why = note_of(language, markers)
    strays = [ProjectScope(language, d, None, (), why) for d in sorted(stray)]
    return fallback(ws, kept, language, note) + strays


def _above(path: Path, root: Path) -> list[Path]:
    """`path`'s folder and each above it up to `root`."""
    folders = [path.parent]
    while folders[-1] != root and root in folders[-1].parents:
        folders.append(folders[-1].parent)
    return folders
