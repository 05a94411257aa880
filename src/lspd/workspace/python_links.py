"""The folders a symlink inside a Python project leads to inside it (`lib -> real`), and the
other names a file under one has through them (`real/helper.py` is `lib/helper.py` too).

basedpyright and mypy resolve `from lib.helper import h` to `lib/helper.py`, a file of its
own to them, wherever the link leads; lspd holds a change by its real path
(`paths.confined`: `real/helper.py`). So a change of `real/helper.py` reaches the files
importing `lib.helper` (`python_imports.importers` asks its other names too), and a copy of
the project for a held state links `lib` to its own `real/` (`python_mirror.wanted`), so
the held text is read through both names.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from lspd.workspace.mypy_mirror import SKIPPED
from lspd.workspace.mypy_stamps import Memo

Links = dict[Path, Path]  # a link's path -> the folder it leads to, both relative to the root
_MEMO: Memo[Links] = Memo()
_MOST = 64  # other names of one file at most (links leading into each other)


def linked(root: Path) -> Links:
    """Every symlinked folder under `root` (not inside a link, an environment or a folder
    no copy holds: `SKIPPED`) that leads to a folder inside `root`, with that folder; made
    again when a folder walked changed (its entries: `mypy_stamps`)."""
    return _MEMO.get(("links", str(root)), (), lambda: _walked(root))


def _walked(root: Path) -> tuple[Links, tuple[Path, ...]]:
    real = Path(os.path.realpath(root))
    links: Links = {}
    looked: list[Path] = []
    for top, dirs, _ in os.walk(root):
        here = Path(top)
        looked.append(here)
        kept = []
        for name in dirs:
            if name in SKIPPED or (here / name / "pyvenv.cfg").exists():
                continue
            if not (here / name).is_symlink():
                kept.append(name)
                continue
            target = Path(os.path.realpath(here / name))
            inside = target.is_relative_to(real) and target.is_dir()
            if inside and not SKIPPED.intersection(target.relative_to(real).parts):
                links[(here / name).relative_to(root)] = target.relative_to(real)
        dirs[:] = kept
    return links, tuple(looked)


def aliases(root: Path, path: Path, links: Links) -> list[Path]:
    """The other paths of `path` (under `root`, by its real place) through `links`."""
    if not path.is_relative_to(root):
        return []
    return [root / other for other in other_names(path.relative_to(root), links)]


def named_through(root: Path, paths: Iterable[Path]) -> dict[Path, Path]:
    """Each other name of `paths` (under `root`, by their real places) through the
    symlinked folders of `root` (`aliases`), with its path."""
    links = linked(root)
    if not links:  # most projects: no walk of `paths`
        return {}
    return {other: path for path in paths for other in aliases(root, path, links)}


def other_names(rel: Path, links: Links) -> list[Path]:
    """The other names of `rel` (relative to the root, by its real place) through `links`:
    under each link whose folder holds it, and so on through links inside those folders
    (a link inside the folder it leads to aside)."""
    found: list[Path] = []
    todo = [rel]
    while todo and len(found) < _MOST:
        at = todo.pop()
        for link, target in links.items():
            if at.is_relative_to(target) and not link.is_relative_to(target):
                other = link / at.relative_to(target)
                if other not in found and other != rel:
                    found.append(other)
                    todo.append(other)
    return found


def real_place(rel: Path, links: Links) -> Path:
    """`rel` (relative to the root) by its real place: a path under a link of `links` is
    under the folder it leads to (`lib/helper.py` -> `real/helper.py`)."""
    for _ in range(_MOST):
        link = next((link for link in links if rel.is_relative_to(link)), None)
        if link is None:
            return rel
        rel = links[link] / rel.relative_to(link)
    return rel


def copy_link(root: Path, rel: Path) -> str:
    """Where a copy's link at `rel` (a symlinked folder of `root`) leads: to its folder in
    the copy where that is one the copy holds (`linked`: relative, `lib -> real`), so a held
    text there is read through both names; else to its real place, outside the copy."""
    inside = linked(root).get(rel)
    if inside is None:
        return os.path.realpath(root / rel)
    return os.path.relpath(inside, rel.parent)
