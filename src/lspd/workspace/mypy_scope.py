"""The files mypy checks in a mypy-gated project: its configuration's `files` (paths or
globs relative to the project, directories walked for `.py` / `.pyi`), less its `exclude`
regex; without `files`, the project's own packages its per-module sections name where it
keeps them apart (`mypy_path`, `src/`: SQLAlchemy's lib/sqlalchemy), else every Python file
of the project (what `mypy .` checks), less `exclude`. The answer names the configuration
that chose them.

Where `files` (or the packages) choose part of the project, the files mypy reaches from
them inside the project by another way are the project's too: those of a `mypy_path`
folder, and of a folder the project's environment puts on its `sys.path` through a `.pth`
file (an editable install: `pip install -e .`, `uv sync`; svcs' tox runs
`mypy tests/typing`, its `src/svcs` reached through the install alone). Their edits are
changes of the project (the gate's listing, its kept result's key, the texts a baseline's
state holds); left out, an edit of `src/svcs/_core.py` breaking 6 calls in tests/typing was
no changed file, and a baseline's check read its edited text as HEAD's."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.mypy_config import MYPY, PYRIGHT, MypyConfig, choose, mypy_config_in
from lspd.workspace.mypy_installed import pth_folders
from lspd.workspace.toolchain import find_python


@dataclass(frozen=True)
class MypyScope:
    """The files one mypy configuration chose."""

    directory: Path
    label: str
    files: tuple[Path, ...]
    note: str | None
    packages: tuple[str, ...] = ()  # without `files`: the packages mypy is pointed at


def mypy_scopes(
    directories: list[Path],
    files: list[Path],
    configured: str,
    restricted: bool,
    alone: bool = True,
    root: Path | None = None,
    python: Path | None = None,
) -> list[MypyScope]:
    """Of the `directories` holding a mypy configuration, those mypy judges (with `alone`,
    those it judges alone: where both judge, the gate's scope is pyright's), with the files
    of `files` (the walk's Python files) each configuration chose. `root` and `python` (the
    workspace's root and lspd.toml's `python`, its path from the root, not resolved) find
    the interpreter lspd runs mypy with (`mypy_python`), whose `.pth` files say what mypy
    reaches."""
    scopes = []
    for directory in sorted(set(directories)):
        choice = choose(directory, configured, restricted)
        config = mypy_config_in(directory)
        if config is None or MYPY not in choice.checkers:
            continue
        if alone and PYRIGHT in choice.checkers:
            continue
        inside = [p for p in files if directory in p.parents]
        chosen, note = inside, "no `files`: every Python file of the project"
        packages: tuple[str, ...] = ()
        if config.files:
            chosen = [p for p in inside if _named(directory, p, config.files)]
            note = "files = " + ", ".join(config.files)
        elif packages := _packages(directory, config.mypy_path, config.modules):
            chosen = [p for p in inside if _named(directory, p, packages)]
            note = "no `files`: the project's packages its sections name: " + ", ".join(packages)
        if config.files or packages:  # and what mypy reaches from them (`exclude` aside)
            interpreter = mypy_python(directory, root, python)
            reached = _reached(directory, config, inside, interpreter)
            note += "".join(f"; {line}" for line in _reach_note(directory, reached, chosen))
            chosen = sorted({*chosen, *reached})
        if config.exclude:
            try:
                pattern = re.compile(config.exclude)
            except re.error as exc:
                raise InvalidInput(
                    f"{config.path}: exclude {config.exclude!r} is not a regular expression "
                    f"({exc}): fix it there (mypy cannot use it either)"
                ) from None
            chosen = [p for p in chosen if not pattern.search(p.relative_to(directory).as_posix())]
        scopes.append(MypyScope(directory, config.label, tuple(sorted(chosen)), note, packages))
    return scopes


def mypy_python(directory: Path, root: Path | None, python: Path | None) -> Path | None:
    """The interpreter lspd runs the mypy of the project at `directory` with, as
    `mypy_check.daemon_of` finds it: lspd.toml's `python` (its path from the root), else an
    environment in the project or the workspace's `root` (without one: the repository's top
    holding the project), else `python3` on PATH; None when there is none."""
    found = find_python(directory, root or _top(directory), python)
    return None if found is None else found[0]


def _reached(
    directory: Path, config: MypyConfig, inside: list[Path], interpreter: Path | None
) -> list[Path]:
    """The files of `inside` (the project's) in a folder mypy searches for imports inside
    the project: a `mypy_path` entry, or a `.pth` folder of the environment of
    `interpreter` (`mypy_python`'s)."""
    folders = [
        Path(os.path.normpath(directory / e.replace("$MYPY_CONFIG_FILE_DIR", str(directory))))
        for e in config.mypy_path
    ]
    real = Path(os.path.realpath(directory))
    for folder in pth_folders(interpreter) if interpreter is not None else []:
        if folder == real or real in folder.parents:
            folders.append(directory / folder.relative_to(real))
    folders = [f for f in folders if f == directory or directory in f.parents]
    return [p for p in inside if any(f in p.parents for f in folders)]


def _top(directory: Path) -> Path:
    """The top of the repository holding `directory` (where an environment of the
    workspace's is looked for), else `directory`."""
    for folder in (directory, *directory.parents):
        if (folder / ".git").exists():
            return folder
    return directory


def _reach_note(directory: Path, reached: list[Path], chosen: list[Path]) -> list[str]:
    """What the scope's note says of the files added by `_reached`."""
    added = [p for p in reached if p not in set(chosen)]
    if not added:
        return []
    return [f"{len(added)} more mypy reaches inside the project (mypy_path, an editable install)"]


def _packages(directory: Path, paths: tuple[str, ...], modules: tuple[str, ...]) -> tuple[str, ...]:
    """The project's own packages among `modules` (the top-level names of its per-module
    sections: SQLAlchemy's `sqlalchemy.*` strict), as paths relative to the project: what
    its CI points mypy at. Only those found where a project keeps its importable packages
    apart from the rest (a `mypy_path` directory inside it, `src/`): a section names what
    the configuration adjusts, and one at the project's top (structlog's `tests.*`
    `ignore_errors`) is no sign of the gate, whose scope stays every Python file."""
    found = []
    for module in modules:
        for base in (*paths, "src"):
            root = (directory / base).resolve()
            package, module_file = root / module, (root / module).with_suffix(".py")
            if (package / "__init__.py").is_file() or module_file.is_file():
                if directory in root.parents:  # not the project's top: tests/, docs/ live there
                    chosen = package if (package / "__init__.py").is_file() else module_file
                    found.append(chosen.relative_to(directory).as_posix())
                break
    return tuple(found)


def _named(directory: Path, path: Path, entries: tuple[str, ...]) -> bool:
    """Whether one of `files`' entries names `path`: the file, a directory holding it, or a
    glob matching it."""
    relative = path.relative_to(directory)
    for entry in entries:
        entry = entry.strip().rstrip("/")
        if entry in (".", ""):
            return True
        if any(ch in entry for ch in "*?["):
            if relative.match(entry) or any(
                parent.match(entry) for parent in relative.parents if str(parent) != "."
            ):
                return True
            continue
        named = Path(entry)
        if relative == named or named in relative.parents:
            return True
    return False
