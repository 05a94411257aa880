"""The copy of a project's Python files that lspd's dmypy checks, in lspd's state directory.

dmypy keeps one program warm and re-checks, fine-grained, what changed in the files it
reads. Checking the project's own files, a preview's text could only reach it through
`--shadow-file`, and any change to the shadow map restarts the daemon cold (mypy 2.4.1);
mypy's one-shot incremental mode re-checks every importer of a changed module (rich's
`render_lines` made keyword-only: 13.8 s against dmypy's 5.2 under load), and takes a shadow
of the cached size as unchanged. So the daemon checks this copy: each question says which
text every file has (the disk's, or a preview's or a revision's), the copy is made to hold
exactly that (only the files that differ are written), and dmypy re-checks what changed.
Nothing is ever written into the project.

The copy holds what the project's mypy can see: every Python file under the project, those
git ignores too (a generated `_version.py`), environments and caches aside; a `mypy_path`
or `files` entry leaving the project is written absolute in the copied configuration, so
it still names the directory beside the real project. A project inside a package (pydantic's
tests/typechecking, its own configuration, below tests/__init__.py) is run by its users
where its configuration is, and mypy names its modules from the directory its crawl up the
`__init__.py` files reaches (`package_base`: the repository), which it also searches for
imports (`import pydantic` is the repository's own): the copy is then of that directory,
mypy runs in the project's place inside it. Its root holds an empty `.git` (`VCS_MARK`):
mypy's search for a configuration up from where it runs ends there, as the project's ends at
its repository, never in lspd's state directory or the user's home above the copy.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lspd.errors import InvalidInput
from lspd.workspace.mypy_config import MypyConfig
from lspd.workspace.mypy_outputs import without_outputs
from lspd.workspace.mypy_stamps import Stamp, settled, stamps

PYTHON = (".py", ".pyi")
# What else mypy reads in a package: its `py.typed` mark (PEP 561). The copy of a src-layout
# package reached through an editable install's `.pth` (`mypy_site`: its site-packages
# entry, which mypy reads as installed) without it was an untyped installed package.
MARKS = ("py.typed",)
# What no mypy run reads from: version control, caches, other tools' packages.
SKIPPED = {".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".pytest_cache"}
SKIPPED |= {".ruff_cache", "node_modules", "site-packages"}
# What ends mypy's search for its configuration up from where it runs (mypy 1.15 and later,
# `_find_config_file`: each directory's mypy.ini, .mypy.ini, pyproject.toml, setup.cfg, up
# to the one holding `.git` or `.hg`; then the user's ~/.config/mypy/config, ~/.mypy.ini),
# and its search for .gitignore files (`exclude_gitignore`). The project's own run stops at
# its repository; the copy has none, so mypy went on up lspd's state directory and read a
# configuration found there or in the user's home (a `mypy.ini` above the state directory
# judged the project with `disallow_untyped_defs`). An empty `.git` in the copy ends both at
# its root, as the repository ends the project's; mypy 1.13 reads only where it runs.
VCS_MARK = ".git"
FOLDER = "/"  # how a folder ends among a copy's wanted paths (`Mirror.hold`)
# How a symlinked folder ends among them (no file's name holds it), its text where it leads.
# mypy reads the project's `app/vendor -> ../shared/vendor` as a package folder; a copy
# without it said `Cannot find implementation or library stub` for `app.vendor.util`.
LINK = "\0"


@dataclass(frozen=True)
class Place:
    """Where a project is in its copy: the copy (`copy`) is of `base` (`package_base`: the
    package the project is in, else the project), its files by path relative to it."""

    copy: Path
    project: Path
    base: Path

    @property
    def workdir(self) -> Path:
        """Where mypy runs: the project's place in the copy."""
        return self.copy / self.project.relative_to(self.base)

    @property
    def inside(self) -> str:
        """The project's path in the copy (`tests/typechecking/`), `` where it is the copy."""
        inside = self.project.relative_to(self.base).as_posix()
        return "" if inside == "." else inside + "/"


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
        a folder the state holds with no file mypy reads in it, `Sees.folders`); whether it
        changed. A folder a removal empties goes, as `git apply` or `git rm` leave the tree,
        unless `wanted` names it: mypy reads a folder on its search path as a namespace
        package, so one kept that the disk lacks (or lacked that it has) answered
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

    def leaving(self, wanted: dict[str, bytes]) -> list[str]:
        """The Python files of the copy that `wanted` lacks, where it also adds or changes
        one (else none): the files an update to `wanted` removes first (`dmypy_steps`). None
        where the copy is not this object's as it left it (`_trust` writes it anew)."""
        if not self._trusted or self._last_stamp() != self._stamp:
            return []
        gone = [r for r in self._held if r.endswith(PYTHON) and r not in wanted]
        if not gone:
            return []
        changed = any(
            self._held.get(r) != hashlib.blake2b(d, digest_size=16).digest()
            for r, d in wanted.items()
            if r.endswith(PYTHON)
        )
        return gone if changed else []

    def drop(self, names: list[str]) -> None:
        """The files `names` (held) removed from the copy, every other one left as it is."""
        for relative in [r for r in names if r in self._held and not r.endswith(FOLDER)]:
            path = self.directory / relative
            path.unlink(missing_ok=True)
            del self._held[relative]
            self._emptied(path, self._held)

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


