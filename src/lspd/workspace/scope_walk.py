"""What the gate's scope (`scope`) is made of: lspd's walk under the root, its source files
and each configuration file by name, and the Python files in the hidden folders it leaves
out that ty checks (`Walk.hidden`).

Measured on ty 1.0.0: ty checks a hidden folder (`.scripts/`, `.github/scripts/`, `.cache/`),
but those of its default excludes (`.venv`, `.tox`, `.git`, ...: `ty_paths.DEFAULT_EXCLUDES`)
and what a .gitignore leaves out; lspd's walk leaves every hidden folder out, as
basedpyright (its default `**/.*` exclude) and mypy (its walk of a folder passes over a
name starting with `.`) do. A ty gate's scope takes them (`ty_scope`), no other's.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.ignore import WATCHED_HIDDEN, Ignore
from lspd.workspace.mypy_files import CONFIG_FILES as MYPY_FILES
from lspd.workspace.pyright_scope import CONFIG_JSON, PYPROJECT
from lspd.workspace.tsconfig_scope import CONFIG_NAMES
from lspd.workspace.ty_config import CONFIG as TY_CONFIG
from lspd.workspace.ty_paths import DEFAULT_EXCLUDES

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

WALK_LIMIT = 10_000_000
CONFIGS = frozenset((CONFIG_JSON, PYPROJECT, TY_CONFIG, *CONFIG_NAMES, *MYPY_FILES))
# the hidden folders ty leaves out wherever they are (`.git`, `.venv`, `.tox`, ...); it
# walks the others, lspd's own left out too (`.cache`, `.pytest_cache`: measured)
_PYTHON = (".py", ".pyi")  # what ty checks of a hidden folder
_TY_LEAVES = frozenset(e.removeprefix("**/").rstrip("/") for e in DEFAULT_EXCLUDES)


@dataclass(frozen=True)
class Walk:
    """What lspd's walk finds under the root: the source files, each configuration by name,
    and the Python files of the hidden folders it leaves out that ty walks."""

    sources: tuple[Path, ...]  # in the walk's order
    configs: dict[str, list[Path]]
    hidden: tuple[Path, ...] = ()  # Python files in hidden folders: a ty gate's (`ty_scope`)

    def same(self, other: Walk) -> bool:
        """Whether `other` found the same files (in any order)."""
        mine = {name: set(paths) for name, paths in self.configs.items()}
        theirs = {name: set(paths) for name, paths in other.configs.items()}
        found = set(self.sources) == set(other.sources) and set(self.hidden) == set(other.hidden)
        return found and mine == theirs


def walk(ws: Workspace) -> Walk:
    """lspd's walk under the root (`Ignore.walk`'s rules), and the hidden folders beside it
    that ty walks: their Python files alone, no configuration of theirs."""
    sources: list[Path] = []
    hidden: list[Path] = []
    configs: dict[str, list[Path]] = defaultdict(list)  # file name -> paths found
    ignore = ws.ignore
    ignore.rules()
    for directory, dirnames, filenames in os.walk(ws.root):
        base = Path(directory)
        relative = base.relative_to(ws.root).as_posix()
        prefix = "" if relative == "." else relative + "/"
        inside = any(_hidden(part) for part in prefix.split("/"))
        dirnames[:] = [d for d in dirnames if _walked(ignore, prefix + d, d)]
        for name in filenames:
            if inside and not name.endswith(_PYTHON):
                continue  # a hidden folder's (a JavaScript tool's cache: thousands of files)
            if ignore.hides(prefix + name, name, False):
                continue
            path = base / name
            definition = ws.handler(path)
            if inside:  # a hidden folder's: its Python files alone, as ty walks them
                if definition is not None and definition.language == "python":
                    hidden.append(path)
                continue
            if name in CONFIGS:
                configs[name].append(path)
            if definition is not None:
                sources.append(path)
        if len(sources) + len(hidden) >= WALK_LIMIT:
            break
    return Walk(tuple(sources), dict(configs), tuple(hidden))


def in_hidden_folder(root: Path, path: Path) -> bool:
    """Whether `path` (under `root`) is in a hidden folder lspd's walk leaves out, and its
    watcher with it (`Walk.hidden`'s files)."""
    return any(_hidden(part) for part in path.relative_to(root).parts[:-1])


def _hidden(name: str) -> bool:
    return name.startswith(".") and name not in WATCHED_HIDDEN


def _walked(ignore: Ignore, relative: str, name: str) -> bool:
    """Whether the folder `name` at `relative` is walked: lspd's walk keeps it, or it is a
    hidden folder ty walks, none of lspd's other rules leaving it out (`Ignore.hides` read
    without its name for those judging a folder: the .gitignore's `dir/`, a virtual
    environment; as a file for lspd.toml's globs)."""
    if not ignore.hides(relative, name, True):
        return True
    if not _hidden(name) or name in _TY_LEAVES:
        return False
    return not ignore.hides(relative, "", True) and not ignore.hides(relative, name, False)
