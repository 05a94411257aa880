"""What a pyright server is told beside the disk's changes, so its imports resolve as its
CLI's.

basedpyright's server (1.40: `service.ts`, `_shouldHandleSourceFileWatchChanges`) drops a
watched-file event of a Python file it neither tracks nor has loaded (one in a folder of
`exclude`, or outside `include`), and of a folder `include` and `exclude` keep out; its
import resolver then keeps its listing of the folders from before. The CLI resolves imports
wherever they lead (`exclude` and `include` choose the files checked, not the modules
found): a module written in `tools/scratch/` (excluded, under the `tools` execution root)
stayed `Import "scratch.mod" could not be resolved` for its importer, for good (the
examiner's F2). So when a Python file or a folder comes or goes, a pyright server is told
too that each folder of its configuration's `include` was created: an event it takes as a
change of the tree (its import caches dropped, its files checked again), as it takes any
file it tracks coming or going, which then told it so already (the same once more).

A Python file changed in place outside every `include` folder (an `executionEnvironments`
entry's `extraPaths` folder beside them, a module found from the execution root) reaches no
source watcher of the server: an `extraPaths` folder's change is taken by its library
watcher 5 s later, another folder's never, so its importers kept the errors of its old
text (the examiner's F5: a check right after the edit asked them too soon, and the checks
after reused that). Such a file is made read again at once (`outside`): opened with its
text, sent again (a change of an open file marks its importers to be checked again) and
closed (`sync`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.pyright_scope import SOURCE, PyrightConfig, _excluded, config_in

CREATED, CHANGED, DELETED = 1, 2, 3  # the LSP `FileChangeType` numbers
PYTHON = (".py", ".pyi")
PYRIGHT = "pyright"  # in the names of basedpyright's and pyright's servers


def included(name: str, folders: Iterable[Path], changes: Iterable[tuple[Path, int]]) -> list[Path]:
    """The folders a server named `name` serving `folders` is told created beside `changes`
    (path, `FileChangeType`): for a pyright server, the `include` folders of each folder's
    configuration (the folder itself without one) where a Python file or a folder came or
    went under it; none else."""
    if PYRIGHT not in name:
        return []
    moved = [path for path, kind in changes if _structural(path, kind)]
    found: list[Path] = []
    for folder in folders:
        if any(path.is_relative_to(folder) for path in moved):
            found += [root for root in _roots(folder) if root not in found]
    return found


def outside(name: str, folders: Iterable[Path], changes: Iterable[tuple[Path, int]]) -> list[Path]:
    """The Python files of `changes` changed in place under one of `folders` (a pyright
    server's) outside every folder its configuration's `include` names: no source watcher
    of the server sees them."""
    if PYRIGHT not in name:
        return []
    changed = [p for p, kind in changes if kind == CHANGED and p.suffix.lower() in PYTHON]
    return [
        path
        for path in changed
        if any(path.is_relative_to(f) and not _watched(f, path) for f in folders)
    ]


def _watched(folder: Path, path: Path) -> bool:
    """Whether `path` is under a folder `include` names in `folder`'s configuration (the
    server watches it, `exclude` or not); under `folder` without one."""
    config = _config(folder)
    roots = [folder] if config is None else [spec.root for spec in config.include]
    return any(path.is_relative_to(root) for root in roots)


def _structural(path: Path, kind: int) -> bool:
    """A Python file or a folder come or gone (a path gone without a suffix may have been a
    folder; another file's deletion, an editor's swap file, makes the server check nothing
    again)."""
    if SOURCE.search(path.name):
        return kind in (CREATED, DELETED)
    if kind == CREATED:
        return os.path.isdir(path)
    return kind == DELETED and not path.suffix


def _roots(folder: Path) -> list[Path]:
    """The folders `include` names in `folder`'s pyright configuration that exist and no
    `exclude` keeps out (basedpyright watches them); `folder` itself without one."""
    config = _config(folder)
    if config is None:
        return [folder]
    return [
        spec.root
        for spec in config.include
        if spec.root.is_dir() and not _excluded(str(spec.root), config.exclude)
    ]


def _config(folder: Path) -> PyrightConfig | None:
    """`folder`'s pyright configuration; None without one, or one that cannot be read (the
    server reads its defaults, or says why)."""
    try:
        return config_in(folder)
    except InvalidInput:
        return None
