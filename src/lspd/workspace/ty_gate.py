"""A project whose gate runs ty: ty judges it, not lspd's basedpyright.

pipx configures `[tool.ty]` and its tox `type` environment runs `ty check`; nothing of it
runs mypy or a pyright. Read by lspd's basedpyright with its defaults, its clean tree had
179 errors and 2,428 warnings; ty says the gate's answer. Where the project configures ty
(`[tool.ty]` in pyproject.toml, or ty.toml) and its scripts, hooks or workflows run `ty`
and none runs pyright or basedpyright (`ty_config`: ty alone, or beside mypy), the server
is ty's: the project's own where its environment holds one (the gate's version),
else lspd's, of the version the project pins (its uv.lock, poetry.lock or pdm.lock, else a
`ty==` pin), installed into lspd's cache on first need where lspd's own ty is another or
none. pipx's uv.lock pins ty 0.0.59: its gate says "All checks passed!", where ty 1.0.0
says 4 `deprecated` warnings.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from lspd.dirs import cache_dir
from lspd.servers.install import PIP_TARGET
from lspd.servers.registry import ServerDefinition
from lspd.workspace.config import merge
from lspd.workspace.files import read_text
from lspd.workspace.mypy_config import configures_checker
from lspd.workspace.mypy_installed import distribution_version
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.pyright_scope import PYPROJECT
from lspd.workspace.ty_config import TY, errors_on_warning, gated_ty, ty_beside_mypy, ty_home
from lspd.workspace.ty_options import ty_options
from lspd.workspace.ty_paths import server_src

TY_DEFAULT = "1.0.0"  # lspd's ty where the project pins none and lspd's environment has none
_LOCKS = ("uv.lock", "poetry.lock", "pdm.lock")
_PINS = ("requirements-dev.txt", "requirements.txt", "dev-requirements.txt", PYPROJECT)
_LOCKED = re.compile(r'^name = "ty"\s*\nversion = "([\w.]+)"', re.MULTILINE)
_PINNED = re.compile(r"(?<![\w.-])ty\s*==\s*([\w.]+)")
_PINNED_READ: Memo[str | None] = Memo()


def gate_ty(
    definition: ServerDefinition, project: Path, servers: Mapping[str, ServerDefinition]
) -> ServerDefinition | None:
    """ty's server where `definition` is lspd's basedpyright (whatever server the project's
    environment holds: `own_server.python_server`) and the project gates on ty: with the
    options of the command running ty (`ty_options`), its warnings told as errors where the
    gate's configuration or command says a warning fails it."""
    ty = servers.get(TY)
    if ty is None or definition.name != "basedpyright":
        return None
    if (gate := _governing(project)) is None:
        return None
    options = ty_options(gate)  # the command's (`ty check --python-version 3.13`), lspd.toml's over
    warned = errors_on_warning(gate) or options.error_on_warning
    src = server_src(gate)  # the files the command checks that its configuration leaves out
    told = merge(options.settings, {"ty": {"configuration": {"src": src}}} if src else {})
    settings = merge(told, ty.settings)
    return dataclasses.replace(ty, warnings_are_errors=warned, settings=settings)


def lspd_ty(ty: ServerDefinition, project: Path) -> tuple[ServerDefinition, str]:
    """lspd's ty for the project at `project` (whose environment holds none) and what
    answers say of it (`ty 0.0.59 (lspd's: the gate runs ty)`): lspd's own where it is the
    version the project pins or the project pins none, else that version, installed with
    pip into its own folder in lspd's cache on first need (`servers.install`)."""
    own = _own_version()
    gate = _governing(project) or project  # its pins are the gate's folder's
    version = pinned_ty(gate) or own or TY_DEFAULT
    label = f"ty {version} (lspd's: the gate runs ty)"
    if version == own:
        return ty, label
    prefix = f"pip-ty-{version}"
    executable = str(cache_dir() / prefix / PIP_TARGET / "bin" / TY)
    installed = dataclasses.replace(
        ty,
        command=(executable, "server"),
        npm_prefix=prefix,
        install={"pip_target": (f"ty=={version}",)},
        version_source={"command": [executable, "--version"], "pattern": r"ty (\S+)"},
    )
    return installed, label


def pinned_ty(project: Path) -> str | None:
    """The ty version the project at `project` pins: its lock's, else a `ty==` pin in its
    requirements or pyproject.toml; None where it pins none. Read again when one changes."""
    paths = tuple(project / name for name in (*_LOCKS, *_PINS))
    return _PINNED_READ.get(project, paths, lambda: (_pinned(project), ()))


def _pinned(project: Path) -> str | None:
    for names, pattern in ((_LOCKS, _LOCKED), (_PINS, _PINNED)):
        for name in names:
            if (text := read_text(project / name)) is not None and (found := pattern.search(text)):
                return found[1]
    return None


@functools.cache
def _own_version() -> str | None:
    """The version of lspd's own ty (in lspd's environment); None where it has none."""
    return distribution_version(Path(sys.executable), TY)


def _governing(project: Path) -> Path | None:
    """The folder whose ty gate judges the project at `project`: the nearest folder at or
    above it, in its repository, configuring a checker or ty, or whose gate runs ty
    (`ty_home`: gimmegit's configures none), where it gates on ty alone or beside mypy; None
    where that is no ty gate. A package below with no checker configuration of its own is
    the gate's (pipx's testdata/*/setup.py: basedpyright said 3 errors and 5 warnings there,
    which its `ty check` at the top never reports)."""
    for folder in (project, *project.parents):
        if ty_home(folder):
            return folder if gated_ty(folder) or ty_beside_mypy(folder) else None
        if configures_checker(folder) or (folder / ".git").exists():
            return None
    return None
