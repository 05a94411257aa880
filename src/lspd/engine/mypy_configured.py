"""A commit's result under its own mypy configuration, where the disk's was edited since:
lspd's mypy checks a copy of the project (`workspace/mypy_copy.py`), which can hold the
configuration's text at the commit as it holds a source file's (`mypy_check._held`), so
the commit's state is the commit's texts and configuration in the copy, never the disk's.

Sound only where nothing else reads the configuration and the copy is made the same way
under both: every file of the gate judged by mypy alone (no basedpyright, no TypeScript:
their servers read the disk's configuration), every configuration edited a mypy
configuration of such a project (mypy.ini, .mypy.ini, pyproject.toml, setup.cfg in its
directory), naming at the commit what the disk's names of what the copy and its targets are
made of (`files`, `exclude`, `mypy_path`, `plugins`, package bases: `MypyConfig`), and no
pyright table in it. Otherwise `None`: the caller refuses, as before.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from lspd.engine.mypy_project import MypyProject, by_project
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.mypy_config import _config_in
from lspd.workspace.mypy_files import CONFIG_FILES, PYPROJECT

PYRIGHT_TABLES = ("[tool.pyright]", "[tool.basedpyright]")


def mypy_configured(
    ws: Workspace, gate: list[Path], then: dict[Path, str | None]
) -> dict[Path, str] | None:
    """The configurations to hold at their text at the commit (`then`: those that differ
    from the disk's), when checking the commit's state in mypy's copy is sound; else None."""
    if not then or not gate:
        return None
    try:
        projects = by_project(ws, gate)
    except InvalidInput:
        return None
    judged = {path for files in projects.values() for path in files}
    if set(gate) - judged or any(p.also_pyright for p in projects):
        return None  # another checker reads the disk's configuration
    by_directory = {p.directory: p for p in projects}
    held: dict[Path, str] = {}
    for path, text in then.items():
        project = by_directory.get(path.parent)
        if project is None or path.name not in CONFIG_FILES or text is None:
            return None
        if not _same_copy(project, then) or pyright_table(text):
            return None
        held[path] = text
    return held


def _same_copy(project: MypyProject, then: dict[Path, str | None]) -> bool:
    """Whether mypy finds, at the commit, the configuration file the disk's is and it
    names the same targets, paths and plugins (the copy and the run are made of those)."""
    disk = project.config
    if disk is None:
        return False
    with tempfile.TemporaryDirectory(prefix="lspd-config-") as folder:
        for name in CONFIG_FILES:
            path = project.directory / name
            text = then[path] if path in then else read_text(path)
            if text is not None:
                (Path(folder) / name).write_text(text, "utf-8")
        try:
            found = _config_in(Path(folder))
        except InvalidInput:
            return False
    if found is None or found.path.name != disk.path.name:
        return False
    if disk.path.name == PYPROJECT and (disk.label != found.label):
        return False
    # (its boolean options aside: the copy holds them, and the run reads them there)
    return dataclasses.replace(found, path=disk.path, flags=disk.flags) == disk


def pyright_table(text: str | None) -> bool:
    """Whether a configuration's text holds a pyright table (basedpyright reads it too)."""
    return text is not None and any(table in text for table in PYRIGHT_TABLES)
