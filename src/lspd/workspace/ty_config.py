"""Whether a project's gate is ty's: it configures ty, and what runs its checker runs ty
alone (`ty_gate` chooses its server, `ty_scope` its files, `mypy_config` leaves it to ty
where a mypy configuration is left over that nothing runs)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from lspd.workspace.checker_runs import ran, run_paths
from lspd.workspace.files import read_text
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
    return _GATED.get(project, tuple(gate_paths(project)), lambda: (_gated(project), ()))


def gate_paths(project: Path) -> list[Path]:
    """The paths whose change can change `gated_ty(project)`."""
    paths = (project / PYPROJECT, project / CONFIG, *script_paths(project), *run_paths(project))
    return list(dict.fromkeys(paths))


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
