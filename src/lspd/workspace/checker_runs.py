"""Whether anything of a project runs a checker (mypy, pyright): of a project both mypy and
pyright configure, basedpyright judges no file where something runs mypy and nothing runs
pyright (`pyright_part`). werkzeug's `[tool.pyright]` (`include = ["src"]`, standard) is
its editors': its tox `typing` environment runs `mypy` alone, and its clean tree had 87
pyright errors beside mypy's 1.

Read, each for a command word of the checker (`pyright` or `basedpyright`; a path ending
in one too): the scripts mypy's targets are read from (`mypy_scripts.script_files`: a
Makefile, tox.ini, a noxfile, `scripts/*`), the `commands` of pyproject.toml's
`[tool.tox]` environments (flask's `["pyright"]`), package.json's scripts, a pre-commit
hook of its id, and the CI workflows (a step running it, or its action) in
`.github/workflows` of the project or of the repository above it. A file too large to
read counts as a run.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from lspd.workspace.mypy_scripts import MOST_BYTES, script_commands, script_files
from lspd.workspace.tsc_scripts import PACKAGE, package_commands

PRE_COMMIT = ".pre-commit-config.yaml"
WORKFLOWS = Path(".github/workflows")
# A YAML line naming one as a command or a hook (`run: uv run pyright src`, `- id: mypy`,
# `uses: jakebailey/pyright-action@v2`), not in a comment; `pyright:` is a key or a pragma.
_YAML = r"^[^#\n]*?(?<![\w.-])(?:{})(?:-action|-python)?\b(?!:)"


def runs(directory: Path, commands: tuple[str, ...]) -> bool:
    """Whether a script, a tox environment, a pre-commit hook or a CI workflow of the
    project at `directory` runs one of `commands` (`("pyright", "basedpyright")`)."""
    found = [c for path in script_files(directory) for c in script_commands(path)]
    found += _tox_commands(directory / "pyproject.toml")
    found += package_commands(directory / PACKAGE)  # `"typecheck": "pyright"`
    if any(word.rsplit("/", 1)[-1] in commands for words in found for word in words):
        return True
    line = re.compile(_YAML.format("|".join(map(re.escape, commands))), re.M)
    return any(_yaml_runs(path, line) for path in _yaml_files(directory))


def run_paths(directory: Path) -> list[Path]:
    """The paths beyond the scripts (`mypy_scripts.script_paths`) whose change can change
    `runs`: package.json, the pre-commit configuration, the workflows' folders and files."""
    found = [directory / PACKAGE, directory / PRE_COMMIT]
    for folder in _workflow_folders(directory):
        found += [folder, *_workflows(folder)]
    return found


def _tox_commands(pyproject: Path) -> Iterator[list[str]]:
    """The commands of pyproject.toml's `[tool.tox]` environments, each a list of words."""
    try:
        tox = tomllib.loads(_text(pyproject)).get("tool", {}).get("tox", {})
    except tomllib.TOMLDecodeError:
        return
    yield from _commands_in(tox)


def _commands_in(table: Any) -> Iterator[list[str]]:
    if isinstance(table, dict):
        for key, value in table.items():
            if key in ("commands", "commands_pre", "commands_post") and isinstance(value, list):
                yield from ([str(w) for w in c] for c in value if isinstance(c, list))
            else:
                yield from _commands_in(value)


def _yaml_files(directory: Path) -> Iterable[Path]:
    yield directory / PRE_COMMIT
    for folder in _workflow_folders(directory):
        yield from _workflows(folder)


def _workflow_folders(directory: Path) -> list[Path]:
    """`.github/workflows` of the project and of each folder above it up to its repository's
    root (a folder holding `.git`)."""
    found = []
    for folder in (directory, *directory.parents):
        found.append(folder / WORKFLOWS)
        if (folder / ".git").exists():
            break
    return found


def _workflows(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.suffix in (".yml", ".yaml"))
    except OSError:
        return []


def _yaml_runs(path: Path, line: re.Pattern[str]) -> bool:
    try:
        if path.stat().st_size > MOST_BYTES * 4:  # no workflow is this large: not read
            return True
        return line.search(path.read_text(encoding="utf-8")) is not None
    except (OSError, UnicodeDecodeError):
        return False


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
