"""Which mypy-gated project judges a Python file: the nearest folder choosing its checkers
(its configuration's, a package's whose script runs mypy, or the root's), what they are and
why, and where basedpyright judges beside mypy (`workspace/pyright_part.py`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.errors import InvalidInput
from lspd.workspace.mypy_config import (
    MYPY,
    PYRIGHT,
    CheckerChoice,
    MypyConfig,
    choose,
    mypy_config_in,
    unconfigured_gate,
)
from lspd.workspace.mypy_files import CONFIG_FILES
from lspd.workspace.mypy_mirror import PYTHON
from lspd.workspace.pyright_part import PyrightPart, pyright_part
from lspd.workspace.pyright_scope import CONFIG_JSON, config_in

if TYPE_CHECKING:
    from lspd.workspace import Workspace


@dataclass(frozen=True)
class MypyProject:
    """A Python project judged by mypy: where it runs, its configuration, why."""

    directory: Path
    config: MypyConfig | None  # None: lspd.toml chose mypy for a project without one
    choice: CheckerChoice
    # both judge it: where basedpyright does (`workspace/pyright_part.py`; None: everywhere)
    pyright: PyrightPart | None = None
    server: str = PYRIGHT  # the pyright server judging beside it (lspd's pyright: pyright_gate)

    @property
    def also_pyright(self) -> bool:
        """Both checkers judge it (each diagnostic names its own), in part or whole."""
        return PYRIGHT in self.choice.checkers

    def pyright_judges(self, path: Path) -> bool:
        """Whether basedpyright judges `path` of it too (mypy judges every file)."""
        return self.also_pyright and (self.pyright is None or self.pyright.judges(path))

    @property
    def why(self) -> str:
        """What `checker` says: mypy, and why."""
        named = (self.server if c == PYRIGHT else c for c in self.choice.checkers)
        return f"{' and '.join(named)}: {self.choice.reason}"


def project_of(
    ws: Workspace, path: Path, known: dict[Path, MypyProject | None] | None = None
) -> MypyProject | None:
    """The mypy-gated project `path` belongs to (its nearest directory with a Python
    checker configuration, up to the root; the root itself without one), or None when
    basedpyright alone judges it. A member package's pyproject.toml or setup.cfg without
    a checker's section (a uv workspace's `[project]` alone) is none: mypy run at the
    top, as its users run it, checks its files with the top's configuration. `known`: the
    answers for the files of each directory already walked, by directory (a question's
    files share their folders above)."""
    if path.suffix not in PYTHON:
        return None
    known = {} if known is None else known
    walked: list[Path] = []
    found = None
    for directory in path.parents:
        if directory in known:
            found = known[directory]
            break
        walked.append(directory)
        if _holds_project(ws, directory):
            found = _project_in(ws, directory)
            break
        if directory == ws.root or ws.root not in directory.parents:
            break
    known.update(dict.fromkeys(walked, found))
    return found


def _holds_project(ws: Workspace, directory: Path) -> bool:
    """Whether a project's checker is chosen in `directory`: its configuration's, a package's
    whose script runs mypy, or the root's."""
    named = any((directory / name).is_file() for name in (*CONFIG_FILES, CONFIG_JSON))
    if named and (mypy_config_in(directory) is not None or config_in(directory) is not None):
        return True
    configured = getattr(ws.config, "python_checker", "project")
    return directory == ws.root or unconfigured_gate(directory, ws.root, configured, ws.restricted)


def _project_in(ws: Workspace, directory: Path) -> MypyProject | None:
    """The project whose checkers `directory` chooses, where mypy is one of them."""
    choice = choose(directory, getattr(ws.config, "python_checker", "project"), ws.restricted)
    if MYPY not in choice.checkers:
        return None
    config = mypy_config_in(directory)
    if PYRIGHT not in choice.checkers:
        return MypyProject(directory, config, choice)
    server = _pyright_server(ws, directory / "_.py")
    return MypyProject(directory, config, choice, pyright_part(directory), server)


def _pyright_server(ws: Workspace, path: Path) -> str:
    """The name of the server judging `path` beside mypy, as it runs there: lspd's
    basedpyright, or the pyright the project's environment or gate runs."""
    definition = ws.handler(path)
    if definition is None:
        return PYRIGHT
    return ws.pool.adapted(definition, ws.project_root(path, definition))[0].name


def by_project(ws: Workspace, files: list[Path]) -> dict[MypyProject, list[Path]]:
    """The files of `files` that mypy judges, by project (found once per directory)."""
    seen: dict[Path, MypyProject | None] = {}
    grouped: dict[MypyProject, list[Path]] = defaultdict(list)
    for path in files:
        if path.suffix not in PYTHON:
            continue
        if path.parent not in seen:
            try:
                seen[path.parent] = project_of(ws, path, seen)
            except InvalidInput as exc:  # named from the root, as every path lspd shows
                raise InvalidInput(str(exc).replace(f"{ws.root}/", "")) from None
        if (project := seen[path.parent]) is not None:
            grouped[project].append(path)
    return dict(grouped)
