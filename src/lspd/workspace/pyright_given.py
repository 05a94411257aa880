"""What a project's own pyright command is given to check, in place of its configuration's
`include`.

pyright checks the paths on its command line instead of the `include` its configuration
names; its `exclude` still leaves files out, a file named on the line too (pyright 1.1.414:
`pyright src` checks src/ where `include = ["pkg"]`; `pyright pkg/skip/a.py` checks nothing
where `exclude = ["pkg/skip"]`). A pre-commit hook running pyright (a local `entry: pyright`,
polyfactory's `uv run --all-groups pyright`, a hook repository's `id: pyright`) passes it
the tracked Python files its `files` regex takes and its `exclude` regex leaves, the
configuration's top-level pair first: polyfactory's hook leaves out `tests`, which its
`include` names (lspd said 56 errors where its gate says 2), and passes `docs/`, which its
`include` does not name. A hook passing no file names runs pyright on the paths its entry
names, else on the configuration's `include`; a script, Makefile, tox or nox command naming
paths (`pyright src`: `mypy_scripts.script_targets`) on those. Not read: `-p FILE` (another
configuration) and `--pythonversion`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from lspd.workspace.mypy_precommit import (
    Regexes,
    passes,
    precommit_paths,
    regexes,
    runs_tool,
    words_after,
)
from lspd.workspace.mypy_scripts import named_paths, script_paths, script_targets
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.precommit_hooks import CONFIG_NAME, config_hooks, config_over
from lspd.workspace.pyright_scope import PyrightConfig, files_of, spec

COMMANDS = ("pyright", "basedpyright")
_PYTHON = (".py", ".pyi")  # pre-commit's `python` type


@dataclass(frozen=True)
class Hooks:
    """The pyright hooks of a pre-commit configuration and what each gives pyright."""

    path: Path  # the configuration, in the repository's top folder
    top: Regexes  # its top-level `files` and `exclude`
    passing: tuple[Regexes, ...]  # each hook's passing file names
    named: tuple[str, ...]  # the paths the others name, relative to its folder
    configured: bool  # a hook passes pyright nothing: it checks the configuration's include


@dataclass(frozen=True)
class PyrightGiven:
    """What the project's own pyright runs are given, where one names files."""

    folders: tuple[Path, ...]  # the folders and files named (scripts, hooks' entries)
    hooks: Hooks | None  # the pre-commit hooks passing file names
    configured: bool  # a run is given nothing: the configuration's `include` is also checked
    note: str  # which chose them, as the scope says it

    def takes(self, path: Path) -> bool:
        """Whether a run is given `path` (its `exclude` aside: the caller's)."""
        return self.names(path) or self.passes(path)

    def names(self, path: Path) -> bool:
        """Whether a run names `path` or a folder holding it: pyright walks that folder,
        the files git ignores too."""
        return any(path == f or f in path.parents for f in self.folders)

    def passes(self, path: Path) -> bool:
        """Whether a hook's regexes take `path` (whether git tracks it is the caller's)."""
        hooks = self.hooks
        if hooks is None or not hooks.passing or path.suffix not in _PYTHON:
            return False
        if hooks.path.parent not in path.parents:
            return False
        name = path.relative_to(hooks.path.parent).as_posix()
        return passes(hooks.top, name) and any(passes(h, name) for h in hooks.passing)


def given_files(config: PyrightConfig, given: PyrightGiven, walked: Collection[Path]) -> list[Path]:
    """The files pyright checks given `given` under `config`: those a run is given (or,
    where a run is given nothing, its `include`'s), less its `exclude`. A hook passes those
    of lspd's `walked` files alone, as the mypy hook's (`mypy_scope`): pre-commit passes the
    files git tracks, not one its .gitignore lists (cyclopts' generated `_version.py`:
    lspd said its error, where the gate never checks it)."""
    included = files_of(config) if given.configured else []
    everywhere = replace(config, include=[spec(config.path.parent, ".")])
    tracked = set(walked)
    found = files_of(everywhere)
    taken = (p for p in found if given.names(p) or (p in tracked and given.passes(p)))
    return sorted({*included, *taken})


def given_paths(directory: Path) -> list[Path]:
    """The paths whose change can change `pyright_given(directory)`."""
    return [*precommit_paths(directory), *script_paths(directory)]


def pyright_given(directory: Path) -> PyrightGiven | None:
    """What the pyright runs of the project at `directory` are given where one names files
    (a hook passing file names, a command naming paths); None where none does."""
    hooks = _hooks(directory)
    named: list[Path] = []
    notes: list[str] = []
    if (script := script_targets(directory, COMMANDS)) is not None and script.paths:
        named += [directory / p for p in script.paths]
        notes.append(f"what {script.named} runs pyright on: " + ", ".join(script.paths))
    if hooks is not None:
        named += [hooks.path.parent / p for p in hooks.named]
        if hooks.passing or hooks.named:
            notes.append(f"what {CONFIG_NAME}'s pyright hook passes it")
    if not notes:
        return None
    configured = hooks is not None and hooks.configured
    kept = hooks if hooks is not None and hooks.passing else None
    return PyrightGiven(tuple(dict.fromkeys(named)), kept, configured, "; ".join(notes))


_READ: Memo[Hooks | None] = Memo()


def _hooks(directory: Path) -> Hooks | None:
    """The pyright hooks of the pre-commit configuration over `directory`; None without
    one, or without a pyright hook."""
    if (path := config_over(directory)) is None:
        return None
    return _READ.get(path, (path,), functools.partial(_kept, path))


def _kept(path: Path) -> tuple[Hooks | None, tuple[Path, ...]]:
    try:
        run, body, read = config_hooks(path)
        found = [hook for hook in run if runs_tool(hook, COMMANDS)]
        passing = [hook for hook in found if hook.get("pass_filenames", True) is not False]
        others = [
            named_paths(path.parent, words_after(hook, COMMANDS, ""))
            for hook in found
            if hook not in passing
        ]
        hooks = Hooks(
            path,
            regexes(body),
            tuple(regexes(hook) for hook in passing),
            tuple(p for paths in others for p in paths),
            any(not paths for paths in others),
        )
    except (yaml.YAMLError, re.error, TypeError):
        return None, ()
    return (hooks if found else None), tuple(read)