def mypy_sees(directory: Path) -> list[Path]:
    """Every Python file mypy could read under the project `directory` (and `py.typed`
    marks): ignored by git or not (mypy does not read .gitignore), virtual environments
    (a `pyvenv.cfg`) and caches aside; symlinked directories are not followed (a copy
    holds them as links: `Sees.links`)."""
    return _walked(directory)[0]


def _walked(directory: Path) -> tuple[list[Path], list[Path], list[Path], list[Path]]:
    """`mypy_sees`'s files, every directory the walk looked into or at (an environment set
    aside: its `pyvenv.cfg` could go), the folders that stay when every file of
    `mypy_sees` in them is gone (`Sees.folders`), and the symlinked folders (`Sees.links`)."""
    found: list[Path] = []
    looked: list[Path] = []
    stays: list[Path] = []
    links: list[Path] = []
    for top, dirs, files in os.walk(directory):
        here = Path(top)
        looked.append(here)
        every = len(dirs)
        kept = [d for d in dirs if d not in SKIPPED]
        dirs[:] = [d for d in kept if not (here / d / "pyvenv.cfg").exists()]
        looked += [here / d for d in kept if d not in dirs]
        links += [here / d for d in dirs if (here / d).is_symlink()]  # os.walk: not entered
        ours = [here / name for name in files if name.endswith(PYTHON) or name in MARKS]
        found += ours
        other = len(ours) < len(files) or len(dirs) < every or not (files or every)
        if other and here != directory:
            stays.append(here)
    return sorted(found), looked, stays, sorted(links)


