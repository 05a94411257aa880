"""What a pre-commit mypy hook's own environment holds that the project's may not: lspd
runs the project's mypy in the project's environment (`mypy_precommit`), and pre-commit
makes the hook one of its own, with the mypy its repository's `rev` pins and the packages
its `additional_dependencies` name.

packaging's hook installs `nox`, `httpx` and `tomli`, which its dev environment lacks: 15
errors its gate never says. marshmallow's pins mirrors-mypy v1.11.2, where its tox
environment has mypy 2.4.1: 2 errors only the newer mypy says. Each is said in the
answer's `environment` (`ops/environment_hint.py`), not mended: making the hook's
environment is pre-commit's install.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from lspd.workspace.mypy_precommit import runs_tool
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.precommit_hooks import config_hooks, config_over

_MIRROR = "mirrors-mypy"
_REV = re.compile(r"v?(\d+(?:\.\d+)+)")  # mirrors-mypy tags each mypy release `v1.11.2`


def hook_installs(directory: Path) -> tuple[str, ...]:
    """The packages the pre-commit mypy hooks over the project at `directory` install
    beside mypy (`additional_dependencies`, as written: `nox`, `httpx>=0.27`)."""
    listed = (hook.get("additional_dependencies") for hook in _mypy_hooks(directory)[0])
    return tuple(dict.fromkeys(str(d) for deps in listed if isinstance(deps, list) for d in deps))


def hook_pin(directory: Path) -> str | None:
    """The mypy version mirrors-mypy's hook over the project at `directory` runs, as its
    `rev` pins it (`v1.11.2`: `1.11.2`); None without one, or a `rev` naming no release."""
    hooks, body = _mypy_hooks(directory)
    repos = body.get("repos")
    for repo in repos if isinstance(repos, list) else []:
        if not isinstance(repo, dict) or not str(repo.get("repo", "")).endswith(_MIRROR):
            continue
        listed = repo.get("hooks")
        if any(hook in hooks for hook in (listed if isinstance(listed, list) else [])):
            found = _REV.fullmatch(str(repo.get("rev", "")))
            return None if found is None else found[1]
    return None


def _mypy_hooks(directory: Path) -> _Hooks:
    """The mypy hooks pre-commit runs over the project at `directory`, and its
    configuration's table; none where there is none or it is no YAML. Read again only
    when it changed (asked of each file an answer holds)."""
    if (path := config_over(directory)) is None:
        return [], {}
    return _READ.get(path, (path,), lambda: _read(path))


def _read(path: Path) -> tuple[_Hooks, tuple[Path, ...]]:
    try:
        run, body, read = config_hooks(path)
    except yaml.YAMLError:
        return ([], {}), ()
    return ([hook for hook in run if runs_tool(hook, ("mypy",))], body), tuple(read)


_Hooks = tuple[list[dict[str, Any]], dict[str, Any]]
_READ: Memo[_Hooks] = Memo()
