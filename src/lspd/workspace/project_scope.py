"""One project's files a whole-workspace check checks (`workspace/scope.py` gathers them),
and the rule for files no configuration governs: every one, per project. Apart from the
gate's scope so that each language's reader of its configurations (`scope`'s Python,
`typescript_projects`) makes its projects from it without importing the other.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.mypy_imports import ImportsRead

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace


@dataclass(frozen=True)
class ProjectScope:
    """The files one configuration chose, or one project's files where none chooses."""

    language: str
    project: Path  # the configuration's directory (the project root without one)
    config: str | None  # `pyrightconfig.json`, `pyproject.toml [tool.basedpyright]`, ...
    files: tuple[Path, ...]
    note: str | None = None
    data: tuple[Path, ...] = ()  # a TypeScript program's JSON modules, as its reading resolves
    imports: tuple[tuple[Path, tuple[int, int] | None], ...] = ()  # mypy's `MypyScope.read`
    imports_read: tuple[tuple[Path, ImportsRead], ...] = ()  # mypy's `MypyScope.imports`
    # a configuration no gate runs (an editor's tsconfig): listed, its errors no one's
    gated: bool = True
    # a run of the gate lspd does not make over its folder (tsd's tests, `pyright
    # --verifytypes`, a pytest typing plugin): a preview of a change there says so
    unrun: bool = False


def fallback(ws: Workspace, files: list[Path], language: str, note: str) -> list[ProjectScope]:
    """Today's rule for files no configuration governs: every one, per project."""
    by_project: dict[Path, list[Path]] = defaultdict(list)
    for path in files:
        definition = ws.handler(path)
        if definition is not None:
            by_project[ws.project_root(path, definition)].append(path)
    return [
        ProjectScope(language, project, None, tuple(chosen), note)
        for project, chosen in sorted(by_project.items())
    ]


def ours(ws: Workspace, path: Path, language: str) -> bool:
    """A file of the language, under the root (a config may name files outside it)."""
    definition = ws.handler(path)
    return definition is not None and definition.language == language and ws.root in path.parents


def under(path: Path, directories: set[Path], root: Path) -> bool:
    """Whether one of `directories` holds `path` (looking up to `root`)."""
    for directory in path.parents:
        if directory in directories:
            return True
        if directory == root:
            return False
    return False