class Sees:
    """`mypy_sees` of one project, walked again only when an entry was added to, removed
    from or renamed in one of its directories (their mtimes: `mypy_stamps`); a preview
    asked for it three times, each a walk of the whole tree."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._looked: tuple[Path, ...] = ()
        self._stamps: tuple[Stamp, ...] = ()
        self._files: list[Path] | None = None
        self._folders: list[Path] = []
        self._links: list[Path] = []
        self.walks = 0  # how many times it walked the tree (its tests count them)

    def files(self) -> list[Path]:
        """The files, from the last walk while no directory of it changed."""
        return self._walk()[0]

    def folders(self) -> list[Path]:
        """The folders that stay when every file of `files` in them is gone: empty ones
        (a `rm` of a stub leaves its folder: mypy reads it as a namespace package), or
        holding other files or caches. A copy holds them (`Mirror.hold`, their relative
        paths ending in `/`), and no folder whose files a held state deleted alone, as
        `git apply` leaves none."""
        return self._walk()[1]

    def links(self) -> list[Path]:
        """The symlinked folders (environments and caches aside): mypy reads the files
        under them by their names there too, and a copy holds each as a link (`LINK`)."""
        return self._walk()[2]

    def _walk(self) -> tuple[list[Path], list[Path], list[Path]]:
        with self._lock:
            if self._files is not None and stamps(self._looked) == self._stamps:
                return list(self._files), list(self._folders), list(self._links)
            began = time.time_ns()
            files, looked, self._folders, self._links = _walked(self.directory)
            self.walks += 1
            taken = stamps(looked)
            trusted = settled(taken, began)
            self._looked, self._stamps = tuple(looked), taken
            self._files = files if trusted else None
            return list(files), list(self._folders), list(self._links)


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


def package_base(directory: Path, config: MypyConfig | None) -> Path:
    """The directory mypy names the modules of the project in `directory` from, run
    there: where its crawl up from the project stops (`crawl_up` in mypy's
    find_sources.py: up while a directory holds an `__init__.py`, and with namespace
    packages, mypy's default, through directories without one to the highest that has
    one), else the project itself. mypy searches it for imports too (before
    site-packages), so the copy must hold it. With `explicit_package_bases` the crawl stops
    at the directory mypy runs in."""
    if config is not None and config.explicit_package_bases:
        return directory
    found = _crawled(directory, config is None or config.namespace_packages)
    return directory if found is None else found


def _crawled(directory: Path, namespace: bool) -> Path | None:
    """mypy's `_crawl_up_helper` from `directory`: the base directory of the package it
    belongs to, or None when it belongs to none (names that are no identifier stop it); a
    package whose name is none is refused, as mypy refuses it."""
    name, parent = directory.name.removesuffix("-stubs"), directory.parent
    if any((directory / f"__init__{ext}").is_file() for ext in (".pyi", ".py")):
        if not name.isidentifier():
            raise InvalidInput(
                f"{directory} contains __init__.py but is not a valid Python package name, "
                "so mypy refuses to check the files below it: rename it, or remove its "
                "__init__.py"
            )
        return _crawled(parent, namespace) or parent
    if not name or parent == directory or not name.isidentifier() or not namespace:
        return None
    return _crawled(parent, namespace)


def config_text(
    config: MypyConfig, directory: Path, text: bytes, base: Path | None = None
) -> bytes:
    """The configuration as the copy holds it: each `mypy_path` and `files` entry that
    leaves what the copy holds (`../shared`; the copy is of `base`, the project's
    `package_base`) written absolute, to the directory beside the real project, and so
    each plugin file leaving it (`../plugin.py`, which mypy finds from the configuration's
    directory: the copy's); one that cannot be rewritten is said, with what to write
    instead. Its options that make mypy write or install anything are left out
    (`mypy_outputs`)."""
    result = without_outputs(config.path.name, text.decode("utf-8", "replace"))
    held = directory if base is None else base
    for entry in (*config.mypy_path, *config.files, *_plugin_files(config)):
        real = entry.replace("$MYPY_CONFIG_FILE_DIR", str(directory))
        target = Path(os.path.normpath(directory / real))
        if Path(entry).is_absolute() or target.is_relative_to(held):
            continue
        token = re.compile(r"(?<=[\s\"',=:])" + re.escape(entry) + r"(?=[\s\"',:]|$)", re.M)
        result, count = token.subn(str(target).replace("\\", "\\\\"), result)
        if count == 0:
            raise InvalidInput(
                f"{config.path}: {entry!r} leaves the project, and lspd's copy of it cannot "
                f"be rewritten to reach it: write it as an absolute path ({target})"
            )
    return result.encode("utf-8")


def _plugin_files(config: MypyConfig) -> list[str]:
    """The plugins given as files (`x.py`, `x.py:function`), as mypy reads them: the path
    without its function."""
    files = []
    for plugin in config.plugins:
        path = plugin.rsplit(":", 1)[0] if ":" in os.path.basename(plugin) else plugin
        if path.endswith(".py"):
            files.append(path)
    return files
