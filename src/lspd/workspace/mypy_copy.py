"""The copy of a project's Python files that lspd's dmypy checks, in lspd's state directory.

dmypy keeps one program warm and re-checks, fine-grained, what changed in the files it
reads. Checking the project's own files, a preview's text could only reach it through
`--shadow-file`, and any change to the shadow map restarts the daemon cold (mypy 2.4.1);
mypy's one-shot incremental mode re-checks every importer of a changed module (rich's
`render_lines` made keyword-only: 13.8 s against dmypy's 5.2 under load), and takes a shadow
of the cached size as unchanged. So the daemon checks this copy: each question says which
text every file has (the disk's, or a preview's or a revision's), the copy is made to hold
exactly that (only the files that differ are written), and dmypy re-checks what changed.
Nothing is ever written into the project. What the copy holds of the project, and where
mypy runs in it: `mypy_mirror`.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from lspd.workspace.mypy_mirror import FOLDER, LINK, PYTHON

# What ends mypy's search for its configuration up from where it runs (mypy 1.15 and later,
# `_find_config_file`: each directory's mypy.ini, .mypy.ini, pyproject.toml, setup.cfg, up
# to the one holding `.git` or `.hg`; then the user's ~/.config/mypy/config, ~/.mypy.ini),
# and its search for .gitignore files (`exclude_gitignore`). The project's own run stops at
# its repository; the copy has none, so mypy went on up lspd's state directory and read a
# configuration found there or in the user's home (a `mypy.ini` above the state directory
# judged the project with `disallow_untyped_defs`). An empty `.git` in the copy ends both at
# its root, as the repository ends the project's; mypy 1.13 reads only where it runs.
VCS_MARK = ".git"


class Mirror:
    """A directory holding the texts last asked for, by path relative to the project."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._held: dict[str, bytes] = {}  # a digest of each file's text in the copy
        # The last mtime given (ns): every write gets a later one, also than a copy's before
        # this one (mypy's caches outlive it, and its stamps may run ahead of the clock).
        # It is also what tells this copy's writer: another process sharing the state
        # directory (`mypy_lock`) that wrote the copy left another stamp there.
        self._last = directory.with_name(f"{directory.name}.stamp")
        self._stamp = 0
        self._trusted = False  # a copy from before, or another process's: written anew
        self.clock = time.time_ns  # the writes' wall clock (a test stops it in one second)

    def _trust(self) -> None:
        """Before a write (the lock held): a copy this object did not leave as it is (made
        before it, or written or removed by another process since: the stamp on disk is not
        its last) is removed, so every file is written again with a later stamp."""
        left = self._last_stamp()
        if self._trusted and left == self._stamp and self.directory.is_dir():
            return
        self._held.clear()
        shutil.rmtree(self.directory, ignore_errors=True)
        self._stamp = max(self._stamp, left)
        self._trusted = True

    def _last_stamp(self) -> int:
        """The stamp of the copy's last write, as its writer left it on disk (0: none)."""
        try:
            return int(self._last.read_text())
        except (OSError, ValueError):
            return 0

    def hold(self, wanted: dict[str, bytes]) -> bool:
        """Make the copy hold exactly `wanted` (relative path -> text; a path ending in `/`:
        a folder the state holds with no file mypy reads in it, `mypy_mirror.Sees.folders`);
        whether it changed. A folder a removal empties goes, as `git apply` or `git rm`
        leave the tree, unless `wanted` names it: mypy reads a folder on its search path as
        a namespace package, so one kept that the disk lacks (or lacked that it has) answered
        `Module has no attribute` where mypy says the import's error, or the other way."""
        self._trust()
        changed = False
        for relative in [r for r in self._held if r not in wanted]:
            path = self.directory / relative.removesuffix(LINK)
            if not relative.endswith(FOLDER):
                path.unlink(missing_ok=True)
            del self._held[relative]
            self._emptied(path, wanted)
            changed = True
        return self.put(wanted) or changed

    def edited(self, wanted: dict[str, bytes]) -> list[str] | None:
        """The Python files whose text in `wanted` is not the copy's, sorted; None where a
        file or folder comes or goes, or the copy is not known to be as this object left it
        (all of it is written anew then)."""
        if not self._trusted or self._last_stamp() != self._stamp:
            return None
        if any(r not in wanted for r in self._held) or any(r not in self._held for r in wanted):
            return None
        found = []
        for relative, data in wanted.items():
            if self._held[relative] != hashlib.blake2b(data, digest_size=16).digest():
                found.append(relative)
        return sorted(r for r in found if r.endswith(PYTHON))

    def text_of(self, relative: str) -> bytes | None:
        """The text the copy holds for `relative` (None: none, or unreadable)."""
        try:
            return (self.directory / relative).read_bytes() if relative in self._held else None
        except OSError:
            return None

    def _emptied(self, path: Path, wanted: dict[str, bytes]) -> None:
        """`path`'s folders removed up the copy while empty and not `wanted`."""
        for folder in [path, *path.parents]:
            if folder == self.directory or self.directory not in folder.parents:
                return
            relative = folder.relative_to(self.directory).as_posix() + FOLDER
            if relative in wanted:
                return
            try:
                folder.rmdir()
            except FileNotFoundError:
                continue
            except OSError:  # not empty (or a file): what is left stays
                return

    def put(self, wanted: dict[str, bytes]) -> bool:
        """Make the copy hold `wanted` (relative path -> text), the other files as they
        are; whether it changed."""
        self._trust()
        self.directory.mkdir(parents=True, exist_ok=True)  # dmypy runs in it (and its state)
        (self.directory / VCS_MARK).mkdir(exist_ok=True)  # its search for a configuration ends
        changed = False
        stamp = 0  # this write's mtime, taken at its first file
        for relative, data in wanted.items():
            digest = hashlib.blake2b(data, digest_size=16).digest()
            if self._held.get(relative) == digest:
                continue
            path = self.directory / relative
            if relative.endswith(FOLDER):  # a folder the state holds empty (of mypy's files)
                path.mkdir(parents=True, exist_ok=True)
                self._held[relative] = digest
                changed = True
                continue
            if relative.endswith(LINK):  # a symlinked folder: where it leads (`linked`)
                _linked(self.directory / relative.removesuffix(LINK), data.decode())
                self._held[relative] = digest
                changed = True
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            # dmypy compares mtime and size first, and mypy's cache (run once) the whole
            # seconds of the mtime: a same-size edit must still look changed, so each write
            # lands in a later second than the one before.
            if not stamp:
                stamp = self._stamp = max(self.clock(), self._stamp + 1_000_000_000)
                self._last.write_text(str(stamp))
            os.utime(path, ns=(stamp, stamp))
            self._held[relative] = digest
            changed = True
        return changed

    def removes(self, wanted: dict[str, bytes]) -> bool:
        """Whether `wanted` lacks a Python file the copy holds as this object left it that
        another file may name (`named`): an update dmypy's server does not answer as mypy
        does (`dmypy._stale`)."""
        if not self._trusted or self._last_stamp() != self._stamp:
            return False
        gone = [r for r in self._held if r.endswith(PYTHON) and r not in wanted]
        return bool(gone) and named(gone, wanted)

    def forget(self) -> None:
        """The copy is no longer known (its daemon restarted): written anew next time."""
        self._held.clear()
        self._trusted = False
        shutil.rmtree(self.directory, ignore_errors=True)


