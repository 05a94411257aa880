"""A project whose gate runs pyrefly: pyrefly judges it, not lspd's basedpyright.

A project configuring pyrefly (`pyrefly.toml`, or a `[tool.pyrefly]` table in
pyproject.toml) whose scripts, hooks or workflows run `pyrefly` and no other checker (mypy,
dmypy, pyright, basedpyright, ty) gates on pyrefly: read by lspd's basedpyright with its
defaults, a project whose `make check-types` runs `pyrefly check` was said clean where its
gate failed on an `unused-ignore` its `[tool.pyrefly.errors]` makes an error. pyrefly
reads its own configuration (its includes, error kinds and baseline file) from the
project, so its answers are the gate's. The project's environment's pyrefly where it
holds one (the gate's version), else lspd's. Where pyright runs too (py-shiny's CI runs
both), basedpyright stays the judge: lspd runs one such server for a project.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lspd.servers.registry import ServerDefinition
from lspd.workspace.checker_runs import ran, run_paths
from lspd.workspace.mypy_config import configures_checker
from lspd.workspace.mypy_scripts import script_paths
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.pyright_scope import PYPROJECT
from lspd.workspace.tool_config import configures_tool

PYREFLY = "pyrefly"
CONFIG = "pyrefly.toml"
LSPDS = "pyrefly (lspd's: the gate runs pyrefly)"  # what answers say of lspd's pyrefly
_CHECKERS = (PYREFLY, "mypy", "dmypy", "pyright", "basedpyright", "ty")
_RAN: Memo[frozenset[str]] = Memo()


def gate_pyrefly(
    definition: ServerDefinition, project: Path, servers: Mapping[str, ServerDefinition]
) -> ServerDefinition | None:
    """pyrefly's server where `definition` is lspd's basedpyright and the project at
    `project` gates on pyrefly alone: the nearest folder at or above it, in its repository,
    configuring pyrefly does, and no folder between configures another checker."""
    pyrefly = servers.get(PYREFLY)
    if pyrefly is None or definition.name != "basedpyright":
        return None
    for folder in (project, *project.parents):
        if configures_pyrefly(folder):
            return pyrefly if gated_pyrefly(folder) else None
        if configures_checker(folder) or (folder / ".git").exists():
            return None
    return None


def gated_pyrefly(project: Path) -> bool:
    """Whether what runs a checker of the project at `project` runs pyrefly alone. Read
    again when a file it was read from changes."""
    paths = (project / PYPROJECT, project / CONFIG, *script_paths(project), *run_paths(project))
    found = _RAN.get(project, tuple(dict.fromkeys(paths)), lambda: (_ran(project), ()))
    return found == {PYREFLY}


def _ran(project: Path) -> frozenset[str]:
    return frozenset(ran(project, _CHECKERS))


def configures_pyrefly(project: Path) -> bool:
    """Whether pyrefly's configuration is the project's: a pyrefly.toml, or a
    `[tool.pyrefly]` table in pyproject.toml."""
    return configures_tool(project, CONFIG, PYREFLY)
