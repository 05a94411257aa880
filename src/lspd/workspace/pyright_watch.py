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
The same where the change is in a folder its configuration's imports reach out of its own
(`../libs`, an `executionEnvironments` entry's `extraPaths` or root): a module written there
stayed unresolved for the project's importer (6 s later too, past its library watcher's
5 s); and where a Python file there is changed in place: its library watcher took the new
text 5 s later, and `outside`'s reading it again cannot help (a file out of the server's
folders opened goes to its default workspace, not the project's program).

A Python file changed in place outside every `include` folder (an `executionEnvironments`
entry's `extraPaths` folder beside them, a module found from the execution root) reaches no
source watcher of the server: an `extraPaths` folder's change is taken by its library
watcher 5 s later, another folder's never, so its importers kept the errors of its old
text (the examiner's F5: a check right after the edit asked them too soon, and the checks
after reused that). Such a file is made read again at once (`outside`): opened with its
text, sent again (a change of an open file marks its importers to be checked again) and
closed (`sync`); so is one created there: `git apply` and `git checkout` replace a file
(deleted, written again: told created), and the server kept the old text of a module
outside `include` (`include = ["main.py"]`, its pkg/_impl.py edited by `git apply`: 0
errors where the CLI says main.py's 1; a `touch` of it after, 1).

A configuration edited (`reloads`): the server reloads it 100 ms after it hears of it (later
while it works), and answered by the old one until then; a check right after a shell's edit
kept those answers (0 new where the CLI says 3). Each folder whose configuration the change
reloads is counted, and questions wait until the server has listed its files again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.pyright_scope import (
    CONFIG_JSON,
    PYPROJECT,
    SOURCE,
    PyrightConfig,
    _excluded,
    _json,
    _table,
    config_in,
)

CREATED, CHANGED, DELETED = 1, 2, 3  # the LSP `FileChangeType` numbers
PYTHON = (".py", ".pyi")
PYRIGHT = "pyright"  # in the names of basedpyright's and pyright's servers


def included(name: str, folders: Iterable[Path], changes: Iterable[tuple[Path, int]]) -> list[Path]:
    """The folders a server named `name` serving `folders` is told created beside `changes`
    (path, `FileChangeType`): for a pyright server, the `include` folders of each folder's
    configuration (the folder itself without one) where a Python file or a folder came or
    went under it or a folder its imports reach out of it, or a Python file changed in place
    in such a folder out of it; none else."""
    if PYRIGHT not in name:
        return []
    listed = list(changes)
    moved = [path for path, kind in listed if _structural(path, kind)]
    edited = _in_place(listed)
    found: list[Path] = []
    for folder in folders:
        away = [p for p in edited if not p.is_relative_to(folder) and _reaches(folder, p)]
        if away or any(_reaches(folder, path) for path in moved):
            found += [root for root in _roots(folder) if root not in found]
    return found


def outside(name: str, folders: Iterable[Path], changes: Iterable[tuple[Path, int]]) -> list[Path]:
    """The Python files of `changes` written (changed in place, or created: a file replaced
    by `git apply`, `git checkout` or an atomic save is told created) under one of `folders`
    (a pyright server's) outside every folder its configuration's `include` names: no
    source watcher of the server sees them."""
    if PYRIGHT not in name:
        return []
    written = [p for p, kind in changes if kind in (CHANGED, CREATED)]
    written = [p for p in written if p.suffix.lower() in PYTHON]
    return [p for p in written if any(p.is_relative_to(f) and not _watched(f, p) for f in folders)]


def _in_place(changes: Iterable[tuple[Path, int]]) -> list[Path]:
    """The Python files of `changes` changed in place (not come or gone)."""
    return [path for path, kind in changes if kind == CHANGED and path.suffix.lower() in PYTHON]


def _reaches(folder: Path, path: Path) -> bool:
    """Whether `path` is under `folder` or a folder its configuration's imports resolve
    from outside it: an `extraPaths` entry's or an execution environment's root (`../libs`),
    relative to the file naming it. (`outside` leaves such a folder: a module changed in
    place there was read at once without it, test_sync_elsewhere.)"""
    return path.is_relative_to(folder) or any(path.is_relative_to(f) for f in _reached(folder))


def _reached(folder: Path) -> list[Path]:
    config = _config(folder)
    found: list[Path] = []
    for named in config.read if config is not None else ():
        try:
            table = (_table(named) if named.name == PYPROJECT else _json(named)) or {}
        except InvalidInput:
            continue
        values = [table.get("extraPaths")]
        environments = table.get("executionEnvironments")
        for environment in environments if isinstance(environments, list) else ():
            if isinstance(environment, dict):
                values += [environment.get("root"), environment.get("extraPaths")]
        for value in values:
            for entry in value if isinstance(value, list) else [value]:
                if isinstance(entry, str):
                    found.append(Path(os.path.normpath(named.parent / entry)))
    return found


def reloads(name: str, folders: Iterable[Path], changes: Iterable[tuple[Path, int]]) -> list[Path]:
    """Which of `folders` (a pyright server's) reload their configuration for `changes`,
    as basedpyright 1.40 does (`service.ts`, `_updateConfigFileWatcher`): a folder with a
    configuration file (its `pyrightconfig.json`, else its `pyproject.toml`, table or not)
    watches that file and those it extends, for any change; one without watches for a file
    of either name under it written."""
    if PYRIGHT not in name:
        return []
    listed = list(changes)
    return [folder for folder in folders if _reloaded(folder, listed)]


def _reloaded(folder: Path, changes: list[tuple[Path, int]]) -> bool:
    json, pyproject = folder / CONFIG_JSON, folder / PYPROJECT
    chain = {json, pyproject} if json.is_file() or pyproject.is_file() else set()
    if json.is_file():
        chain.discard(pyproject)  # read only through `extends`
    config = _config(folder)
    chain.update(config.read if config is not None else ())
    for path, kind in changes:
        if path in chain:
            return True
        if kind == DELETED and (path == json or (path == pyproject and not json.is_file())):
            return True  # the file it watched, gone
        if (
            not chain
            and kind != DELETED
            and path.name in (CONFIG_JSON, PYPROJECT)
            and path.is_relative_to(folder)
        ):
            return True
    return False


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
