"""The options of the command running ty that change what it reports, as ty's server takes
them. A Makefile's `ty check --python-version 3.13 src tests` checks for Python 3.13 whatever
the interpreter; ty's server reads the same from its inline `configuration` setting (which
wins over the configuration files): `environment.python-version`, `python-platform`,
`extra-paths`, `python` (`--python`: the environment it resolves imports in), and `rules`
from `--error`/`--warn`/`--ignore` (in order, the last winning).
`--config-file` is its `configurationFile` setting, and `--error-on-warning` tells its
warnings as errors (`ty_gate`). `--exclude` chooses files (`ty_scope`), which lspd asks
about: its server is not told. The first command running `ty check` is read: a script's,
else a pre-commit hook's."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd.workspace.mypy_scripts import script_commands, script_files
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.ty_config import gate_paths, hook_words, precommit_hooks, ty_words

_LEVELS = {"--error": "error", "--warn": "warn", "--ignore": "ignore"}
_ENVIRONMENT = {"--python-version": "python-version", "--python-platform": "python-platform"}
_PATHS = {"--extra-search-path": "extra-paths"}
_VALUED = {*_LEVELS, *_ENVIRONMENT, *_PATHS, "--config-file", "--exclude", "--python"}
_END = {";", "&&", "||", "|", "&"}
_READ: Memo[TyOptions] = Memo()


@dataclass(frozen=True)
class TyOptions:
    """What the gate's ty command says beyond its paths."""

    settings: dict[str, Any] = field(default_factory=dict)  # ty's server's, section `ty`
    error_on_warning: bool = False  # a warning fails the gate
    # `--exclude` patterns, after `src.exclude` (`ty_scope`: which files, not the server's)
    exclude: tuple[str, ...] = ()


def ty_options(directory: Path) -> TyOptions:
    """The options of the first command running ty of the project at `directory`, as its
    server's settings. Read again when a file they were read from changes."""
    paths = tuple(gate_paths(directory))
    return _READ.get(directory, paths, lambda: (_read(directory), ()))


def _read(directory: Path) -> TyOptions:
    commands = [words for path in script_files(directory) for words in script_commands(path)]
    commands += [hook_words(hook) for _, hook in precommit_hooks(directory)]
    for words in commands:
        if (after := ty_words(words)) is not None and after[:1] == ["check"]:  # not `ty version`
            return parsed(directory, after)
    return TyOptions()


def parsed(directory: Path, words: list[str]) -> TyOptions:
    """The options of a ty command (`words`, after `ty`) run in `directory`."""
    configuration: dict[str, Any] = {}
    settings: dict[str, Any] = {}
    error_on_warning = False
    exclude: list[str] = []
    at = 0
    while at < len(words) and words[at] not in _END:
        name, equals, value = words[at].partition("=")
        if name in _VALUED and not equals:
            value, at = (words[at + 1] if at + 1 < len(words) else ""), at + 1
        if name in _LEVELS:
            configuration.setdefault("rules", {})[value] = _LEVELS[name]
        elif name in _ENVIRONMENT:
            configuration.setdefault("environment", {})[_ENVIRONMENT[name]] = value
        elif name in _PATHS:
            listed = configuration.setdefault("environment", {}).setdefault(_PATHS[name], [])
            listed.append(str(directory / value))
        elif name == "--python":  # the environment whose packages it resolves (not .venv)
            configuration.setdefault("environment", {})["python"] = str(directory / value)
        elif name == "--config-file":
            settings["configurationFile"] = str(directory / value)
        elif name == "--exclude":
            exclude.append(value)
        error_on_warning |= words[at] == "--error-on-warning"
        at += 1
    if configuration:
        settings["configuration"] = configuration
    return TyOptions({"ty": settings} if settings else {}, error_on_warning, tuple(exclude))
