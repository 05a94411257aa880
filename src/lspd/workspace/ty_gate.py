"""A project whose gate runs ty: ty judges it, not lspd's basedpyright.

pipx configures `[tool.ty]` and its tox `type` environment runs `ty check`; nothing of it
runs mypy or a pyright. Read by lspd's basedpyright with its defaults, its clean tree had
179 errors and 2,428 warnings; ty (1.0.0) says the gate's 4 warnings. Where the project
configures ty (`[tool.ty]` in pyproject.toml, or ty.toml) and its scripts, hooks or
workflows run `ty` and none runs mypy, pyright or basedpyright (`checker_runs.ran`), the
server is ty's: the project's own where its environment holds one (the gate's version),
else lspd's.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

from lspd.servers.registry import ServerDefinition
from lspd.workspace.checker_runs import ran, run_paths
from lspd.workspace.files import read_text
from lspd.workspace.mypy_config import configures_checker
from lspd.workspace.mypy_scripts import script_paths
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.pyright_scope import PYPROJECT

TY = "ty"
CONFIG = "ty.toml"
_CHECKERS = (TY, "mypy", "dmypy", "pyright", "basedpyright")
_GATED: Memo[bool] = Memo()


def gated_ty(project: Path) -> bool:
    """Whether the project at `project` configures ty and gates on it alone (nothing of it
    runs another checker). Read again when a file it was read from changes."""
    paths = (project / PYPROJECT, project / CONFIG, *script_paths(project), *run_paths(project))
    return _GATED.get(project, tuple(dict.fromkeys(paths)), lambda: (_gated(project), ()))


def gate_ty(
    definition: ServerDefinition, project: Path, servers: Mapping[str, ServerDefinition]
) -> ServerDefinition | None:
    """ty's server where `definition` is lspd's basedpyright (asked only where the
    project's environment holds no server of its own) and the project gates on ty."""
    ty = servers.get(TY)
    if ty is None or definition.name != "basedpyright" or not _governed(project):
        return None
    return ty


def _governed(project: Path) -> bool:
    """Whether the gate of the project at `project` is ty's: the nearest folder at or above
    it, in its repository, configuring a checker configures ty and gates on it alone. A
    package below with no checker configuration of its own is the gate's (pipx's
    testdata/*/setup.py: basedpyright said 3 errors and 5 warnings there, which its `ty
    check` at the top never reports)."""
    for folder in (project, *project.parents):
        if configures_ty(folder):
            return gated_ty(folder)
        if configures_checker(folder) or (folder / ".git").exists():
            return False
    return False


def _gated(project: Path) -> bool:
    return configures_ty(project) and ran(project, _CHECKERS) == {TY}


def configures_ty(project: Path) -> bool:
    """Whether ty's configuration is the project's: a ty.toml, or a `[tool.ty]` table (or
    one of its subtables: typer's `[tool.ty.terminal]`) in pyproject.toml."""
    if (project / CONFIG).is_file():
        return True
    if (text := read_text(project / PYPROJECT)) is None or "[tool.ty" not in text:
        return False
    try:
        tool = tomllib.loads(text).get("tool")
    except tomllib.TOMLDecodeError:  # the scope says what is wrong
        return False
    return isinstance(tool, dict) and isinstance(tool.get(TY), dict)
