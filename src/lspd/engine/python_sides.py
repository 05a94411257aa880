"""The Python files of a gate that mypy and basedpyright share, by checker: mypy's projects'
files on one side, the files basedpyright judges (a script beside them, another project)
on the other, each with the configurations edited that its checker reads.

A configuration edited since the commit is mypy's side's when it is in one of mypy's
projects' directories, is a file mypy reads there (mypy.ini, .mypy.ini, pyproject.toml,
setup.cfg), and holds no pyright table then or now; any other is basedpyright's side's (a
pyrightconfig.json, its baseline, a pyproject.toml elsewhere: it may mark a project root).
Sound because neither checker reads the other's: basedpyright no `[tool.mypy]`, mypy no
pyright table. So each side's state at the commit is made as for a gate its checker judges
alone (`engine/configured_parts.py`): before, mypy's `strict = true` beside a script
basedpyright judges made no Python result at the commit at all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.mypy_configured import pyright_table
from lspd.engine.mypy_project import by_project
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.mypy_files import CONFIG_FILES


@dataclass(frozen=True)
class Side:
    """One checker's Python files (`files`) and the configurations edited it reads (`then`,
    their texts at the commit)."""

    checker: str  # "mypy" or "basedpyright"
    files: frozenset[Path]
    then: dict[Path, str | None]


def python_sides(
    ws: Workspace, files: Collection[Path], then: Mapping[Path, str | None]
) -> tuple[Side, Side] | None:
    """mypy's side and basedpyright's of `files` (deleted ones among them: placed by their
    folder), or None where they are not two (one checker judges them all) or not apart (a
    project both judge, a configuration both read)."""
    try:
        projects = by_project(ws, list(files))
    except InvalidInput:
        return None
    if any(project.also_pyright for project in projects):
        return None
    mypy = frozenset(path for judged in projects.values() for path in judged)
    rest = frozenset(files) - mypy
    if not mypy or not rest:
        return None
    folders = {project.directory for project in projects}
    mypy_then: dict[Path, str | None] = {}
    rest_then: dict[Path, str | None] = {}
    for path, text in then.items():
        if path.parent in folders and path.name in CONFIG_FILES:
            if pyright_table(text) or pyright_table(read_text(path)):
                return None  # read by both
            mypy_then[path] = text
        else:
            rest_then[path] = text
    return Side("mypy", mypy, mypy_then), Side("basedpyright", rest, rest_then)
