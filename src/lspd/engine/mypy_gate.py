"""The gate's files in another state than the disk's (HEAD's texts of the changed files):
a mypy-gated project whose `files` name part of it is gated on the modules mypy follows
into from them (`workspace/mypy_follow.py`), and which those are is its texts' to say. At
HEAD before an import was added, the imported module was none of them (its errors are new
once imported); once an import is dropped, the module HEAD's texts reach leaves the gate
(its errors fixed, as mypy run at HEAD and now says). A module git ignores that mypy
follows into (a generated `_version.py`) is no commit's: its disk text is every commit's
(`unversioned`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lspd.engine.mypy_check import held_python, project_files, python_files
from lspd.engine.mypy_project import project_of
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.scope import GateScope


def gate_then(ws: Workspace, scope: GateScope, texts: Mapping[Path, str | None]) -> set[Path]:
    """The files of the disk's gate `scope` in the state `texts` make (file -> its text
    there, None: absent): each mypy project's that follows imports (`ProjectScope.imports`)
    made of that state's texts, the others' as they are."""
    gate = set(scope.files)
    if not texts or not any(project.imports for project in scope.projects):
        return gate
    python = held_python(python_files(ws), texts, ws.root)
    for scoped in scope.projects:
        if not scoped.imports:
            continue
        try:
            project = project_of(ws, scoped.project / "_.py")
        except InvalidInput:
            continue  # its configuration's error: the check says it
        if project is None:
            continue
        files, _ = project_files(ws, project, python, texts)
        pyright = {p for p in scoped.files if project.pyright_judges(p)}  # its own part: kept
        gate = (gate - set(scoped.files)) | set(files) | pyright
    return gate


def unversioned(ws: Workspace, scope: GateScope, commit: str) -> list[Path]:
    """The gate's files of the mypy projects that follow imports which git ignores (or
    lspd.toml leaves out): modules mypy follows into though no commit holds them (a
    generated `_version.py`), whose disk text is every commit's. A commit's kept result
    holds them as they were when it was made: its key reads them (`kept.config_key`), so
    after an edit of one the result compared with is made again, as mypy at the commit
    would say it. None for the session's (`commit` "session"): its result holds them as
    they were when it began, an edit since is the session's own."""
    if commit == "session":
        return []
    return sorted({p for s in scope.projects if s.imports for p in s.files if ws.ignore(p)})
