"""Whether a Python project that configures no checker gates on mypy all the same: its own
lint script runs mypy on paths of it, or its pre-commit configuration has a mypy hook, and
nothing of it runs pyright but on paths it names (then pyright's defaults judge those beside
mypy: `mypy_config._beside`). The `hatch new` template's pyproject.toml has no `[tool.mypy]`;
its `types:check` script runs `mypy --install-types --non-interactive {args:src/x tests}`.
Judged by basedpyright's defaults, such a project failed with errors its gate never says
(an unannotated helper's `reportMissingTypeArgument`, where mypy said "Success").

mypy then runs with its defaults on what the script or hook chooses (`mypy_scope`), as the
project's gate runs it. Not where the script or hook takes only files of folders below that
configure a checker of their own (a hook's `files: ^backend/`, backend/ holding a mypy.ini:
the top's other files are no mypy run's), nor where the script names another configuration
than mypy finds by itself (`mypy --config-file configs/strict.ini src`: not mypy's
defaults, and lspd does not read that file).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from lspd.workspace.checker_runs import run_paths, runs
from lspd.workspace.mypy_config_read import names_found
from lspd.workspace.mypy_files import CONFIG_FILES
from lspd.workspace.mypy_precommit import PrecommitMypy, precommit_mypy, precommit_paths
from lspd.workspace.mypy_scripts import (
    FILES,
    MOST_BYTES,
    SCRIPTS,
    ScriptMypy,
    script_files,
    script_paths,
    script_targets,
)
from lspd.workspace.precommit_hooks import CONFIG_NAME
from lspd.workspace.pyright_given import COMMANDS, pyright_given
from lspd.workspace.pyright_scope import CONFIG_JSON

Configures = Callable[[Path], bool]  # whether a folder configures a checker of its own
_QUANTIFIERS = ("?", "*", "{", "+")
_LITERAL = re.compile(r"(?:[\w/-]|\\[./-])*")  # a regex's start matching itself alone


def mypy_runner(directory: Path, configures: Configures) -> str | None:
    """What of the project at `directory` runs mypy on files of its own (its pre-commit
    hook, the script naming it), where nothing of it runs pyright but on paths it names
    (`_pyright_named`); None where nothing does. A file of its own is in no folder below
    that `configures` a checker."""
    hook = precommit_mypy(directory)
    script = script_targets(directory)
    if hook is not None and hook.path.parent == directory and _hook_takes(hook, configures):
        found = hook.label
    elif script is not None and _script_takes(directory, script, configures):
        found = script.named
    else:
        return None
    return None if runs(directory, COMMANDS) and not _pyright_named(directory) else found


def _pyright_named(directory: Path) -> bool:
    """Whether the project's pyright runs are given files of it, configuring none: pyright's
    defaults judge those beside mypy (`mypy_config._beside`), as where both are configured.
    pytest-asyncio's mypy hook and tox's `pyright` on a folder: mypy was dropped, its error
    unsaid. A pyright run given nothing (its defaults on every file) is that gate alone."""
    given = pyright_given(directory)
    return given is not None and not given.configured


def may_run_mypy(directory: Path) -> bool:
    """Whether one of the project's scripts, or a pre-commit configuration in its folder,
    says "mypy" at all: read before what runs it is (a uv workspace's 400 members)."""
    for path in [*script_files(directory), directory / CONFIG_NAME]:
        try:
            status = path.stat()
            if not stat.S_ISREG(status.st_mode) or status.st_size > MOST_BYTES:
                continue  # a FIFO would block the daemon
            if b"mypy" in path.read_bytes():
                return True
        except OSError:
            continue
    return False


def may_run_paths(directory: Path) -> list[Path]:
    """The paths whose change can change `may_run_mypy(directory)`, fewest (a uv
    workspace's 400 members each stamped at every question): the folder, whose listing a
    script or a pre-commit configuration that comes changes, and those there, read from
    one listing of it."""
    try:
        names = set(os.listdir(directory))
    except OSError:
        return [directory]
    found = [directory, *(directory / name for name in (*FILES, CONFIG_NAME) if name in names)]
    if folders := [directory / name for name in SCRIPTS if name in names]:
        found += [*folders, *script_files(directory)]
    return list(dict.fromkeys(found))


def runner_paths(directory: Path) -> list[Path]:
    """The paths whose change can change `mypy_runner(directory)`: the scripts, the hooks,
    what runs pyright, and the configurations of the folders they name."""
    found = [*precommit_paths(directory), *script_paths(directory), *run_paths(directory)]
    for folder in _named_folders(directory):
        found += [folder / name for name in (*CONFIG_FILES, CONFIG_JSON)]
    return list(dict.fromkeys(found))


def _hook_takes(hook: PrecommitMypy, configures: Configures) -> bool:
    """Whether the hook runs mypy on a file of its folder's own: a path its entry names, or
    a file its `files` take, where that regex (or the top-level one) starts in folders
    (`^backend/`, `^(api|web)/`) not all configuring a checker; any other takes one."""
    directory = hook.path.parent
    if any(_own(directory, name, configures) for name in hook.runs):
        return True
    for files, _ in hook.hooks:
        folders = _folders(files.pattern) or _folders(hook.top[0].pattern)
        if folders is None or any(_own(directory, name, configures) for name in folders):
            return True
    return False


def _script_takes(directory: Path, script: ScriptMypy, configures: Configures) -> bool:
    """Whether the script runs mypy with its defaults on a path of the project's own: it
    names no configuration but one mypy finds by itself."""
    if script.config is not None and not names_found(directory, script.config):
        return False
    return any(_own(directory, name, configures) for name in script.paths)


def _own(directory: Path, name: str, configures: Configures) -> bool:
    """Whether `name` (relative to `directory`) is in no folder below it configuring a
    checker (a folder named: itself too)."""
    return not any(configures(folder) for folder in _between(directory, name))


def _between(directory: Path, name: str) -> Iterator[Path]:
    """The folders from `name` (relative to `directory`; a folder named is one) up to
    `directory`, that one left out."""
    path = directory / name
    folder = path if path.is_dir() else path.parent
    while folder != directory and directory in folder.parents:
        yield folder
        folder = folder.parent


def _folders(pattern: str) -> list[str] | None:
    """The folders a pre-commit `files` regex anchored at the start takes files of alone
    (`^backend/` -> backend, `^(api|web)/src/` -> api/src, web/src); None where it may take
    a file of any (`\\.py$`, `^src`: src.py too)."""
    if not pattern.startswith("^"):
        return None
    body, rest = pattern[1:], ""
    if body.startswith(("(?:", "(")):
        inner = body[3:] if body.startswith("(?:") else body[1:]
        if ")" not in inner:
            return None
        inner, rest = inner.split(")", 1)
        choices = inner.split("|")
    else:
        choices = [body]
    if "|" in rest or (len(choices) == 1 and "|" in body):  # `^backend/|^app/`: any
        return None
    found = []
    for choice in choices:
        literal = _LITERAL.match(choice + rest)
        assert literal is not None  # matches the empty string at least
        written = literal[0]
        if (choice + rest)[len(written) :][:1] in _QUANTIFIERS:
            written = written[:-1]  # `^backend/?`, `^app/*`: the last character may be absent
        text = re.sub(r"\\(.)", r"\1", written)
        if "/" not in text:
            return None
        found.append(text.rsplit("/", 1)[0])
    return found


def _named_folders(directory: Path) -> Iterator[Path]:
    """The folders below `directory` whose configuration decides whether what the hook or
    the script names is the project's own (`_own`)."""
    hook, script = precommit_mypy(directory), script_targets(directory)
    names = [*(script.paths if script is not None else ())]
    if hook is not None:
        names += hook.runs
        for files, _ in hook.hooks:
            names += _folders(files.pattern) or _folders(hook.top[0].pattern) or []
    for name in dict.fromkeys(names):
        yield from _between(directory, name)
