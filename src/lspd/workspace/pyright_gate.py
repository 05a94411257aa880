"""A project whose gate runs pyright from an environment of its own: lspd's pyright judges it.

svcs configures `[tool.pyright]` with no `typeCheckingMode`, and its tox runs `pyright` in
the `typing-pyright` environment, whose dependency group its `.venv` does not install. Read
by lspd's basedpyright, a `[tool.pyright]` without a mode is basedpyright's "recommended":
78 errors and 356 warnings where the gate's pyright ("standard") says 0. Where the
project's configuration is pyright's (a `[tool.pyright]` table or pyrightconfig.json, not
`[tool.basedpyright]`), something of it runs `pyright` and nothing `basedpyright`, and its
environment holds neither server (`own_server.stand_in` takes the one it holds), lspd runs
pyright's npm package at the version the project's lockfile pins (uv.lock, poetry.lock,
pdm.lock), else at a pin in its requirements or pyproject.toml (`pyright==1.1.411`), else
at the version its package.json names (openai-python's scripts run the npm pyright
1.1.399 its devDependencies pin), else lspd's own (`PYRIGHT_DEFAULT`), installed on first
need into lspd's cache.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.servers.registry import ServerDefinition
from lspd.workspace.checker_runs import ran, run_paths
from lspd.workspace.files import read_text
from lspd.workspace.mypy_scripts import script_paths
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.npm_installed import PACKAGE
from lspd.workspace.pyright_given import given_paths, pyright_given
from lspd.workspace.pyright_scope import CONFIG_JSON, PYPROJECT, config_in

PYRIGHT_DEFAULT = "1.1.414"  # lspd's pyright where the project pins none
_LOCKS = ("uv.lock", "poetry.lock", "pdm.lock")
_PINS = ("requirements-dev.txt", "requirements.txt", "dev-requirements.txt", PYPROJECT)
_LOCKED = re.compile(r'^name = "pyright"\s*\nversion = "(\d+\.\d+\.\d+)', re.MULTILINE)
_PINNED = re.compile(r"(?<![\w.-])pyright\s*==\s*(\d+\.\d+\.\d+)")  # `.post1`: npm's 1.1.x
_NPM = re.compile(r'"pyright"\s*:\s*"[\^~=v]*(\d+\.\d+\.\d+)"')  # package.json's
_SCRIPT = "{npm_root}/pyright/langserver.index.js"
_GATED: Memo[str | None] = Memo()


def gated_pyright(project: Path) -> str | None:
    """The pyright version the project at `project` gates on where its configuration is
    pyright's and its own scripts, hooks or workflows run `pyright` (not `basedpyright`);
    None where it does not. Read again when a file it was read from changes."""
    paths = (
        project / CONFIG_JSON,
        *script_paths(project),
        *run_paths(project),
        *given_paths(project),
        *(project / name for name in (*_LOCKS, *_PINS, PACKAGE)),
    )
    try:
        return _GATED.get(project, tuple(dict.fromkeys(paths)), lambda: _gated(project))
    except InvalidInput:  # unreadable: the scope says what is wrong; not kept, read again
        return None


def gate_pyright(
    definition: ServerDefinition, project: Path, servers: Mapping[str, ServerDefinition]
) -> tuple[ServerDefinition, str] | None:
    """lspd's pyright and what answers says of it (`pyright 1.1.411 (lspd's: the gate runs
    pyright)`) where `definition` is lspd's basedpyright (asked only where the project's
    environment holds no server) and the project gates on pyright; None otherwise."""
    pyright = servers.get("pyright")
    if pyright is None or pyright.stands_in_for != definition.name:
        return None
    if (version := gated_pyright(project)) is None:
        return None
    return lspd_pyright(pyright, version), f"pyright {version} (lspd's: the gate runs pyright)"


def lspd_pyright(pyright: ServerDefinition, version: str) -> ServerDefinition:
    """`pyright` (servers.toml's) as lspd's own copy of `version`: the npm package run by
    lspd's Node, installed into its own prefix in lspd's cache on first need."""
    return dataclasses.replace(
        pyright,
        command=("{node}", _SCRIPT, "--stdio"),
        node_script=None,
        npm_prefix=f"npm-pyright-{version}",
        install={"npm": (f"pyright@{version}",)},
        requires=(_SCRIPT,),
    )


def _gated(project: Path) -> tuple[str | None, tuple[Path, ...]]:
    """`gated_pyright`'s answer, and the files beyond its own it read (an `extends` chain)."""
    config = config_in(project)
    if config is None:  # pyright's defaults, where its runs name files (`pyright_given`)
        given = pyright_given(project)
        return (None if given is None or given.configured else _version(project)), ()
    if "basedpyright" in config.label:
        return None, tuple(config.read)
    return _version(project), tuple(config.read)


def _version(project: Path) -> str | None:
    """The pyright version of a project whose configuration is pyright's; None where
    nothing of it runs pyright, or something runs basedpyright."""
    if ran(project, ("pyright", "basedpyright")) != {"pyright"}:
        return None
    for name in _LOCKS:
        if (text := read_text(project / name)) is not None and (found := _LOCKED.search(text)):
            return found[1]
    for name in _PINS:
        if (text := read_text(project / name)) is not None and (found := _PINNED.search(text)):
            return found[1]
    if (text := read_text(project / PACKAGE)) is not None and (found := _NPM.search(text)):
        return found[1]
    return PYRIGHT_DEFAULT