def _linked(path: Path, target: str) -> None:
    """A symlink at `path` leading to `target`, in place of what was there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    os.symlink(target, path)


def bare_folders(wanted: Mapping[str, bytes]) -> frozenset[str]:
    """The folders a copy holding `wanted` (`Mirror.hold`) has with no Python file under
    them: a namespace package to mypy where its search path reaches one (a stub's folder
    a `rm` left), which dmypy's fine-grained update does not see come or go; and the
    symlinked folders, each with where it leads (`LINK`: a package coming, going or led
    elsewhere at once, which its update does not see either)."""
    folders: set[str] = set()
    sourced: set[str] = set()
    links: set[str] = set()
    for relative, data in wanted.items():
        path = PurePosixPath(relative.removesuffix(LINK))
        above = {p.as_posix() for p in path.parents} - {"."}
        folders |= above | ({path.as_posix()} if relative.endswith(FOLDER) else set())
        if relative.endswith(PYTHON):
            sourced |= above
        if relative.endswith(LINK):
            links.add(f"{relative}{data.decode()}")
            sourced |= above
    return frozenset(folders - sourced) | links


def named(gone: list[str], wanted: Mapping[str, bytes]) -> bool:
    """Whether the removal of the Python files `gone` may reach a file of `wanted`: one is
    a package's `__init__`, or a removed module's name is a word of some text there (an
    import of it, relative or not, `from pkg import mod`, the configuration's `files`),
    read widely. A removal nothing names (an unimported leaf: rich's diagnose.py) is an
    update dmypy answers as mypy does, warm: 1.6 s where a whole build took 12.4."""
    stems = {PurePosixPath(relative).name.split(".")[0] for relative in gone}
    if "__init__" in stems:
        return True
    words = b"|".join(re.escape(stem.encode()) for stem in sorted(stems))
    word = re.compile(rb"\b(?:" + words + rb")\b")
    return any(word.search(data) for data in wanted.values())
